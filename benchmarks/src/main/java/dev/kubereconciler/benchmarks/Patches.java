package dev.kubereconciler.benchmarks;

/**
 * The one write of the write-through workload, the same bytes for every peer.
 */
final class Patches {

	private Patches() {
	}

	static String observed(String resourceVersion) {
		return "{\"metadata\":{\"annotations\":{\"" + Peer.Work.ANNOTATION + "\":\"" + resourceVersion + "\"}}}";
	}

}
