package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The categories a custom resource belongs to, such as {@code all}, so that
 * {@code kubectl get all} lists it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Categories {

	/**
	 * The categories, lower case.
	 * @return the categories
	 */
	String[] value();

}
