package dev.kubereconciler.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of one reconcile and its key names.
 */
public enum ReconcileObservationDocumentation implements ObservationDocumentation {

	/**
	 * One reconcile, from the worker's call of the reconciler to the queue action on its
	 * outcome; the API requests it makes are its children.
	 */
	RECONCILE {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultReconcileObservationConvention.class;
		}

		@Override
		public KeyName[] getLowCardinalityKeyNames() {
			return LowCardinalityKeyNames.values();
		}

		@Override
		public KeyName[] getHighCardinalityKeyNames() {
			return HighCardinalityKeyNames.values();
		}

	};

	/**
	 * The low-cardinality keys: tags of the observation's timer and of its span.
	 */
	public enum LowCardinalityKeyNames implements KeyName {

		/** The controller's name. */
		CONTROLLER {
			@Override
			public String asString() {
				return "controller";
			}
		},

		/**
		 * controller-runtime's {@code result} label: {@code success}, {@code error},
		 * {@code requeue} or {@code requeue_after}.
		 */
		RESULT {
			@Override
			public String asString() {
				return "result";
			}
		},

		/**
		 * The outcome in full: {@code success}, {@code requeue}, {@code requeue_after},
		 * {@code error}, {@code terminal_error}, {@code panic} or {@code timeout}.
		 */
		OUTCOME {
			@Override
			public String asString() {
				return "outcome";
			}
		},

		/**
		 * What queued the key: {@code event} (a watch event or a resync), {@code retry}
		 * or {@code requeue_after}.
		 */
		TRIGGER {
			@Override
			public String asString() {
				return "trigger";
			}
		}

	}

	/**
	 * The high-cardinality keys: on the span only.
	 */
	public enum HighCardinalityKeyNames implements KeyName {

		/**
		 * The request: {@code namespace/name}, or {@code name} for a cluster-scoped
		 * object.
		 */
		REQUEST {
			@Override
			public String asString() {
				return "request";
			}
		}

	}

}
