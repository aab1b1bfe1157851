package com.example.greeting;

import java.util.ArrayList;
import java.util.List;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.openapi.models.V1ListMeta;

/**
 * A list of {@link Greeting}s, as the API server returns it.
 */
public class GreetingList implements KubernetesListObject {

	private String apiVersion = "example.com/v1";

	private String kind = "GreetingList";

	private V1ListMeta metadata;

	private List<Greeting> items = new ArrayList<>();

	@Override
	public String getApiVersion() {
		return this.apiVersion;
	}

	@Override
	public String getKind() {
		return this.kind;
	}

	@Override
	public V1ListMeta getMetadata() {
		return this.metadata;
	}

	@Override
	public List<Greeting> getItems() {
		return this.items;
	}

}
