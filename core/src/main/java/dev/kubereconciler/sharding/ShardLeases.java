package dev.kubereconciler.sharding;

import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoordinationV1Api;
import io.kubernetes.client.openapi.models.V1Lease;
import io.kubernetes.client.openapi.models.V1LeaseSpec;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import org.jspecify.annotations.Nullable;

/**
 * The {@code coordination.k8s.io/v1} Lease calls of sharding. Every update of an existing
 * Lease carries the resourceVersion it was read at, so of two replicas racing for one
 * Lease exactly one succeeds and the other gets a conflict.
 */
final class ShardLeases {

	static final String GROUP_LABEL = "kube-reconciler.dev/shard-group";

	static final String ROLE_LABEL = "kube-reconciler.dev/shard-role";

	static final String MEMBER = "member";

	static final String PARTITION = "partition";

	private static final int CONFLICT = 409;

	private static final int NOT_FOUND = 404;

	private final CoordinationV1Api api;

	private final ShardingSettings settings;

	private final Clock clock;

	private final int leaseDurationSeconds;

	ShardLeases(ApiClient client, ShardingSettings settings, Clock clock) {
		this.api = new CoordinationV1Api(client);
		this.settings = settings;
		this.clock = clock;
		this.leaseDurationSeconds = (int) Math.max(1, (settings.timing().leaseDuration().toMillis() + 999) / 1000);
	}

	/**
	 * List every Lease of this shard group.
	 * @return the member and partition Leases
	 */
	List<V1Lease> list() throws ApiException {
		return this.api.listNamespacedLease(this.settings.leaseNamespace())
			.labelSelector(GROUP_LABEL + "=" + this.settings.leasePrefix())
			.execute()
			.getItems();
	}

	/**
	 * Renew this replica's member Lease, or create it.
	 * @param member the member Lease as last written, or {@code null}
	 * @return the renewed or created Lease, or {@code null} if another process holds it
	 */
	@Nullable V1Lease renewMember(@Nullable V1Lease member) throws ApiException {
		V1Lease renewed = (member != null) ? renew(member) : null;
		if (renewed != null) {
			return renewed;
		}
		String name = this.settings.memberLeaseName(this.settings.identity());
		V1Lease created = create(name, MEMBER);
		if (created != null) {
			return created;
		}
		// left over from an earlier life of this identity, or renewed by a process that
		// reuses it
		V1Lease existing = list().stream()
			.filter((lease) -> name.equals(lease.getMetadata().getName()))
			.findFirst()
			.orElse(null);
		return (existing != null) ? acquire(existing) : null;
	}

	/**
	 * Create a Lease held by this replica.
	 * @return the created Lease, or {@code null} if another replica created it first
	 */
	@Nullable V1Lease create(String name, String role) throws ApiException {
		OffsetDateTime now = now();
		V1Lease lease = new V1Lease()
			.metadata(new V1ObjectMeta().name(name)
				.namespace(this.settings.leaseNamespace())
				.labels(Map.of(GROUP_LABEL, this.settings.leasePrefix(), ROLE_LABEL, role)))
			.spec(new V1LeaseSpec().holderIdentity(this.settings.identity())
				.leaseDurationSeconds(this.leaseDurationSeconds)
				.acquireTime(now)
				.renewTime(now)
				.leaseTransitions(0));
		try {
			return this.api.createNamespacedLease(this.settings.leaseNamespace(), lease).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == CONFLICT) {
				return null;
			}
			throw ex;
		}
	}

	/**
	 * Take over a Lease read at some resourceVersion.
	 * @return the updated Lease, or {@code null} if it changed since it was read
	 */
	@Nullable V1Lease acquire(V1Lease read) throws ApiException {
		V1LeaseSpec spec = (read.getSpec() != null) ? read.getSpec() : new V1LeaseSpec();
		OffsetDateTime now = now();
		int transitions = (spec.getLeaseTransitions() != null) ? spec.getLeaseTransitions() : 0;
		spec.holderIdentity(this.settings.identity())
			.leaseDurationSeconds(this.leaseDurationSeconds)
			.acquireTime(now)
			.renewTime(now)
			.leaseTransitions(transitions + 1);
		return replace(read.spec(spec));
	}

	/**
	 * Renew a Lease this replica holds.
	 * @return the updated Lease, or {@code null} if it changed since it was read
	 */
	@Nullable V1Lease renew(V1Lease held) throws ApiException {
		held.getSpec().renewTime(now()).leaseDurationSeconds(this.leaseDurationSeconds);
		return replace(held);
	}

	/**
	 * Give a Lease up, so that the next holder need not wait for it to expire.
	 * @return the updated Lease, or {@code null} if it changed since it was read
	 */
	@Nullable V1Lease release(V1Lease held) throws ApiException {
		held.getSpec().holderIdentity(null).acquireTime(null).renewTime(null);
		return replace(held);
	}

	/**
	 * Delete this replica's member Lease, if it is still at the given resourceVersion.
	 */
	void delete(V1Lease held) throws ApiException {
		try {
			this.api.deleteNamespacedLease(held.getMetadata().getName(), this.settings.leaseNamespace()).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != NOT_FOUND) {
				throw ex;
			}
		}
	}

	private @Nullable V1Lease replace(V1Lease lease) throws ApiException {
		try {
			return this.api.replaceNamespacedLease(lease.getMetadata().getName(), this.settings.leaseNamespace(), lease)
				.execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == CONFLICT || ex.getCode() == NOT_FOUND) {
				return null;
			}
			throw ex;
		}
	}

	static @Nullable String holder(V1Lease lease) {
		String holder = (lease.getSpec() != null) ? lease.getSpec().getHolderIdentity() : null;
		return (holder == null || holder.isEmpty()) ? null : holder;
	}

	static @Nullable String role(V1Lease lease) {
		Map<String, String> labels = lease.getMetadata().getLabels();
		return (labels != null) ? labels.get(ROLE_LABEL) : null;
	}

	private OffsetDateTime now() {
		return OffsetDateTime.now(this.clock.withZone(ZoneOffset.UTC));
	}

}
