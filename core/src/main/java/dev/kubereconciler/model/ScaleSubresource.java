package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Turns on the {@code scale} subresource of a custom resource, so that
 * {@code kubectl scale} and a HorizontalPodAutoscaler can set its replicas.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ScaleSubresource {

	/**
	 * The JSONPath of the desired replicas, an integer under {@code .spec}.
	 * @return the path; {@code .spec.replicas} by default
	 */
	String specReplicasPath() default ".spec.replicas";

	/**
	 * The JSONPath of the observed replicas, an integer under {@code .status}.
	 * @return the path; {@code .status.replicas} by default
	 */
	String statusReplicasPath() default ".status.replicas";

	/**
	 * The JSONPath of the label selector in string form under {@code .status}, which a
	 * HorizontalPodAutoscaler needs; none by default.
	 * @return the path
	 */
	String labelSelectorPath() default "";

}
