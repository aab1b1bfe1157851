package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.autoconfigure.RateLimiterProperties.Type;
import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.ratelimit.RateLimiters;
import dev.kubereconciler.reconcile.Request;

/**
 * Builds the {@link RateLimiter} that a {@link RateLimiterProperties} describes, and
 * rejects values that cannot work with an {@link InvalidPropertyException} naming the
 * property.
 */
public final class RateLimiterFactory {

	private final Function<String, @Nullable RateLimiter<Request>> beans;

	/**
	 * Create a factory.
	 * @param beans resolves a {@code RateLimiter} bean by name, or returns {@code null}
	 */
	public RateLimiterFactory(Function<String, @Nullable RateLimiter<Request>> beans) {
		this.beans = beans;
	}

	public RateLimiter<Request> create(String prefix, RateLimiterProperties properties) {
		return switch (type(prefix, properties)) {
			case DEFAULT -> RateLimiters.maxOf(exponential(prefix, properties), bucket(prefix, properties));
			case EXPONENTIAL -> exponential(prefix, properties);
			case BUCKET -> bucket(prefix, properties);
			case FAST_SLOW -> fastSlow(prefix, properties);
			case MAX_OF -> maxOf(prefix, properties);
			case MAX_WAIT -> maxWait(prefix, properties);
			case NONE -> RateLimiters.none();
			case BEAN -> bean(prefix, properties.getBean());
		};
	}

	private static final Map<Type, Set<String>> FIELDS = fields();

	/**
	 * Return the type and check that it uses every field that is set: a field the type
	 * ignores is a typo or a misunderstanding, never what the user meant.
	 */
	private static Type type(String prefix, RateLimiterProperties properties) {
		Type type = properties.effectiveType();
		for (Map.Entry<String, Object> entry : properties.setFields().entrySet()) {
			String field = entry.getKey();
			// fields() lists every type
			if (!Objects.requireNonNull(FIELDS.get(type)).contains(field)) {
				throw new InvalidPropertyException(prefix + "." + field, entry.getValue(),
						"type " + name(type) + " does not use " + field, "Remove " + prefix + "." + field + ", or set "
								+ prefix + ".type to a type that uses it (" + typesUsing(field) + ").");
			}
		}
		return type;
	}

	private static String typesUsing(String field) {
		List<String> types = new ArrayList<>();
		FIELDS.forEach((type, fields) -> {
			if (fields.contains(field)) {
				types.add(name(type));
			}
		});
		return String.join(", ", types);
	}

	private static String name(Type type) {
		return type.name().toLowerCase(Locale.ROOT).replace('_', '-');
	}

	private static Map<Type, Set<String>> fields() {
		Map<Type, Set<String>> fields = new EnumMap<>(Type.class);
		fields.put(Type.DEFAULT, Set.of("base-delay", "max-delay", "qps", "burst"));
		fields.put(Type.EXPONENTIAL, Set.of("base-delay", "max-delay"));
		fields.put(Type.BUCKET, Set.of("qps", "burst"));
		fields.put(Type.FAST_SLOW, Set.of("fast-delay", "slow-delay", "max-fast-attempts"));
		fields.put(Type.MAX_OF, Set.of("limiters"));
		fields.put(Type.MAX_WAIT, Set.of("max-wait", "limiters"));
		fields.put(Type.NONE, Set.of());
		fields.put(Type.BEAN, Set.of("bean"));
		return fields;
	}

	private RateLimiter<Request> exponential(String prefix, RateLimiterProperties properties) {
		Duration base = orDefault(properties.getBaseDelay(), RateLimiters.DEFAULT_BASE_DELAY);
		Duration max = orDefault(properties.getMaxDelay(), RateLimiters.DEFAULT_MAX_DELAY);
		requirePositive(prefix + ".base-delay", base);
		requirePositive(prefix + ".max-delay", max);
		if (base.compareTo(max) > 0) {
			throw new InvalidPropertyException(prefix + ".base-delay", base,
					"the base delay is above the max delay (" + InvalidPropertyFailureAnalyzer.format(max) + ")",
					"Set " + prefix + ".base-delay to at most " + prefix + ".max-delay, or raise the max delay.");
		}
		return RateLimiters.exponential(base, max);
	}

