package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Declares the API coordinates of a custom resource's client-java model class, so that a
 * controller can watch or own it without a call to client-java's
 * {@code ModelMapper.addModelMap} before the application starts; kube-reconciler
 * registers it there on first use.
 *
 * <pre class="code">
 * &#64;ResourceCoordinates(group = "sample.kubereconciler.dev", version = "v1alpha1", kind = "Widget", plural = "widgets")
 * public class Widget implements KubernetesObject { ... }
 * </pre>
 *
 * <p>
 * The list class is found by name, a {@code WidgetList} next to {@code Widget} that
 * implements {@code KubernetesListObject}; without one, the model is listed as a
 * {@link CustomResourceList} of it. A model that extends {@link CustomResource} takes its
 * {@code apiVersion} and {@code kind} from this annotation.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ResourceCoordinates {

	/**
	 * The API group, such as {@code sample.kubereconciler.dev}; empty for the core group.
	 * @return the group
	 */
	String group();

	/**
	 * The API version, such as {@code v1alpha1}.
	 * @return the version
	 */
	String version();

	/**
	 * The kind, such as {@code Widget}.
	 * @return the kind
	 */
	String kind();

	/**
	 * The plural resource name, such as {@code widgets}.
	 * @return the plural
	 */
	String plural();

	/**
	 * Whether objects of this kind live in a namespace.
	 * @return {@code true} (the default) for namespaced resources
	 */
	boolean namespaced() default true;

}
