package dev.kubereconciler.reconcile;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.kubernetes.client.common.KubernetesObject;

import dev.kubereconciler.cluster.ClusterScope;

/**
 * Marks a bean method as the reconcile function of a managed controller.
 *
 * <p>
 * Supported signatures, where {@code T} is the watched type, each returning
 * {@link Result} or {@code void} (which means {@link Result#done()} unless it throws):
 * <ul>
 * <li>{@code m(Request)}</li>
 * <li>{@code m(T)} and {@code m(T, ReconcileContext<T>)}: the object is a private copy of
 * the cached one, and the method is not called once the object is gone</li>
 * <li>{@code m(Request, ReconcileContext<T>)}: called also when the object is gone</li>
 * </ul>
 * Properties under {@code kube-reconciler.controllers.<name>} win over the attributes
 * here, so operators can tune a controller without recompiling.
 *
 * <pre class="code">
 * &#64;Component
 * class ConfigMapMirror {
 *
 *     &#64;Reconciler(name = "configmap-mirror", watches = V1ConfigMap.class)
 *     Result reconcile(Request request) { ... }
 *
 * }
 * </pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Reconciler {

	/**
	 * The controller name, unique in the application. Defaults to the watched kind in
	 * lower case (for example {@code configmap}), as in controller-runtime.
	 * @return the controller name
	 */
	String name() default "";

	/**
	 * The primary type: its events enqueue the object's own key. Left out, it is the type
	 * of the method's object parameter, else the type argument of its
	 * {@code ReconcileContext<T>}; a method that takes only a {@link Request} names it.
	 * @return the watched client-java model class, {@code KubernetesObject} for the one
	 * the method's parameters name
	 */
	Class<? extends KubernetesObject> watches() default KubernetesObject.class;

	/**
	 * Owned types: their events enqueue the key of their controlling owner of the primary
	 * type.
	 * @return the owned client-java model classes
	 */
	Class<? extends KubernetesObject>[] owns() default {};

	/**
	 * The namespaces to watch; empty for all namespaces.
	 * @return the namespaces
	 */
	String[] namespaces() default {};

	/**
	 * A label selector that primary objects must match, such as {@code mirror=true}.
	 * @return the label selector, empty for everything
	 */
	String labelSelector() default "";

	/**
	 * The number of workers; {@code -1} (the default) means
	 * {@code kube-reconciler.defaults.max-concurrent-reconciles}.
	 * @return the number of workers
	 */
	int maxConcurrentReconciles() default -1;

	/**
	 * The name of a {@code RateLimiter} bean for this controller; empty means
	 * {@code kube-reconciler.defaults.rate-limiter}.
	 * @return the bean name
	 */
	String rateLimiter() default "";

	/**
	 * A finalizer, such as {@code example.com/cleanup}, that the controller adds to every
	 * primary object before its first reconcile and removes once the cleanup succeeded
	 * after the object's deletion was requested. The cleanup is the bean's own
	 * {@link Cleaner} for the watched type: the bean that declares this method implements
	 * {@code Cleaner<T>}. Empty for {@code <group>/<controller name>-finalizer} (with
	 * {@code kubereconciler.dev} for the core group) when the bean implements
	 * {@code Cleaner<T>}, and for none otherwise.
	 * @return the finalizer
	 */
	String finalizer() default "";

	/**
	 * Built-in filters that updates of the primary type must all pass to reconcile;
	 * creates and deletes always pass.
	 * {@code kube-reconciler.controllers.<name>.event-filters} replaces these and
	 * {@link #updateFilterBeans()} together.
	 * @return the filters, none by default
	 */
	UpdateFilter[] updateFilters() default {};

	/**
	 * Names of {@link UpdatePredicate} beans that updates of the primary type must also
	 * pass.
	 * @return the bean names
	 */
	String[] updateFilterBeans() default {};

	/**
	 * Mapped watches: other types whose changes reconcile the keys a
	 * {@link RequestMapper} bean returns.
	 * @return the mapped watches
	 */
	Watch[] maps() default {};

	/**
	 * Names of {@code Dependent<T, ?>} beans, where {@code T} is the watched type: the
	 * objects each primary object owns, which the controller applies before each
	 * reconcile, waits for and prunes. Their types are owned, as with {@link #owns()}.
	 * Left empty, the controller takes every {@code Dependent<T, ?>} bean when it is the
	 * only {@code @Reconciler} method watching {@code T}: names only choose among several
	 * controllers of one type, and a method that names beans gets exactly those.
	 * {@code kube-reconciler.controllers.<name>.dependents.<dependent>.*} turns one off
	 * or changes its ready timeout.
	 * @return the bean names, none by default
	 */
	String[] dependents() default {};

	/**
	 * Whether the controller keeps a {@code Ready} condition in the primary object's
	 * {@code status.conditions}, saying whether every dependent is ready and naming the
	 * first that is not; the watched type's status needs a {@code conditions} list.
	 * @return whether to write it, {@code false} by default
	 */
	boolean readyCondition() default false;

	/**
	 * Names of {@code dev.kubereconciler.source.Source} beans: where keys come from
	 * besides the watches, such as a channel that an HTTP endpoint pushes keys into or a
	 * source that polls an external system. Each starts and stops with the controller's
	 * workers. {@code kube-reconciler.controllers.<name>.sources.<source>.period} changes
	 * the period of a polling or timer source.
	 * @return the bean names, none by default
	 */
	String[] sources() default {};

	/**
	 * Where the controller reconciles: the manager's own cluster, the clusters a cluster
	 * provider engages, or both; each request names its cluster.
	 * {@code kube-reconciler.controllers.<name>.clusters} overrides it.
	 * @return the scope, {@link ClusterScope#LOCAL} by default
	 */
	ClusterScope clusters() default ClusterScope.LOCAL;

}
