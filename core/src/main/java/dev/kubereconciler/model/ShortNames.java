package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The short names of a custom resource, such as {@code wd} for {@code kubectl get wd}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ShortNames {

	/**
	 * The short names, lower case.
	 * @return the short names
	 */
	String[] value();

}