	private RateLimiter<Request> bucket(String prefix, RateLimiterProperties properties) {
		double qps = (properties.getQps() != null) ? properties.getQps() : RateLimiters.DEFAULT_QPS;
		int burst = (properties.getBurst() != null) ? properties.getBurst() : RateLimiters.DEFAULT_BURST;
		requireQps(prefix + ".qps", qps);
		requireBurst(prefix + ".burst", burst);
		return RateLimiters.bucket(qps, burst);
	}

	private RateLimiter<Request> fastSlow(String prefix, RateLimiterProperties properties) {
		Duration fast = require(prefix + ".fast-delay", properties.getFastDelay());
		Duration slow = require(prefix + ".slow-delay", properties.getSlowDelay());
		Integer attempts = require(prefix + ".max-fast-attempts", properties.getMaxFastAttempts());
		if (fast.isNegative()) {
			throw new InvalidPropertyException(prefix + ".fast-delay", fast, "a delay cannot be negative",
					"Set a delay of 0 or more.");
		}
		if (slow.isNegative()) {
			throw new InvalidPropertyException(prefix + ".slow-delay", slow, "a delay cannot be negative",
					"Set a delay of 0 or more.");
		}
		if (attempts < 0) {
			throw new InvalidPropertyException(prefix + ".max-fast-attempts", attempts,
					"the number of fast attempts cannot be negative", "Set 0 or more.");
		}
		return RateLimiters.fastSlow(fast, slow, attempts);
	}

	@SuppressWarnings("unchecked")
	private RateLimiter<Request> maxOf(String prefix, RateLimiterProperties properties) {
		List<RateLimiterProperties> children = properties.getLimiters();
		if (children.isEmpty()) {
			throw new InvalidPropertyException(prefix + ".limiters", "[]", "max-of needs at least one child limiter",
					"List the limiters to combine under " + prefix + ".limiters.");
		}
		List<RateLimiter<Request>> limiters = new ArrayList<>();
		for (int i = 0; i < children.size(); i++) {
			limiters.add(create(prefix + ".limiters[" + i + "]", children.get(i)));
		}
		return RateLimiters.maxOf(limiters.toArray(RateLimiter[]::new));
	}

	private RateLimiter<Request> maxWait(String prefix, RateLimiterProperties properties) {
		Duration maxWait = require(prefix + ".max-wait", properties.getMaxWait());
		requirePositive(prefix + ".max-wait", maxWait);
		if (properties.getLimiters().size() != 1) {
			throw new InvalidPropertyException(prefix + ".limiters", properties.getLimiters().size() + " limiters",
					"max-wait wraps exactly one limiter", "List exactly one limiter under " + prefix + ".limiters.");
		}
		return RateLimiters.maxWait(create(prefix + ".limiters[0]", properties.getLimiters().get(0)), maxWait);
	}

	public RateLimiter<Request> bean(String property, @Nullable String name) {
		if (name == null || name.isBlank()) {
			throw new InvalidPropertyException(property + ".bean", name, "type bean needs a bean name",
					"Set " + property + ".bean to the name of a RateLimiter bean.");
		}
		RateLimiter<Request> limiter = this.beans.apply(name);
		if (limiter == null) {
			throw new InvalidPropertyException(property.endsWith("rateLimiter") ? property : property + ".bean", name,
					"there is no RateLimiter bean of that name",
					"Define a RateLimiter (or client-java RateLimiter) bean named '" + name + "', or fix the name.");
		}
		return limiter;
	}

	static void requireQps(String property, double qps) {
		if (!(qps > 0)) {
			throw new InvalidPropertyException(property, qps, "qps must be greater than 0",
					"Set " + property + " to a positive number of tokens per second, or remove it.");
		}
	}

	static void requireBurst(String property, int burst) {
		if (burst < 1) {
			throw new InvalidPropertyException(property, burst, "burst must be at least 1",
					"Set " + property + " to 1 or more.");
		}
	}

	private static void requirePositive(String property, Duration value) {
		if (value.isNegative() || value.isZero()) {
			throw new InvalidPropertyException(property, value, "the delay must be greater than 0",
					"Set " + property + " to a positive duration such as 5ms.");
		}
	}

	private static <V> V require(String property, @Nullable V value) {
		if (value == null) {
			throw new InvalidPropertyException(property, null, "this limiter type needs it", "Set " + property + ".");
		}
		return value;
	}

	private static Duration orDefault(@Nullable Duration value, Duration defaultValue) {
		return (value != null) ? value : defaultValue;
	}

}
