package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A column that {@code kubectl get} shows for a custom resource, written into the CRD's
 * {@code additionalPrinterColumns}; repeat it for more columns, in the order given. A
 * path that names no field of the schema is refused when the CRD is written.
 *
 * <pre class="code">
 * &#64;PrinterColumn(name = "Size", jsonPath = ".spec.size")
 * &#64;PrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp")
 * </pre>
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(PrinterColumns.class)
public @interface PrinterColumn {

	/**
	 * The column's header.
	 * @return the name
	 */
	String name();

	/**
	 * The JSONPath of the value, relative to the object, such as {@code .spec.size}.
	 * @return the path
	 */
	String jsonPath();

	/**
	 * The OpenAPI type of the value: {@code integer}, {@code number}, {@code boolean},
	 * {@code date} or {@code string}. By default the type of the field that
	 * {@link #jsonPath()} names: {@code integer} for an {@code int} or {@code long},
	 * {@code number} for a {@code float} or {@code double}, {@code boolean}, {@code date}
	 * for an {@code OffsetDateTime} and for {@code .metadata.creationTimestamp}, and
	 * {@code string} for the rest and for a path with a filter, an index or a wildcard.
	 * @return the type, or empty to take the field's
	 */
	String type() default "";

	/**
	 * An optional OpenAPI format of the value, such as {@code int32}; none by default.
	 * @return the format
	 */
	String format() default "";

	/**
	 * A description of the column; none by default.
	 * @return the description
	 */
	String description() default "";

	/**
	 * The column's priority: {@code 0} (the default) shows it always, a higher value only
	 * with {@code kubectl get -o wide}.
	 * @return the priority
	 */
	int priority() default 0;

}
