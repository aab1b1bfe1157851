/**
 * The operator of {@code ${kind}} resources: the model, its reconciler with the ConfigMap it
 * owns, and its validating webhook.
 */
@NullMarked
package ${package};

import org.jspecify.annotations.NullMarked;
