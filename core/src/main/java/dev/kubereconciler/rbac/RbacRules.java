package dev.kubereconciler.rbac;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import dev.kubereconciler.cache.ResourceType;

/**
 * Calculates the RBAC rules an application needs from one input per feature: what it
 * watches, which types get finalizers, status writes or server-side apply, whether it
 * records events, where its leases live, and the rules its own code needs.
 *
 * <p>
 * When every input is scoped to namespaces the result is one Role per namespace; a single
 * cluster-wide input makes it one ClusterRole. Rules on cluster-scoped resources, which
 * no Role can grant, are always in a ClusterRole. Leases always go into a Role of their
 * own in the lease namespace, as kubebuilder's leader-election Role does, so that a
 * ClusterRole never grants writes on every Lease of the cluster.
 */
public final class RbacRules {

	/** Verbs an informer and a cached client need. */
	public static final List<String> READ = List.of("get", "list", "watch");

	static final String EVENTS_GROUP = "events.k8s.io";

	static final String LEASES_GROUP = "coordination.k8s.io";

	private final List<Grant> grants = new ArrayList<>();

	private final List<PolicyRule> userRules = new ArrayList<>();

	private final List<PolicyRule> clusterRules = new ArrayList<>();

	private final Set<String> leaseNamespaces = new LinkedHashSet<>();

	private final Set<String> shardLeaseNamespaces = new LinkedHashSet<>();

	private boolean events;

	// by namespace, in a stable order
	private final Map<String, Set<PolicyRule>> providerReads = new TreeMap<>();

	private final List<Grant> clusterReads = new ArrayList<>();

	/**
	 * Get, list and watch on a watched, owned or mapped type.
	 * @param type the type
	 * @param namespaces the namespaces it is watched in; empty for all
	 * @return this
	 */
	public RbacRules watches(ResourceType type, Set<String> namespaces) {
		return grant(type.group(), type.plural(), namespaces, READ);
	}

	/**
	 * Get and list on a read-through type, which the reconcile context reads from the API
	 * server with no informer, so no watch.
	 * @param group the API group, empty for the core group
	 * @param plural the plural resource name
	 * @param namespaces the namespaces it is read in; empty for all
	 * @return this
	 */
	public RbacRules readsThrough(String group, String plural, Set<String> namespaces) {
		return grant(group, plural, namespaces, List.of("get", "list"));
	}

	/**
	 * Get, list and watch on a type in every namespace, for an informer that reads them
	 * all while the controllers it serves are namespaced. Rendered as a ClusterRole of
	 * its own, so that the namespaced Roles keep every write.
	 * @param type the type
	 * @return this
	 */
	public RbacRules readsEverywhere(ResourceType type) {
		this.clusterReads.add(new Grant(type.group(), type.plural(), Set.of(), READ));
		return this;
	}

	/**
	 * The writes that adding and removing a finalizer take: patch and update on the type,
	 * and update on its {@code /finalizers} subresource, which the
	 * OwnerReferencesPermissionEnforcement admission plugin checks when an owner
	 * reference blocks its owner's deletion.
	 * @param type the type that gets a finalizer
	 * @param namespaces its namespaces; empty for all
	 * @return this
	 */
	public RbacRules finalizers(ResourceType type, Set<String> namespaces) {
		grant(type.group(), type.plural(), namespaces, List.of("patch", "update"));
		return grant(type.group(), type.plural() + "/finalizers", namespaces, List.of("update"));
	}

	/**
	 * Get, update and patch on the {@code /status} subresource; without it a status write
	 * is forbidden even with update on the type itself.
	 * @param type the type whose status is written
	 * @param namespaces its namespaces; empty for all
	 * @return this
	 */
	public RbacRules status(ResourceType type, Set<String> namespaces) {
		return grant(type.group(), type.plural() + "/status", namespaces, List.of("get", "update", "patch"));
	}

	/**
	 * Server-side apply: patch, and create, since the API server also authorizes create
	 * when an apply patch creates the object.
	 * @param type the applied type
	 * @param namespaces its namespaces; empty for all
	 * @return this
	 */
	public RbacRules applies(ResourceType type, Set<String> namespaces) {
		return grant(type.group(), type.plural(), namespaces, List.of("create", "patch"));
	}

