/**
 * The Spring Boot application of the start-up benchmark ({@code benchmarks/startup.sh});
 * it is measured as a plain jar, with Spring AOT and class data sharing, and with a Java
 * 25 AOT cache.
 */
@NullMarked
package dev.kubereconciler.benchmarks.startup;

import org.jspecify.annotations.NullMarked;
