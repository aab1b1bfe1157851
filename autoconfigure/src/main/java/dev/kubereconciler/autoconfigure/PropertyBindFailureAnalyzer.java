package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.Locale;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

import dev.kubereconciler.reconcile.Trigger;

/**
 * Explains a {@code kube-reconciler.*} value that does not convert to its type, with the
 * forms the property accepts; Spring Boot's own analysis only says to update the
 * configuration.
 */
@Order(0)
class PropertyBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		String name = cause.getName().toString();
		if (!name.startsWith("kube-reconciler.")) {
			return null;
		}
		ConfigurationProperty property = cause.getProperty();
		Object value = (property != null) ? property.getValue() : null;
		ResolvableType target = cause.getTarget().getType();
		Class<?> type = target.resolve(Object.class);
		if (target.asCollection() != ResolvableType.NONE) {
			// a value of a list or set fails on its element, whose type tells the
			// accepted values
			type = target.asCollection().resolveGeneric(0);
			type = (type != null) ? type : Object.class;
		}
		String description = String
			.format("Invalid kube-reconciler configuration:%n%n    Property: %s%n    Value: \"%s\"%n"
					+ "%s    Reason: %s%n", name, value, origin(property), reason(rootFailure));
		return new FailureAnalysis(description, action(name, type), cause);
	}

	private static String origin(@Nullable ConfigurationProperty property) {
		return (property != null && property.getOrigin() != null)
				? String.format("    Origin: %s%n", property.getOrigin()) : "";
	}

	private static @Nullable String reason(Throwable failure) {
		Throwable cause = failure;
		while (cause.getCause() != null) {
			cause = cause.getCause();
		}
		return cause.getMessage();
	}

	private static String action(String name, Class<?> type) {
		if (type == Duration.class) {
			return "Write " + name + " as a duration such as 500ms, 30s, 5m or 2h (or ISO-8601, such as PT30S).";
		}
		if (type == Boolean.class || type == boolean.class) {
			return "Set " + name + " to true or false.";
		}
		if (type.isEnum()) {
			StringBuilder values = new StringBuilder();
			// a resync is no cause a property can name: the queue records it as an event
			Object[] constants = (type == Trigger.class) ? Trigger.queued().toArray() : type.getEnumConstants();
			for (Object constant : constants) {
				values.append((values.length() > 0) ? ", " : "")
					.append(((Enum<?>) constant).name().toLowerCase(Locale.ROOT).replace('_', '-'));
			}
			return "Set " + name + " to one of " + values + ".";
		}
		if (Number.class.isAssignableFrom(type) || type.isPrimitive()) {
			return "Set " + name + " to a number.";
		}
		return "Set " + name + " to a value of type " + type.getSimpleName() + ".";
	}

}