	/**
	 * The writes a reconcile context makes on the objects a controller owns: create,
	 * update, patch and delete.
	 * @param type the owned type
	 * @param namespaces its namespaces; empty for all
	 * @return this
	 */
	public RbacRules writes(ResourceType type, Set<String> namespaces) {
		return grant(type.group(), type.plural(), namespaces, List.of("create", "update", "patch", "delete"));
	}

	/**
	 * Create and patch on {@code events.k8s.io} events, in the namespaces of the other
	 * inputs.
	 * @return this
	 */
	public RbacRules events() {
		this.events = true;
		return this;
	}

	/**
	 * Get, create and update on {@code coordination.k8s.io} leases, for leader election.
	 * @param namespace the namespace of the leases
	 * @return this
	 */
	public RbacRules leases(String namespace) {
		this.leaseNamespaces.add(Objects.requireNonNull(namespace, "namespace must not be null"));
		return this;
	}

	/**
	 * List, create, update and delete on {@code coordination.k8s.io} leases, for
	 * sharding: a replica lists its group's member and partition Leases every round, and
	 * deletes its own member Lease when it leaves.
	 * @param namespace the namespace of the leases
	 * @return this
	 */
	public RbacRules shardLeases(String namespace) {
		this.shardLeaseNamespaces.add(Objects.requireNonNull(namespace, "namespace must not be null"));
		return this;
	}

	/**
	 * A rule the application's own code needs, granted in the same scope as the
	 * controllers'.
	 * @param rule the rule
	 * @return this
	 */
	public RbacRules rule(PolicyRule rule) {
		this.userRules.add(Objects.requireNonNull(rule, "rule must not be null"));
		return this;
	}

	/**
	 * A rule on cluster-scoped resources, such as webhook configurations or CRDs, that a
	 * feature or the application's own code needs. A Role cannot grant those, so it goes
	 * into the controllers' ClusterRole when they have one, and otherwise into a
	 * ClusterRole of its own, {@link RbacPolicy#CLUSTER_RESOURCES}, so that the
	 * controllers' Roles stay namespaced.
	 * @param rule the rule
	 * @return this
	 */
	public RbacRules clusterRule(PolicyRule rule) {
		this.clusterRules.add(Objects.requireNonNull(rule, "rule must not be null"));
		return this;
	}

	/**
	 * A read a cluster provider makes on the local cluster, such as listing and watching
	 * the kubeconfig Secrets of its namespace, granted in a Role of that namespace of its
	 * own, {@link RbacPolicy#CLUSTER_PROVIDERS}, so that it never widens the controllers'
	 * roles to Secrets.
	 * @param namespace the namespace read
	 * @param rule the rule
	 * @return this
	 */
	public RbacRules providerReads(String namespace, PolicyRule rule) {
		this.providerReads
			.computeIfAbsent(Objects.requireNonNull(namespace, "namespace must not be null"),
					(key) -> new LinkedHashSet<>())
			.add(Objects.requireNonNull(rule, "rule must not be null"));
		return this;
	}

	private RbacRules grant(String group, String resource, Set<String> namespaces, List<String> verbs) {
		this.grants.add(new Grant(group, resource, Set.copyOf(namespaces), verbs));
		return this;
	}

