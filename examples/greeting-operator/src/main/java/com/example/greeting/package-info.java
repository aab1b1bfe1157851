/**
 * The greeting operator: a {@code Greeting} custom resource and the reconciler that
 * answers each one with a ConfigMap.
 */
@NullMarked
package com.example.greeting;

import org.jspecify.annotations.NullMarked;
