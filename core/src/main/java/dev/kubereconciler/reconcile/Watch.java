package dev.kubereconciler.reconcile;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import io.kubernetes.client.common.KubernetesObject;

/**
 * A mapped watch on {@link Reconciler#maps()}: changes of {@link #type()} reconcile the
 * keys that the named {@link RequestMapper} bean returns.
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Watch {

	/**
	 * The watched type.
	 * @return the client-java model class
	 */
	Class<? extends KubernetesObject> type();

	/**
	 * The name of a {@link RequestMapper} bean that maps an object of {@link #type()} to
	 * keys.
	 * @return the bean name
	 */
	String mapper();

}