	/**
	 * Calculate the roles.
	 * @return the roles, merged and in a stable order
	 */
	public RbacPolicy build() {
		boolean namespaced = !this.grants.isEmpty() && this.grants.stream().noneMatch((g) -> g.namespaces().isEmpty());
		List<RbacPolicy.Role> roles = new ArrayList<>();
		if (namespaced) {
			Set<String> namespaces = new TreeSet<>();
			this.grants.forEach((grant) -> namespaces.addAll(grant.namespaces()));
			for (String namespace : namespaces) {
				roles.add(new RbacPolicy.Role(RbacPolicy.CONTROLLERS, namespace,
						merge(this.grants.stream().filter((g) -> g.namespaces().contains(namespace)).toList())));
			}
		}
		else if (!this.grants.isEmpty() || !this.userRules.isEmpty() || this.events || !this.clusterRules.isEmpty()) {
			List<Grant> all = new ArrayList<>(this.grants);
			all.addAll(this.clusterReads);
			List<PolicyRule> rules = new ArrayList<>(merge(all));
			rules.addAll(this.clusterRules);
			roles.add(new RbacPolicy.Role(RbacPolicy.CONTROLLERS, null, rules));
		}
		if (namespaced && !this.clusterReads.isEmpty()) {
			roles.add(new RbacPolicy.Role(RbacPolicy.CLUSTER_READS, null, mergeOnly(this.clusterReads)));
		}
		if (namespaced && !this.clusterRules.isEmpty()) {
			roles.add(new RbacPolicy.Role(RbacPolicy.CLUSTER_RESOURCES, null, this.clusterRules));
		}
		for (String namespace : this.leaseNamespaces) {
			roles.add(new RbacPolicy.Role(RbacPolicy.LEADER_ELECTION, namespace,
					List.of(PolicyRule.of(LEASES_GROUP, "leases", "get", "create", "update"))));
		}
		for (String namespace : this.shardLeaseNamespaces) {
			roles.add(new RbacPolicy.Role(RbacPolicy.SHARDING, namespace,
					List.of(PolicyRule.of(LEASES_GROUP, "leases", "list", "create", "update", "delete"))));
		}
		this.providerReads.forEach((namespace, rules) -> roles
			.add(new RbacPolicy.Role(RbacPolicy.CLUSTER_PROVIDERS, namespace, List.copyOf(rules))));
		return new RbacPolicy(roles);
	}

	private List<PolicyRule> merge(List<Grant> grants) {
		return rules(grants, true);
	}

	private List<PolicyRule> mergeOnly(List<Grant> grants) {
		return rules(grants, false);
	}

	// with extras: the Events and the user's rules, which go into the controllers' role
	private List<PolicyRule> rules(List<Grant> grants, boolean extras) {
		// group -> resource -> verbs, so that one rule per group lists resources with
		// equal verbs
		Map<String, Map<String, Set<String>>> verbs = new TreeMap<>();
		for (Grant grant : grants) {
			verbs.computeIfAbsent(grant.group(), (group) -> new TreeMap<>())
				.computeIfAbsent(grant.resource(), (resource) -> new LinkedHashSet<>())
				.addAll(grant.verbs());
		}
		if (extras && this.events) {
			verbs.computeIfAbsent(EVENTS_GROUP, (group) -> new TreeMap<>())
				.computeIfAbsent("events", (resource) -> new LinkedHashSet<>())
				.addAll(List.of("create", "patch"));
		}
		List<PolicyRule> rules = new ArrayList<>();
		verbs.forEach((group, resources) -> {
			Map<List<String>, List<String>> byVerbs = new LinkedHashMap<>();
			resources.forEach((resource, resourceVerbs) -> byVerbs
				.computeIfAbsent(ordered(resourceVerbs), (key) -> new ArrayList<>())
				.add(resource));
			byVerbs.forEach((ruleVerbs, ruleResources) -> rules
				.add(new PolicyRule(List.of(group), ruleResources, ruleVerbs, List.of())));
		});
		if (extras) {
			rules.addAll(this.userRules);
		}
		return rules;
	}

	private static final List<String> VERB_ORDER = List.of("get", "list", "watch", "create", "update", "patch",
			"delete", "deletecollection");

	private static List<String> ordered(Set<String> verbs) {
		List<String> ordered = new ArrayList<>(verbs);
		ordered.sort(
				(a, b) -> Integer.compare(rank(a), rank(b)) != 0 ? Integer.compare(rank(a), rank(b)) : a.compareTo(b));
		return List.copyOf(ordered);
	}

	private static int rank(String verb) {
		int index = VERB_ORDER.indexOf(verb);
		return (index >= 0) ? index : VERB_ORDER.size();
	}

	private record Grant(String group, String resource, Set<String> namespaces, List<String> verbs) {
	}

}
