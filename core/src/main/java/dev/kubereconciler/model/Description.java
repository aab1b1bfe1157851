package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The description of a field or type in the CRD's schema, which {@code kubectl explain}
 * shows; Javadoc is gone by run time, so the generator reads this instead.
 */
@Target({ ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Description {

	/**
	 * The description.
	 * @return the description
	 */
	String value();

}
