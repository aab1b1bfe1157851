package dev.kubereconciler.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * A rate limiter described in YAML. Every built-in limiter can be expressed:
 * {@code default}, {@code exponential}, {@code bucket}, {@code fast-slow},
 * {@code max-of}, {@code max-wait}, {@code none}, or {@code bean} to use a
 * {@code RateLimiter} bean by name.
 */
public class RateLimiterProperties extends TokenBucketProperties {

	/**
	 * Limiter type: default, exponential, bucket, fast-slow, max-of, max-wait, none or
	 * bean. "default" is max-of(exponential(base-delay, max-delay), bucket(qps, burst)).
	 * Unset means bean when bean is set, else default.
	 */
	private @Nullable Type type;

	/**
	 * Delay after the first failure, for exponential and default. Defaults to 5ms.
	 */
	private @Nullable Duration baseDelay;

	/**
	 * Upper bound of the exponential delay, for exponential and default. Defaults to
	 * 1000s.
	 */
	private @Nullable Duration maxDelay;

	/**
	 * Delay while failures are at most max-fast-attempts, for fast-slow.
	 */
	private @Nullable Duration fastDelay;

	/**
	 * Delay once failures exceed max-fast-attempts, for fast-slow.
	 */
	private @Nullable Duration slowDelay;

	/**
	 * Number of failures that get the fast delay, for fast-slow.
	 */
	private @Nullable Integer maxFastAttempts;

	/**
	 * Cap on the delay, for max-wait; the unused part of a bucket reservation is given
	 * back.
	 */
	private @Nullable Duration maxWait;

	/**
	 * Child limiters, for max-of (all children) and max-wait (exactly one child).
	 */
	private final List<RateLimiterProperties> limiters = new ArrayList<>();

	/**
	 * Name of a RateLimiter bean, for type bean (the type may then be omitted).
	 */
	private @Nullable String bean;

	public @Nullable Type getType() {
		return this.type;
	}

	public void setType(@Nullable Type type) {
		this.type = type;
	}

	public @Nullable Duration getBaseDelay() {
		return this.baseDelay;
	}

	public void setBaseDelay(@Nullable Duration baseDelay) {
		this.baseDelay = baseDelay;
	}

	public @Nullable Duration getMaxDelay() {
		return this.maxDelay;
	}

	public void setMaxDelay(@Nullable Duration maxDelay) {
		this.maxDelay = maxDelay;
	}

	public @Nullable Duration getFastDelay() {
		return this.fastDelay;
	}

	public void setFastDelay(@Nullable Duration fastDelay) {
		this.fastDelay = fastDelay;
	}

	public @Nullable Duration getSlowDelay() {
		return this.slowDelay;
	}

	public void setSlowDelay(@Nullable Duration slowDelay) {
		this.slowDelay = slowDelay;
	}

	public @Nullable Integer getMaxFastAttempts() {
		return this.maxFastAttempts;
	}

	public void setMaxFastAttempts(@Nullable Integer maxFastAttempts) {
		this.maxFastAttempts = maxFastAttempts;
	}

	public @Nullable Duration getMaxWait() {
		return this.maxWait;
	}

	public void setMaxWait(@Nullable Duration maxWait) {
		this.maxWait = maxWait;
	}

	public List<RateLimiterProperties> getLimiters() {
		return this.limiters;
	}

	public @Nullable String getBean() {
		return this.bean;
	}

	public void setBean(@Nullable String bean) {
		this.bean = bean;
	}

	public boolean isEmpty() {
		return this.type == null && this.baseDelay == null && this.maxDelay == null && getQps() == null
				&& getBurst() == null && this.fastDelay == null && this.slowDelay == null
				&& this.maxFastAttempts == null && this.maxWait == null && this.limiters.isEmpty() && this.bean == null;
	}

	/**
	 * Return the type these properties describe: the type if set, else {@code bean} when
	 * a bean is named, else {@code default}.
	 * @return the type
	 */
	Type effectiveType() {
		if (this.type != null) {
			return this.type;
		}
		return (this.bean != null) ? Type.BEAN : Type.DEFAULT;
	}

	/**
	 * Return the fields that are set and their values, by the names properties use, for
	 * checking that the type uses each of them.
	 * @return the set fields, in declaration order
	 */
	Map<String, Object> setFields() {
		Map<String, Object> set = new LinkedHashMap<>();
		addIfSet(set, "base-delay", this.baseDelay);
		addIfSet(set, "max-delay", this.maxDelay);
		addIfSet(set, "qps", getQps());
		addIfSet(set, "burst", getBurst());
		addIfSet(set, "fast-delay", this.fastDelay);
		addIfSet(set, "slow-delay", this.slowDelay);
		addIfSet(set, "max-fast-attempts", this.maxFastAttempts);
		addIfSet(set, "max-wait", this.maxWait);
		addIfSet(set, "limiters", this.limiters.isEmpty() ? null : this.limiters.size() + " limiters");
		addIfSet(set, "bean", this.bean);
		return set;
	}

	private static void addIfSet(Map<String, Object> set, String name, @Nullable Object value) {
		if (value != null) {
			set.put(name, value);
		}
	}

	/**
	 * Return these properties with every unset field taken from the given parent, so that
	 * a controller can override one field of the defaults. A different type replaces the
	 * parent altogether.
	 * @param parent the inherited properties
	 * @return the merged properties
	 */
	public RateLimiterProperties inheritFrom(RateLimiterProperties parent) {
		if (isEmpty()) {
			return parent;
		}
		if (this.type != null && this.type != parent.effectiveType()) {
			return this;
		}
		if (this.bean != null && this.type == null) {
			return this;
		}
		RateLimiterProperties merged = new RateLimiterProperties();
		merged.type = (this.type != null) ? this.type : parent.type;
		merged.baseDelay = (this.baseDelay != null) ? this.baseDelay : parent.baseDelay;
		merged.maxDelay = (this.maxDelay != null) ? this.maxDelay : parent.maxDelay;
		merged.setQps((getQps() != null) ? getQps() : parent.getQps());
		merged.setBurst((getBurst() != null) ? getBurst() : parent.getBurst());
		merged.fastDelay = (this.fastDelay != null) ? this.fastDelay : parent.fastDelay;
		merged.slowDelay = (this.slowDelay != null) ? this.slowDelay : parent.slowDelay;
		merged.maxFastAttempts = (this.maxFastAttempts != null) ? this.maxFastAttempts : parent.maxFastAttempts;
		merged.maxWait = (this.maxWait != null) ? this.maxWait : parent.maxWait;
		merged.limiters.addAll(this.limiters.isEmpty() ? parent.limiters : this.limiters);
		merged.bean = (this.bean != null) ? this.bean : parent.bean;
		return merged;
	}

	/**
	 * The kinds of limiter that properties can describe.
	 */
	public enum Type {

		/** client-go's controller default: max-of(exponential, bucket). */
		DEFAULT,

		/** Per-item exponential backoff from base-delay up to max-delay. */
		EXPONENTIAL,

		/**
		 * A token bucket of qps tokens per second and burst tokens, shared by all keys.
		 */
		BUCKET,

		/**
		 * fast-delay for the first max-fast-attempts failures of a key, then slow-delay.
		 */
		FAST_SLOW,

		/** The longest delay of the limiters listed under limiters. */
		MAX_OF,

		/** The one limiter under limiters, its delay capped at max-wait. */
		MAX_WAIT,

		/** Never delays. */
		NONE,

		/** The RateLimiter bean named by bean. */
		BEAN

	}

}
