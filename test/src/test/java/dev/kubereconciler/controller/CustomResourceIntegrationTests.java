package dev.kubereconciler.controller;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kubernetes.client.informer.cache.ReflectorRunnable;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.generic.GenericKubernetesApi;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.test.KubernetesTest;
import dev.kubereconciler.test.TestNamespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A custom resource on the base class, with record spec and status and no list class,
 * against the real test API server: its informer lists and watches it as the model class,
 * and a reconciler reads, updates, applies it and writes its status.
 */
@KubernetesTest(crds = "dev/kubereconciler/controller/backups.yaml")
class CustomResourceIntegrationTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final Backup.Spec NIGHTLY = new Backup.Spec("0 3 * * *", List.of("db", "files"));

	@RegisterExtension
	final StartedManagers managers = new StartedManagers();

	ApiClient client;

	TestNamespace namespace;

	@Test
	void aModelOnTheBaseClassIsReadWrittenAndListedWithoutAListClass() throws ApiException {
		String ns = this.namespace.name();
		List<Object> listed = new CopyOnWriteArrayList<>();
		// created before the manager starts, so that the informer's first list, not its
		// watch, brings it: items of a list read without their type would be maps
		Backup nightly = new Backup();
		nightly.setMetadata(new V1ObjectMeta().name("nightly").namespace(ns));
		nightly.setSpec(NIGHTLY);
		backups().create(nightly).throwsApiException();
		ControllerManager manager = this.managers.start(ControllerManager.builder(this.client)
			.controller(ControllerDefinition.builder(Backup.class)
				.named("backups")
				.namespaces(ns)
				.reconcile((backup, context) -> {
					String name = backup.getMetadata().getName();
					listed.addAll(context.list(Backup.class, ns, ""));
					assertThat(context.get(Backup.class, ns, name)).contains(backup);
					if (!name.endsWith("-copy")) {
						Backup copy = new Backup();
						copy.getMetadata().name(name + "-copy").namespace(ns);
						copy.setSpec(backup.getSpec());
						context.apply(copy);
					}
					if (backup.getMetadata().getLabels() == null
							|| !backup.getMetadata().getLabels().containsKey("updated")) {
						backup.getMetadata().putLabelsItem("updated", "yes");
						backup = context.update(backup);
					}
					backup.setStatus(new Backup.Status("Ready", backup.getMetadata().getGeneration()));
					context.updateStatus(backup);
					return Result.done();
				})));
		await().atMost(TIMEOUT)
			.until(() -> ready(manager, "nightly") && ready(manager, "nightly-copy")
					&& "yes".equals(manager.lister(Backup.class)
						.namespace(ns)
						.get("nightly")
						.getMetadata()
						.getLabels()
						.get("updated")));
		// the cached objects are of the model class, with record spec and status
		for (String name : List.of("nightly", "nightly-copy")) {
			Backup cached = manager.lister(Backup.class).namespace(ns).get(name);
			assertThat(cached.getApiVersion()).isEqualTo(Backup.GROUP + "/v1");
			assertThat(cached.getKind()).isEqualTo("Backup");
			assertThat(cached.getSpec()).isEqualTo(NIGHTLY);
			assertThat(cached.getStatus()).isEqualTo(new Backup.Status("Ready", 1L));
		}
		// the status went through the /status subresource to the server
		Backup stored = backups().get(ns, "nightly").throwsApiException().getObject();
		assertThat(stored.getStatus()).isEqualTo(new Backup.Status("Ready", 1L));
		assertThat(stored.getSpec()).isEqualTo(NIGHTLY);
		assertThat(listed).isNotEmpty().allSatisfy((item) -> assertThat(item).isInstanceOf(Backup.class));
		assertThat(this.managers.errors()).isEmpty();
	}

	@Test
	void clientJavaWarnsOfAModelWithoutSetKindButNotOfOneOnTheBaseClass() throws ApiException {
		Gadget.install(this.client);
		ListAppender<ILoggingEvent> logs = new ListAppender<>();
		Logger reflector = (Logger) LoggerFactory.getLogger(ReflectorRunnable.class);
		Level level = reflector.getLevel();
		reflector.setLevel(Level.INFO);
		logs.start();
		reflector.addAppender(logs);
		try {
			ControllerManager manager = this.managers.start(ControllerManager.builder(this.client)
				.controller(ControllerDefinition.builder(Backup.class)
					.named("backup-informer")
					.namespaces(this.namespace.name())
					.reconcile((request) -> Result.done()))
				.controller(ControllerDefinition.builder(Gadget.class)
					.named("gadget-informer")
					.namespaces(this.namespace.name())
					.reconcile((request) -> Result.done())));
			await().atMost(TIMEOUT).until(manager::hasSynced);
		}
		finally {
			reflector.detachAppender(logs);
			reflector.setLevel(level);
		}
		List<String> warnings = logs.list.stream()
			.filter((event) -> event.getLevel() == Level.WARN)
			.map(ILoggingEvent::getFormattedMessage)
			.filter((message) -> message.contains("setKind or setApiVersion method not found"))
			.toList();
		// Gadget, which has no setters, shows that the warning is captured here
		assertThat(warnings).anySatisfy((message) -> assertThat(message).contains(Gadget.class.getName()))
			.noneSatisfy((message) -> assertThat(message).contains(Backup.class.getName()));
	}

	private boolean ready(ControllerManager manager, String name) {
		Backup cached = manager.lister(Backup.class).namespace(this.namespace.name()).get(name);
		return cached != null && cached.getStatus() != null && "Ready".equals(cached.getStatus().phase());
	}

	@SuppressWarnings({ "unchecked", "rawtypes" })
	private GenericKubernetesApi<Backup, ?> backups() {
		return new GenericKubernetesApi(Backup.class, CustomResourceList.class, Backup.GROUP, "v1", "backups",
				this.client);
	}

}
