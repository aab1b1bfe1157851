package dev.kubereconciler.model;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks the model class of the version a multi-version CRD stores in etcd, as
 * kubebuilder's {@code +kubebuilder:storageversion} does: when several classes declare
 * versions of one CRD, exactly one of them carries it. A CRD of one version stores that
 * version with or without it.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface StorageVersion {

}
