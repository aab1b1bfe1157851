/**
 * The reference of the start-up benchmark: Java Operator SDK's plain {@code Operator} on
 * the same ConfigMaps as the Spring Boot application.
 */
@NullMarked
package dev.kubereconciler.benchmarks.startup.josdk;

import org.jspecify.annotations.NullMarked;
