package dev.kubereconciler.cluster;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import javax.net.ssl.KeyManager;

import com.google.gson.Gson;
import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParseException;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.util.ClientBuilder;
import org.jspecify.annotations.Nullable;

/**
 * The access providers a consumer of the Cluster Inventory API knows, each an exec plugin
 * by name, as the Cluster Inventory API's providers file lists them ({@code {"providers":
 * [{"name": …, "execConfig": {…}}]}}): a {@link ClusterProfile}'s status names the access
 * providers that reach its cluster, and the first one known here, in this order, gives
 * the server and CA from the profile and the credential from its plugin.
 */
public final class AccessProviders {

	/**
	 * The cluster extension handed to the exec plugin as the cluster's {@code config}.
	 */
	public static final String EXEC_EXTENSION = "client.authentication.k8s.io/exec";

	/** How long an exec plugin may run, by default. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);

	private static final Gson GSON = new Gson();

	private final Map<String, ExecPlugin> plugins;

	private final Duration timeout;

	private final Clock clock;

	private AccessProviders(Map<String, ExecPlugin> plugins, Duration timeout, Clock clock) {
		if (plugins.isEmpty()) {
			throw new IllegalArgumentException("no access provider is configured; name at least one");
		}
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, not " + timeout);
		}
		this.plugins = plugins;
		this.timeout = timeout;
		this.clock = Objects.requireNonNull(clock, "clock must not be null");
	}

	/**
	 * Return the access providers, in the order of preference.
	 * @param plugins each provider's plugin, by name, in the order of preference
	 * @return the access providers, whose plugins run at most {@link #DEFAULT_TIMEOUT}
	 */
	public static AccessProviders of(Map<String, ExecPlugin> plugins) {
		return new AccessProviders(new LinkedHashMap<>(plugins), DEFAULT_TIMEOUT, Clock.systemUTC());
	}

