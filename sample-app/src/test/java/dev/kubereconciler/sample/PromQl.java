package dev.kubereconciler.sample;

import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Reads PromQL as far as the real-Prometheus test needs: the metric names an expression
 * selects, and an alert's expression without its threshold.
 */
final class PromQl {

	// the aggregations too, which "by (...)" may follow instead of their "("
	private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
			"ignoring", "group_left", "group_right", "inf", "nan", "sum", "min", "max", "avg", "group", "stddev",
			"stdvar", "count", "count_values", "bottomk", "topk", "quantile");

	private static final Set<String> GROUPING = Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

	private PromQl() {
	}

	/**
	 * Return an alert's expression without its last comparison at the top level, the
	 * threshold: {@code a / b > 0.1} gives {@code a / b}, which returns every series the
	 * alert judges, firing or not.
	 * @param expression the alert's expression
	 * @return the expression without its threshold, or the expression if it has none
	 */
	static String withoutThreshold(String expression) {
		int depth = 0;
		int cut = -1;
		char quote = 0;
		for (int i = 0; i < expression.length(); i++) {
			char c = expression.charAt(i);
			if (quote != 0) {
				if (c == '\\') {
					i++;
				}
				else if (c == quote) {
					quote = 0;
				}
			}
			else if (c == '"' || c == '\'' || c == '`') {
				quote = c;
			}
			else if (c == '(' || c == '[' || c == '{') {
				depth++;
			}
			else if (c == ')' || c == ']' || c == '}') {
				depth--;
			}
			else if (depth == 0 && isComparison(expression, i)) {
				cut = i;
				if (expression.charAt(i + 1) == '=') {
					i++;
				}
			}
		}
		return (cut < 0) ? expression : expression.substring(0, cut).strip();
	}

	/**
	 * Return the metric names an expression selects.
	 * @param expression the expression
	 * @return the names, in the order they appear
	 */
	static Set<String> metricNames(String expression) {
		Set<String> names = new LinkedHashSet<>();
		int i = 0;
		while (i < expression.length()) {
			char c = expression.charAt(i);
			if (c == '"' || c == '\'' || c == '`') {
				i = skipQuoted(expression, i);
			}
			else if (c == '{' || c == '[') {
				i = skipTo(expression, i, (c == '{') ? '}' : ']');
			}
			else if (Character.isLetter(c) || c == '_' || c == ':') {
				int end = i;
				while (end < expression.length() && isNameChar(expression.charAt(end))) {
					end++;
				}
				String word = expression.substring(i, end);
				int next = skipSpaces(expression, end);
				boolean call = next < expression.length() && expression.charAt(next) == '(';
				if (GROUPING.contains(word) && call) {
					end = skipTo(expression, next, ')');
				}
				else if (!call && !KEYWORDS.contains(word)) {
					names.add(word);
				}
				i = end;
			}
			else if (Character.isDigit(c)) {
				// a number or a duration, such as 0.99 or 1e-8
				while (i < expression.length() && (isNameChar(expression.charAt(i)) || expression.charAt(i) == '.')) {
					i++;
				}
			}
			else {
				i++;
			}
		}
		return names;
	}

	private static boolean isComparison(String expression, int i) {
		char c = expression.charAt(i);
		char next = (i + 1 < expression.length()) ? expression.charAt(i + 1) : 0;
		return c == '>' || c == '<' || (c == '=' && next == '=') || (c == '!' && next == '=');
	}

	private static boolean isNameChar(char c) {
		return Character.isLetterOrDigit(c) || c == '_' || c == ':';
	}

	private static int skipSpaces(String expression, int from) {
		int i = from;
		while (i < expression.length() && Character.isWhitespace(expression.charAt(i))) {
			i++;
		}
		return i;
	}

	private static int skipQuoted(String expression, int from) {
		char quote = expression.charAt(from);
		int i = from + 1;
		while (i < expression.length() && expression.charAt(i) != quote) {
			i += (expression.charAt(i) == '\\') ? 2 : 1;
		}
		return i + 1;
	}

	// quotes inside a selector may hold the closing character
	private static int skipTo(String expression, int from, char close) {
		int i = from + 1;
		while (i < expression.length() && expression.charAt(i) != close) {
			char c = expression.charAt(i);
			i = (c == '"' || c == '\'' || c == '`') ? skipQuoted(expression, i) : i + 1;
		}
		return i + 1;
	}

}
