package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Keeps the fields of a value that its schema does not name, instead of letting the API
 * server prune them ({@code x-kubernetes-preserve-unknown-fields}), for example a class
 * that names the fields it reads of a larger object. Free-form JSON ({@code Object},
 * {@code Map<String, Object>}, Gson's {@code JsonElement}) keeps its fields without it.
 */
@Target({ ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface PreserveUnknownFields {

}
