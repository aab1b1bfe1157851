package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The value the API server sets for a field that an object leaves out.
 *
 * <p>
 * For a string or enum field the value is taken as it is ({@code @Default("blue")}); for
 * any other field it is JSON ({@code @Default("3")}, {@code @Default("true")},
 * {@code @Default("{\"a\": 1}")}).
 */
@Target({ ElementType.FIELD, ElementType.RECORD_COMPONENT })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Default {

	/**
	 * The default value.
	 * @return the value
	 */
	String value();

}
