package dev.kubereconciler.observation;

import io.micrometer.common.docs.KeyName;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;
import io.micrometer.observation.docs.ObservationDocumentation;

/**
 * The observation of one Kubernetes API request made during another observation, such as
 * a reconcile, and its key names.
 */
public enum ApiRequestObservationDocumentation implements ObservationDocumentation {

	/**
	 * One request to the API server, as the client sends it and reads the response
	 * headers.
	 */
	API_REQUEST {

		@Override
		public Class<? extends ObservationConvention<? extends Observation.Context>> getDefaultConvention() {
			return DefaultApiRequestObservationConvention.class;
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

		/** The HTTP method, such as {@code GET}. */
		METHOD {
			@Override
			public String asString() {
				return "method";
			}
		},

		/** The Kubernetes verb, such as {@code get}, {@code list} or {@code patch}. */
		VERB {
			@Override
			public String asString() {
				return "verb";
			}
		},

		/** The resource, such as {@code configmaps}; {@code none} for other paths. */
		RESOURCE {
			@Override
			public String asString() {
				return "resource";
			}
		},

		/** The subresource, such as {@code status}; {@code none} without one. */
		SUBRESOURCE {
			@Override
			public String asString() {
				return "subresource";
			}
		},

		/**
		 * The response's HTTP status code, or {@code CLIENT_ERROR} when no response came.
		 */
		STATUS {
			@Override
			public String asString() {
				return "status";
			}
		}

	}

	/**
	 * The high-cardinality keys: on the span only.
	 */
	public enum HighCardinalityKeyNames implements KeyName {

		/** The namespace the path names, empty for a cluster-scoped request. */
		NAMESPACE {
			@Override
			public String asString() {
				return "namespace";
			}
		},

		/** The object's name the path names, empty for a list, watch or create. */
		NAME {
			@Override
			public String asString() {
				return "name";
			}
		},

		/** The request's URL path, without the query. */
		URL_PATH {
			@Override
			public String asString() {
				return "url.path";
			}
		}

	}

}
