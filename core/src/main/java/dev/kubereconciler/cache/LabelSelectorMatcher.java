package dev.kubereconciler.cache;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * A parsed Kubernetes label selector, in the string syntax of {@code kubectl -l}:
 * equality ({@code a=b}, {@code a==b}, {@code a!=b}), sets ({@code a in (x,y)},
 * {@code a notin (x)}) and existence ({@code a}, {@code !a}), joined by commas.
 */
public final class LabelSelectorMatcher {

	private static final LabelSelectorMatcher EVERYTHING = new LabelSelectorMatcher("", List.of());

	private static final String KEY = "(?:[A-Za-z0-9](?:[-A-Za-z0-9.]*[A-Za-z0-9])?/)?[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?";

	private static final String VALUE = "(?:[A-Za-z0-9](?:[-A-Za-z0-9_.]*[A-Za-z0-9])?)?";

	private static final Pattern SET = Pattern.compile("(" + KEY + ")\\s+(in|notin)\\s+\\(([^)]*)\\)");

	private static final Pattern EQUALITY = Pattern.compile("(" + KEY + ")\\s*(==|=|!=)\\s*(" + VALUE + ")");

	private static final Pattern EXISTS = Pattern.compile("(!?)\\s*(" + KEY + ")");

	private static final Pattern VALUE_PATTERN = Pattern.compile(VALUE);

	private final String expression;

	private final List<Requirement> requirements;

	private LabelSelectorMatcher(String expression, List<Requirement> requirements) {
		this.expression = expression;
		this.requirements = requirements;
	}

	/**
	 * Return a selector that matches every object.
	 * @return the selector
	 */
	public static LabelSelectorMatcher everything() {
		return EVERYTHING;
	}

	/**
	 * Parse a label selector.
	 * @param expression the selector, {@code null} or blank for everything
	 * @return the selector
	 * @throws IllegalArgumentException if the expression is not a valid selector
	 */
	public static LabelSelectorMatcher parse(@Nullable String expression) {
		if (expression == null || expression.isBlank()) {
			return EVERYTHING;
		}
		List<Requirement> requirements = new ArrayList<>();
		for (String term : splitTerms(expression)) {
			requirements.add(parseTerm(expression, term.trim()));
		}
		return new LabelSelectorMatcher(expression.trim(), List.copyOf(requirements));
	}

	/**
	 * Return whether the given labels satisfy every requirement of this selector.
	 * @param labels the labels of an object, may be {@code null}
	 * @return whether they match
	 */
	public boolean matches(@Nullable Map<String, String> labels) {
		Map<String, String> actual = (labels != null) ? labels : Collections.emptyMap();
		for (Requirement requirement : this.requirements) {
			if (!requirement.matches(actual)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Return whether this selector matches every object.
	 * @return {@code true} for the empty selector
	 */
	public boolean isEverything() {
		return this.requirements.isEmpty();
	}

	@Override
	public String toString() {
		return this.expression;
	}

	private static List<String> splitTerms(String expression) {
		List<String> terms = new ArrayList<>();
		int depth = 0;
		int start = 0;
		for (int i = 0; i < expression.length(); i++) {
			char c = expression.charAt(i);
			if (c == '(') {
				depth++;
			}
			else if (c == ')') {
				depth--;
			}
			else if (c == ',' && depth == 0) {
				terms.add(expression.substring(start, i));
				start = i + 1;
			}
		}
		terms.add(expression.substring(start));
		return terms;
	}

	private static Requirement parseTerm(String expression, String term) {
		Matcher set = SET.matcher(term);
		if (set.matches()) {
			Set<String> values = new LinkedHashSet<>();
			for (String value : set.group(3).split(",")) {
				String trimmed = value.trim();
				if (!VALUE_PATTERN.matcher(trimmed).matches()) {
					throw invalid(expression, "'" + trimmed + "' is not a valid label value");
				}
				values.add(trimmed);
			}
			String key = set.group(1);
			return set.group(2).equals("in") ? new Requirement(key, Operator.IN, values)
					: new Requirement(key, Operator.NOT_IN, values);
		}
		Matcher equality = EQUALITY.matcher(term);
		if (equality.matches()) {
			Operator operator = equality.group(2).equals("!=") ? Operator.NOT_IN : Operator.IN;
			return new Requirement(equality.group(1), operator, Set.of(equality.group(3)));
		}
		Matcher exists = EXISTS.matcher(term);
		if (exists.matches()) {
			return new Requirement(exists.group(2),
					exists.group(1).isEmpty() ? Operator.EXISTS : Operator.DOES_NOT_EXIST, Set.of());
		}
		throw invalid(expression, "'" + term + "' is not a requirement such as key=value, key!=value, "
				+ "key in (a,b), key notin (a,b), key or !key");
	}

	private static IllegalArgumentException invalid(String expression, String reason) {
		return new IllegalArgumentException("Invalid label selector '" + expression + "': " + reason);
	}

	private enum Operator {

		IN, NOT_IN, EXISTS, DOES_NOT_EXIST

	}

	private record Requirement(String key, Operator operator, Set<String> values) {

		boolean matches(Map<String, String> labels) {
			String value = labels.get(this.key);
			return switch (this.operator) {
				case IN -> value != null && this.values.contains(value);
				case NOT_IN -> value == null || !this.values.contains(value);
				case EXISTS -> value != null;
				case DOES_NOT_EXIST -> value == null;
			};
		}

	}

}
