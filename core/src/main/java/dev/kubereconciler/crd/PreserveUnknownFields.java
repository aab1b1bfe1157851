package dev.kubereconciler.crd;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Keeps the fields of a value that its schema does not name, instead of letting the API
 * server prune them ({@code x-kubernetes-preserve-unknown-fields}); the way to give a
 * field of free-form JSON, such as an {@code Object} or a {@code Map<String, Object>}, a
 * place in a structural schema.
 */
@Target({ ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface PreserveUnknownFields {

}
