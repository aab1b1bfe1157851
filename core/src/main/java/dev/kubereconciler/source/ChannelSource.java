package dev.kubereconciler.source;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

import dev.kubereconciler.reconcile.Request;

/**
 * A source that application code pushes keys or objects into, such as an inbound HTTP
 * endpoint or a message listener, as controller-runtime's {@code source.Channel}. It is
 * typically a bean that the code which pushes and the controller definition share.
 *
 * <p>
 * A key offered while the controller does not run here (before its start, on a replica
 * that is not the leader, after its stop), or that another shard replica reconciles, is
 * not kept: {@link #offer(Request)} returns {@code false}, so that an HTTP endpoint can
 * answer 503 and its client retry, perhaps on another replica.
 */
public final class ChannelSource implements Source {

	private final String name;

	private final Object monitor = new Object();

	private volatile @Nullable SourceContext context;

	ChannelSource(String name) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("A source's name must not be empty");
		}
		this.name = name;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public String kind() {
		return "channel";
	}

	/**
	 * Add a key to the controller's queue, as a watch event does.
	 * @param request the key
	 * @return {@code true} if the controller runs here and queued it, {@code false} if
	 * the key was dropped because the controller does not run here, or another shard
	 * replica reconciles the key
	 */
	public boolean offer(Request request) {
		SourceContext running = this.context;
		if (running == null || !running.owns(request)) {
			return false;
		}
		running.add(request);
		return true;
	}

	/**
	 * Add the key of an object to the controller's queue.
	 * @param object a primary object, or one that names it
	 * @return {@code true} if the controller runs here and queued it
	 */
	public boolean offer(KubernetesObject object) {
		V1ObjectMeta metadata = object.getMetadata();
		String namespace = metadata.getNamespace();
		return offer(new Request((namespace != null) ? namespace : "", metadata.getName()));
	}

	/**
	 * Return whether the controller runs here, so that offered keys are queued.
	 * @return whether started
	 */
	public boolean isRunning() {
		return this.context != null;
	}

	@Override
	public void start(SourceContext context) {
		synchronized (this.monitor) {
			SourceContext current = this.context;
			if (current != null) {
				throw new IllegalStateException("Source '" + this.name + "' already runs in controller '"
						+ current.controller() + "'; give each controller a source instance of its own");
			}
			this.context = context;
		}
	}

	@Override
	public void stop() {
		synchronized (this.monitor) {
			this.context = null;
		}
	}

}
