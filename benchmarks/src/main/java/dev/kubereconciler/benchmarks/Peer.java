package dev.kubereconciler.benchmarks;

/**
 * A whole controller of one framework, started on one namespace of ConfigMaps, for
 * {@link ControllerPeers}.
 */
interface Peer {

	/**
	 * The name printed with the peer's figures.
	 * @return the name
	 */
	String name();

	/**
	 * Start a controller with {@code workers} reconcile threads on the ConfigMaps of a
	 * namespace.
	 * @param namespace the namespace
	 * @param workers the reconcile threads
	 * @param work what each reconcile does
	 * @return the running controller, once its cache has synced
	 * @throws Exception if it does not start
	 */
	Running start(String namespace, int workers, Work work) throws Exception;

	/**
	 * A started controller.
	 */
	interface Running {

		void stop() throws Exception;

	}

	/**
	 * What a reconcile does, the same for every peer: report the ConfigMap it saw and,
	 * when asked, record the observed resourceVersion in an annotation with one merge
	 * patch.
	 */
	interface Work {

		/** The annotation a write-through reconcile sets. */
		String ANNOTATION = "bench.kubereconciler.dev/observed";

		/**
		 * Called by every reconcile with what it read from the cache.
		 * @param name the ConfigMap's name
		 * @param resourceVersion its resourceVersion
		 * @param observed its {@link #ANNOTATION}, or {@code null}
		 * @return whether to patch the annotation to {@code resourceVersion}
		 */
		boolean reconciled(String name, String resourceVersion, String observed);

		/**
		 * Called after a patch succeeded.
		 * @param name the ConfigMap's name
		 */
		default void written(String name) {
		}

		/**
		 * Called after a patch failed; the reconcile then fails too, so that the peer
		 * retries.
		 * @param ex the failure
		 */
		default void failed(Exception ex) {
		}

	}

}
