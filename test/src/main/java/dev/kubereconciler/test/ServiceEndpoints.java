package dev.kubereconciler.test;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.kubernetes.client.custom.IntOrString;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1Service;
import io.kubernetes.client.openapi.models.V1ServicePort;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.test.ServiceNetwork.Pod;

/**
 * What cluster DNS and kube-proxy make of a Service name and port: the Service read from
 * the API server, its port, and a ready pod its selector matches, round-robin.
 */
final class ServiceEndpoints {

	private static final Pattern SERVICE_NAME = Pattern
		.compile("([a-z0-9]([-a-z0-9]*[a-z0-9])?)\\.([a-z0-9]([-a-z0-9]*[a-z0-9])?)\\.svc(\\.cluster\\.local)?\\.?");

	private final Supplier<ApiClient> client;

	private final Map<String, AtomicInteger> next = new ConcurrentHashMap<>();

	private @Nullable CoreV1Api api;

	ServiceEndpoints(Supplier<ApiClient> client) {
		this.client = client;
	}

	/**
	 * Route a {@code CONNECT} target.
	 * @param target {@code host:port}
	 * @param pods the pods of the network
	 * @return the route, or why there is none
	 */
	Route route(String target, List<Pod> pods) {
		int colon = target.lastIndexOf(':');
		Matcher name = SERVICE_NAME.matcher((colon > 0) ? target.substring(0, colon) : target);
		if (colon < 0 || !name.matches()) {
			return Route.refused(target + " is not <service>.<namespace>.svc:<port>: the Service network "
					+ "routes only Service names");
		}
		int port;
		try {
			port = Integer.parseInt(target.substring(colon + 1));
		}
		catch (NumberFormatException ex) {
			return Route.refused(target + " has no port number");
		}
		String namespace = name.group(3);
		String service = namespace + "/" + name.group(1);
		V1Service found;
		try {
			found = read(namespace, name.group(1));
		}
		catch (ApiException ex) {
			return Route.refused("could not read Service " + service + ": " + ex.getCode() + " " + ex.getMessage());
		}
		if (found == null) {
			return Route.refused("no Service " + service);
		}
		Map<String, String> selector = (found.getSpec() != null) ? found.getSpec().getSelector() : null;
		if (selector == null || selector.isEmpty()) {
			return Route.refused("Service " + service + " has no selector; only pods chosen by a selector are "
					+ "routed, not Endpoints written by hand");
		}
		V1ServicePort servicePort = Objects.requireNonNullElse(found.getSpec().getPorts(), List.<V1ServicePort>of())
			.stream()
			.filter((candidate) -> candidate.getPort() == port
					&& (candidate.getProtocol() == null || candidate.getProtocol().equals("TCP")))
			.findFirst()
			.orElse(null);
		if (servicePort == null) {
			return Route.refused("Service " + service + " has no TCP port " + port);
		}
		List<Pod> selected = pods.stream()
			.filter((pod) -> pod.namespace().equals(namespace)
					&& pod.labels().entrySet().containsAll(selector.entrySet()))
			.toList();
		List<Endpoint> ready = selected.stream()
			.filter((pod) -> pod.ready().getAsBoolean())
			.map((pod) -> endpoint(pod, servicePort))
			.filter(Objects::nonNull)
			.toList();
		if (ready.isEmpty()) {
			return Route.refused("Service " + service + " has no ready endpoint for port " + port + " ("
					+ selected.size() + " pods match its selector " + selector + ", none ready with that port)");
		}
		Endpoint chosen = ready.get(Math.floorMod(
				this.next.computeIfAbsent(service, (key) -> new AtomicInteger()).getAndIncrement(), ready.size()));
		return new Route(chosen.pod().toString(), new InetSocketAddress(chosen.pod().ip(), chosen.port()), "");
	}

	private @Nullable V1Service read(String namespace, String name) throws ApiException {
		try {
			return api().readNamespacedService(name, namespace).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	// one client for every connection, made once the API server runs
	private synchronized CoreV1Api api() {
		if (this.api == null) {
			this.api = new CoreV1Api(this.client.get());
		}
		return this.api;
	}

	// targetPort as the endpoints controller resolves it: a number, a container port's
	// name, or absent for the Service's own port
	private static @Nullable Endpoint endpoint(Pod pod, V1ServicePort port) {
		IntOrString target = port.getTargetPort();
		if (target == null) {
			return new Endpoint(pod, port.getPort());
		}
		if (target.isInteger()) {
			return new Endpoint(pod, target.getIntValue());
		}
		Integer named = pod.ports().get(target.getStrValue());
		return (named != null) ? new Endpoint(pod, named) : null;
	}

	private record Endpoint(Pod pod, int port) {

	}

	/**
	 * Where a connection goes, or why it cannot.
	 *
	 * @param pod the pod chosen, or empty
	 * @param endpoint its address, or {@code null} when refused
	 * @param reason why there is no route, or empty
	 */
	record Route(String pod, @Nullable InetSocketAddress endpoint, String reason) {

		static Route refused(String reason) {
			return new Route("", null, reason);
		}

	}

}
