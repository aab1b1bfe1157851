package dev.kubereconciler.reconcile;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method as the cleanup of a managed controller that declares a finalizer:
 * it runs once the object's deletion is requested, and the finalizer is removed when it
 * returns {@link Result#done()} (or, for a {@code void} method, returns normally).
 *
 * <p>
 * Supported signatures are {@code Result m(T)}, {@code Result m(T, ReconcileContext<T>)}
 * and their {@code void} forms, where {@code T} is the controller's watched type.
 *
 * <pre class="code">
 * &#64;Cleanup("widget")
 * void cleanup(Widget widget, ReconcileContext&lt;Widget&gt; context) { ... }
 * </pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Cleanup {

	/**
	 * The name of the controller whose finalizer this method serves.
	 * @return the controller name
	 */
	String value();

}
