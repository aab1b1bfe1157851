package dev.kubereconciler.crd;

import java.util.Comparator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kubernetes' version priority, as apimachinery's {@code CompareKubeAwareVersionStrings}
 * ranks the versions of a group for discovery and {@code kubectl}: GA before beta before
 * alpha, a higher major and then a higher minor number first ({@code v2, v1, v1beta2,
 * v1beta1, v1alpha1}), and names of another form last, in alphabetical order.
 */
final class VersionPriority {

	/**
	 * Orders version names highest priority first.
	 */
	static final Comparator<String> ORDER = VersionPriority::compare;

	// at most 18 digits, so that a number fits a long; a longer one ranks as a name of
	// another form
	private static final Pattern KUBE_VERSION = Pattern.compile("v(\\d{1,18})(?:(alpha|beta)(\\d{1,18}))?");

	private VersionPriority() {
	}

	private static int compare(String left, String right) {
		Matcher a = KUBE_VERSION.matcher(left);
		Matcher b = KUBE_VERSION.matcher(right);
		boolean kubeA = a.matches();
		boolean kubeB = b.matches();
		if (!kubeA || !kubeB) {
			return (kubeA == kubeB) ? left.compareTo(right) : (kubeA ? -1 : 1);
		}
		int byStage = Integer.compare(stage(b), stage(a));
		if (byStage != 0) {
			return byStage;
		}
		int byMajor = Long.compare(Long.parseLong(b.group(1)), Long.parseLong(a.group(1)));
		if (byMajor != 0 || a.group(3) == null) {
			return byMajor;
		}
		return Long.compare(Long.parseLong(b.group(3)), Long.parseLong(a.group(3)));
	}

	// GA 2, beta 1, alpha 0
	private static int stage(Matcher version) {
		String stage = version.group(2);
		return (stage == null) ? 2 : "beta".equals(stage) ? 1 : 0;
	}

}
