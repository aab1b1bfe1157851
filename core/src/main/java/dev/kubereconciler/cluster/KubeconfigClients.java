package dev.kubereconciler.cluster;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.ClientBuilder;
import io.kubernetes.client.util.KubeConfig;

/**
 * Makes the client of a member cluster from a kubeconfig: a file, a string, or a key of a
 * Secret in the hub. The client has no read timeout, as informers need.
 */
public final class KubeconfigClients {

	/** The key of a kubeconfig Secret that holds the kubeconfig, by default. */
	public static final String DEFAULT_KEY = "kubeconfig";

	private KubeconfigClients() {
	}

	/**
	 * Make a client from a kubeconfig file, of its current context.
	 * @param file the file
	 * @return the client
	 * @throws UncheckedIOException if the file cannot be read
	 * @throws IllegalArgumentException if it is not a usable kubeconfig
	 */
	public static ApiClient fromFile(Path file) {
		try (Reader reader = Files.newBufferedReader(file)) {
			return build(KubeConfig.loadKubeConfig(reader), "the kubeconfig file " + file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the kubeconfig file " + file, ex);
		}
	}

	/**
	 * Make a client from a kubeconfig's text, of its current context.
	 * @param kubeconfig the kubeconfig, as YAML
	 * @param origin where it came from, for the error message
	 * @return the client
	 * @throws IllegalArgumentException if it is not a usable kubeconfig
	 */
	public static ApiClient fromYaml(String kubeconfig, String origin) {
		return build(KubeConfig.loadKubeConfig(new StringReader(kubeconfig)), origin);
	}

	/**
	 * Make a client from a key of a Secret, read from the hub once.
	 * @param hub the client of the cluster holding the Secret
	 * @param namespace the Secret's namespace
	 * @param name the Secret's name
	 * @param key the key holding the kubeconfig
	 * @return the client
	 * @throws ApiException if the Secret cannot be read
	 * @throws IllegalArgumentException if the key is missing or not a usable kubeconfig
	 */
	public static ApiClient fromSecret(ApiClient hub, String namespace, String name, String key) throws ApiException {
		V1Secret secret = new CoreV1Api(hub).readNamespacedSecret(name, namespace).execute();
		return fromYaml(kubeconfig(secret, key), "the Secret " + namespace + "/" + name);
	}

	/**
	 * Return the kubeconfig a Secret holds under a key.
	 * @param secret the Secret
	 * @param key the key
	 * @return the kubeconfig
	 * @throws IllegalArgumentException if the key is missing
	 */
	static String kubeconfig(V1Secret secret, String key) {
		Map<String, byte[]> data = secret.getData();
		byte[] value = (data != null) ? data.get(key) : null;
		if (value == null) {
			throw new IllegalArgumentException(
					"The Secret " + secret.getMetadata().getNamespace() + "/" + secret.getMetadata().getName()
							+ " has no key '" + key + "'; put the member cluster's kubeconfig under it");
		}
		return new String(value, StandardCharsets.UTF_8);
	}

	private static ApiClient build(KubeConfig config, String origin) {
		try {
			return ClientBuilder.kubeconfig(config).setReadTimeout(Duration.ZERO).build();
		}
		catch (IOException | RuntimeException ex) {
			throw new IllegalArgumentException(origin + " is not a usable kubeconfig: " + ex.getMessage(), ex);
		}
	}

}
