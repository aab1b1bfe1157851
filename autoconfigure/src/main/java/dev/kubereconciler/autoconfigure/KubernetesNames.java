package dev.kubereconciler.autoconfigure;

import java.util.regex.Pattern;

/**
 * Checks the names the API server will insist on, so that a typo fails startup with the
 * property's name instead of a controller that watches nothing and reports UP.
 */
public final class KubernetesNames {

	// RFC 1123 label, as the API server validates namespace names
	private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

	private static final int LABEL_MAX_LENGTH = 63;

	private static final int SUBDOMAIN_MAX_LENGTH = 253;

	private KubernetesNames() {
	}

	static boolean isLabel(String value) {
		return value != null && value.length() <= LABEL_MAX_LENGTH && LABEL.matcher(value).matches();
	}

	static boolean isSubdomain(String value) {
		if (value == null || value.isEmpty() || value.length() > SUBDOMAIN_MAX_LENGTH) {
			return false;
		}
		for (String part : value.split("\\.", -1)) {
			if (!LABEL.matcher(part).matches()) {
				return false;
			}
		}
		return true;
	}

	public static void requireLabel(String property, String value, String action) {
		if (!isLabel(value)) {
			throw new InvalidPropertyException(property, value,
					"not a valid RFC 1123 label: at most 63 characters, lower-case letters, digits and '-', "
							+ "starting and ending with a letter or digit",
					action);
		}
	}

	static void requireSubdomain(String property, String value, String action) {
		if (!isSubdomain(value)) {
			throw new InvalidPropertyException(property, value,
					"not a valid RFC 1123 subdomain: at most 253 characters of lower-case letters, digits, "
							+ "'-' and '.', each part starting and ending with a letter or digit",
					action);
		}
	}

}
