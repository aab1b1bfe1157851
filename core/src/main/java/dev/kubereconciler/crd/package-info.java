/**
 * CustomResourceDefinitions generated from custom resource model classes and the
 * annotations of {@code dev.kubereconciler.model}: the generator that writes them at
 * build time, and the installer.
 *
 * <p>
 * Public API: {@link dev.kubereconciler.crd.CrdGenerator} and the
 * {@link dev.kubereconciler.crd.WebhookClientConfig} it writes into a multi-version CRD,
 * {@link dev.kubereconciler.crd.CrdFiles} and
 * {@link dev.kubereconciler.crd.CrdInstaller}; the schema walk and the checks and order
 * of a CRD's versions are package-private. The model annotations are read only at build
 * time; the generator needs {@code com.github.victools:jsonschema-generator} and
 * {@code jsonschema-module-jakarta-validation} on the build's class path, an optional
 * dependency of core that applications need not carry at run time.
 */
@NullMarked
package dev.kubereconciler.crd;

import org.jspecify.annotations.NullMarked;
