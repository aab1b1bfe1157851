package dev.kubereconciler.benchmarks.startup;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.kubernetes.client.openapi.models.V1ConfigMap;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;

/**
 * The application's one controller, a no-op on ConfigMaps, which marks the moments of the
 * start-up and exits the JVM once every expected ConfigMap had its first reconcile.
 */
@Component
public class FirstReconciles implements SmartInitializingSingleton, ApplicationListener<ContextRefreshedEvent> {

	private final Set<String> seen = ConcurrentHashMap.newKeySet();

	private final AtomicInteger count = new AtomicInteger();

	private final int objects;

	private final boolean exit;

	private final StartupSteps steps;

	public FirstReconciles(@Value("${startup.objects}") int objects, @Value("${startup.exit:true}") boolean exit,
			StartupSteps steps) {
		this.objects = objects;
		this.exit = exit;
		this.steps = steps;
	}

	// the namespace is kube-reconciler.controllers.startup.namespaces, in
	// application.yaml
	@Reconciler(name = "startup", watches = V1ConfigMap.class)
	public void reconcile(Request request) {
		if (!this.seen.add(request.name())) {
			return;
		}
		int count = this.count.incrementAndGet();
		if (count == 1) {
			Milestones.reached("first-first-reconcile");
		}
		if (count == this.objects) {
			Milestones.reached("last-first-reconcile");
			this.steps.print();
			if (this.exit) {
				// not on this worker: the shutdown hook waits for the reconciles in
				// flight
				Thread exit = new Thread(() -> System.exit(0), "startup-exit");
				exit.start();
			}
		}
	}

	@Override
	public void afterSingletonsInstantiated() {
		Milestones.reached("beans");
	}

	@Override
	public void onApplicationEvent(ContextRefreshedEvent event) {
		Milestones.reached("refreshed");
	}

}
