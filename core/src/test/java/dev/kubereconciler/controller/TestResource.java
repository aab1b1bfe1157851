package dev.kubereconciler.controller;

/**
 * The type and metadata of a test custom resource or of its list, as the API server
 * serializes them.
 *
 * @param <M> the metadata type: {@code V1ObjectMeta} or {@code V1ListMeta}
 */
abstract class TestResource<M> {

	private String apiVersion;

	private String kind;

	M metadata;

	TestResource(String apiVersion, String kind) {
		this.apiVersion = apiVersion;
		this.kind = kind;
	}

	public String getApiVersion() {
		return this.apiVersion;
	}

	public String getKind() {
		return this.kind;
	}

	public M getMetadata() {
		return this.metadata;
	}

}
