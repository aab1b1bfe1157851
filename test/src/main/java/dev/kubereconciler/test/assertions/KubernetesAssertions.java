package dev.kubereconciler.test.assertions;

import java.time.Duration;
import java.util.Objects;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.generic.dynamic.DynamicKubernetesObject;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.reconcile.Request;

/**
 * The entry point of the assertions operators need, to import statically: an object's
 * conditions, fields, deletion and Events, and a controller's reconciles of a key.
 *
 * <pre class="code">
 * assertThat(client, Widget.class, namespace.name(), "w-1").eventually().hasCondition("Ready", "True");
 * assertThat(client, Widget.class, namespace.name(), "w-1").eventually().hasField("status.replicas", 3);
 * assertThat(client, Widget.class, namespace.name(), "w-1").eventually().isGone();
 * assertThat(recorder, "widgets", new Request(namespace.name(), "w-1")).eventually().hasReconciled(2);
 * assertThat(recorder, "widgets", new Request(namespace.name(), "w-1")).isQuietFor(Duration.ofSeconds(2));
 * </pre>
 *
 * <p>
 * Without {@code eventually()} an assertion checks once; with it, it repeats its check
 * with Awaitility until it passes or {@link #DEFAULT_TIMEOUT} (or the given timeout) is
 * over. Objects are read as JSON, so one assertion serves built-in types, custom
 * resources and dynamic objects. A failure shows the object's last state as YAML.
 *
 * <p>
 * Read with the test's own client, the one {@code @KubernetesTest} injects, not with the
 * application's {@code ApiClient} bean: the RBAC proof checks every request of the
 * application's client against the application's RBAC, and the test's reads are not the
 * application's.
 */
public final class KubernetesAssertions {

	/** How long {@code eventually()} waits: 30 seconds. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

	private KubernetesAssertions() {
	}

	/**
	 * Assertions on an object of a client-java model type: a built-in model, or a custom
	 * resource annotated with {@code @ResourceCoordinates} or registered with
	 * client-java's {@code ModelMapper}.
	 * @param client the client to read with
	 * @param type the object's type
	 * @param namespace the namespace, empty for a cluster-scoped object
	 * @param name the name
	 * @return the assertions
	 */
	public static ObjectAssert assertThat(ApiClient client, Class<? extends KubernetesObject> type, String namespace,
			String name) {
		ResourceType resource = ResourceType.of(type);
		return new ObjectAssert(new ObjectTarget(client, resource.group(), resource.version(), resource.plural(),
				resource.kind(), namespace, name), null);
	}

	/**
	 * Assertions on an object that the test holds, such as the one it created: read again
	 * by its type and key each time.
	 * @param client the client to read with
	 * @param object the object, of a client-java model type
	 * @return the assertions
	 */
	public static ObjectAssert assertThat(ApiClient client, KubernetesObject object) {
		if (object instanceof DynamicKubernetesObject) {
			throw new IllegalArgumentException("A DynamicKubernetesObject does not name its resource: use "
					+ "assertThat(client, apiVersion, plural, namespace, name)");
		}
		Objects.requireNonNull(object.getMetadata(), "object must have metadata");
		String namespace = Objects.requireNonNullElse(object.getMetadata().getNamespace(), "");
		return assertThat(client, object.getClass(), namespace, object.getMetadata().getName());
	}

	/**
	 * Assertions on an object of any resource, named by its API version and plural, for
	 * dynamic objects and types without a model class.
	 * @param client the client to read with
	 * @param apiVersion the API version, such as {@code apps/v1} or {@code v1}
	 * @param plural the plural resource name, such as {@code deployments}
	 * @param namespace the namespace, empty for a cluster-scoped object
	 * @param name the name
	 * @return the assertions
	 */
	public static ObjectAssert assertThat(ApiClient client, String apiVersion, String plural, String namespace,
			String name) {
		int slash = apiVersion.indexOf('/');
		String group = (slash < 0) ? "" : apiVersion.substring(0, slash);
		String version = apiVersion.substring(slash + 1);
		return new ObjectAssert(new ObjectTarget(client, group, version, plural, null, namespace, name), null);
	}

	/**
	 * Assertions on how often a controller reconciled a key.
	 * @param recorder the recorder the controller's manager listens with
	 * @param controller the controller's name
	 * @param request the key
	 * @return the assertions
	 */
	public static ReconcileAssert assertThat(ReconcileRecorder recorder, String controller, Request request) {
		return new ReconcileAssert(recorder, controller, request, null);
	}

}
