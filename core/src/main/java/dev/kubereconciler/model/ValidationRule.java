package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A CEL rule that the API server checks on every write of the annotated field or type,
 * written into its schema's {@code x-kubernetes-validations}; {@code self} is the value
 * of the field or type.
 *
 * <pre class="code">
 * &#64;ValidationRule(value = "self.minReplicas &lt;= self.maxReplicas", message = "minReplicas must not exceed maxReplicas")
 * public record ScalingSpec(int minReplicas, int maxReplicas) { }
 * </pre>
 */
@Target({ ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(ValidationRules.class)
public @interface ValidationRule {

	/**
	 * The CEL expression, true for a valid value.
	 * @return the rule
	 */
	String value();

	/**
	 * The message of the refusal; the API server writes one from the rule when empty, the
	 * default.
	 * @return the message
	 */
	String message() default "";

}