	/**
	 * Read the access providers of a providers file, as the Cluster Inventory API's
	 * {@code --clusterprofile-provider-file} holds them.
	 * @param file the file, JSON
	 * @return the access providers, in the file's order
	 * @throws UncheckedIOException if the file cannot be read
	 * @throws IllegalArgumentException if it is not a providers file, naming the entry
	 */
	public static AccessProviders fromFile(Path file) {
		try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
			JsonElement providers = JsonParser.parseReader(reader).getAsJsonObject().get("providers");
			if (providers == null || !providers.isJsonArray()) {
				throw new IllegalArgumentException("has no \"providers\" list");
			}
			Map<String, ExecPlugin> plugins = new LinkedHashMap<>();
			JsonArray entries = providers.getAsJsonArray();
			for (int i = 0; i < entries.size(); i++) {
				JsonObject entry = entries.get(i).getAsJsonObject();
				String name = string(entry, "name");
				JsonElement exec = entry.get("execConfig");
				if (name == null || exec == null || !exec.isJsonObject()) {
					throw new IllegalArgumentException("providers[" + i + "] needs a name and an execConfig");
				}
				try {
					plugins.put(name, plugin(exec.getAsJsonObject()));
				}
				catch (IllegalArgumentException ex) {
					throw new IllegalArgumentException("providers[" + i + "] (" + name + "): " + ex.getMessage(), ex);
				}
			}
			return of(plugins);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot read the access providers file " + file, ex);
		}
		catch (JsonParseException | IllegalStateException | IllegalArgumentException ex) {
			throw new IllegalArgumentException("The access providers file " + file + " is not usable: "
					+ ex.getMessage() + "; write it as {\"providers\": [{\"name\": …, \"execConfig\": "
					+ "{\"apiVersion\": \"" + ExecPlugin.V1 + "\", \"command\": …}}]}", ex);
		}
	}

	private static ExecPlugin plugin(JsonObject exec) {
		List<String> args = new ArrayList<>();
		JsonElement argList = exec.get("args");
		if (argList != null && argList.isJsonArray()) {
			argList.getAsJsonArray().forEach((arg) -> args.add(arg.getAsString()));
		}
		Map<String, String> env = new LinkedHashMap<>();
		JsonElement envList = exec.get("env");
		if (envList != null && envList.isJsonArray()) {
			envList.getAsJsonArray().forEach((variable) -> {
				JsonObject pair = variable.getAsJsonObject();
				env.put(Objects.requireNonNullElse(string(pair, "name"), ""),
						Objects.requireNonNullElse(string(pair, "value"), ""));
			});
		}
		JsonElement provideClusterInfo = exec.get("provideClusterInfo");
		return new ExecPlugin(Objects.requireNonNullElse(string(exec, "command"), ""), args, env,
				Objects.requireNonNullElse(string(exec, "apiVersion"), ""),
				provideClusterInfo != null && provideClusterInfo.getAsBoolean());
	}

	private static @Nullable String string(JsonObject object, String name) {
		JsonElement element = object.get(name);
		return (element != null && element.isJsonPrimitive()) ? element.getAsString() : null;
	}

	/**
	 * Return these access providers with their plugins stopped after another time.
	 * @param timeout how long a plugin may run
	 * @return the access providers
	 */
	public AccessProviders withTimeout(Duration timeout) {
		return new AccessProviders(this.plugins, timeout, this.clock);
	}

	/**
	 * Return these access providers with another clock, which tells when a credential
	 * expires.
	 * @param clock the clock
	 * @return the access providers
	 */
	public AccessProviders withClock(Clock clock) {
		return new AccessProviders(this.plugins, this.timeout, clock);
	}

	/**
	 * Return the names of the access providers, in the order of preference.
	 * @return the names
	 */
	public Set<String> names() {
		return this.plugins.keySet();
	}

	/**
	 * Return how a profile's cluster is reached: the first access provider known here
	 * that its status lists, as upstream picks it.
	 * @param profile the profile
	 * @return the access, or {@code null} if the profile lists none known here
	 */
	@Nullable Access select(ClusterProfile profile) {
		ClusterProfile.Status status = profile.getStatus();
		Map<String, ClusterProfile.AccessProvider> listed = new HashMap<>();
		if (status != null) {
			// the deprecated field first: an access provider of the same name wins
			Objects.requireNonNullElse(status.credentialProviders(), List.<ClusterProfile.AccessProvider>of())
				.forEach((provider) -> listed.put(provider.name(), provider));
			Objects.requireNonNullElse(status.accessProviders(), List.<ClusterProfile.AccessProvider>of())
				.forEach((provider) -> listed.put(provider.name(), provider));
		}
		for (Map.Entry<String, ExecPlugin> plugin : this.plugins.entrySet()) {
			ClusterProfile.AccessProvider provider = listed.get(plugin.getKey());
			if (provider != null && provider.cluster() != null) {
				return new Access(plugin.getKey(), provider.cluster(), plugin.getValue());
			}
		}
		return null;
	}

	/**
	 * Make the client of a cluster, running its plugin once so that a plugin that gives
	 * no credential leaves the cluster out.
	 * @param name the cluster's name
	 * @param access how it is reached
	 * @return the client, with no read timeout, which runs the plugin again as its
	 * credential expires
	 * @throws IllegalStateException if the plugin gives no credential, with its exit code
	 * and stderr
	 * @throws IllegalArgumentException if the profile's cluster is not usable
	 */
	ApiClient connect(String name, Access access) {
		ClusterProfile.Cluster cluster = access.cluster();
		ExecCredentials credentials = new ExecCredentials(name, access.provider(), access.plugin(), execInfo(access),
				this.timeout, this.clock);
		boolean certificate = credentials.current().certificate() != null;
		ClientBuilder builder = new ClientBuilder().setBasePath(cluster.server())
			.setVerifyingSsl(!Boolean.TRUE.equals(cluster.insecureSkipTlsVerify()))
			.setReadTimeout(Duration.ZERO)
			.setAuthentication((client) -> {
				client.setHttpClient(client.getHttpClient().newBuilder().addInterceptor(credentials).build());
				if (certificate) {
					client.setKeyManagers(new KeyManager[] { new ExecKeyManager(credentials) });
				}
			});
		byte[] authority = null;
		if (cluster.certificateAuthorityData() != null) {
			try {
				authority = Base64.getDecoder().decode(cluster.certificateAuthorityData());
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("The certificate-authority-data of access provider '"
						+ access.provider() + "' is not base64; the cluster manager must fix the ClusterProfile", ex);
			}
			builder.setCertificateAuthority(authority);
		}
		if (cluster.tlsServerName() != null) {
			builder.setTlsServerName(cluster.tlsServerName());
		}
		ApiClient client = builder.build();
		byte[] trusted = authority;
		// a new TLS context for new calls: its connections shake hands with the new
		// certificate, where the old context would resume its sessions with the old one;
		// calls under way, such as watches, finish on their connections. The client reads
		// its CA from a stream, once per context
		credentials.onNewCertificate(() -> {
			if (trusted != null) {
				client.setSslCaCert(new ByteArrayInputStream(trusted));
			}
			else {
				client.setKeyManagers(client.getKeyManagers());
			}
			client.getHttpClient().connectionPool().evictAll();
		});
		return client;
	}

	// KUBERNETES_EXEC_INFO as client-go writes it: never interactive, and the cluster
	// only when the plugin asks for it
	private static String execInfo(Access access) {
		JsonObject spec = new JsonObject();
		spec.addProperty("interactive", false);
		if (access.plugin().provideClusterInfo()) {
			ClusterProfile.Cluster cluster = access.cluster();
			JsonObject info = new JsonObject();
			info.addProperty("server", cluster.server());
			info.addProperty("tls-server-name", cluster.tlsServerName());
			info.addProperty("insecure-skip-tls-verify", cluster.insecureSkipTlsVerify());
			info.addProperty("certificate-authority-data", cluster.certificateAuthorityData());
			Objects.requireNonNullElse(cluster.extensions(), List.<ClusterProfile.NamedExtension>of())
				.stream()
				.filter((extension) -> EXEC_EXTENSION.equals(extension.name()) && extension.extension() != null)
				.findFirst()
				.ifPresent((extension) -> info.add("config", GSON.toJsonTree(extension.extension())));
			spec.add("cluster", info);
		}
		JsonObject credential = new JsonObject();
		credential.addProperty("apiVersion", access.plugin().apiVersion());
		credential.addProperty("kind", "ExecCredential");
		credential.add("spec", spec);
		return GSON.toJson(credential);
	}

	/**
	 * How one profile's cluster is reached; a change of any part engages it anew.
	 *
	 * @param provider the access provider's name
	 * @param cluster the server and CA the profile gives for it
	 * @param plugin the plugin giving the credential
	 */
	record Access(String provider, ClusterProfile.Cluster cluster, ExecPlugin plugin) {
	}

}
