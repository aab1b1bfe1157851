package dev.kubereconciler.autoconfigure.manifests;

import java.util.List;

import org.jspecify.annotations.Nullable;

import dev.kubereconciler.autoconfigure.InvalidPropertyException;
import dev.kubereconciler.autoconfigure.KubeReconcilerProperties;
import dev.kubereconciler.autoconfigure.LeaderElectionSettingsFactory;
import dev.kubereconciler.autoconfigure.ManagedControllers;
import dev.kubereconciler.controller.Controller;
import dev.kubereconciler.controller.ControllerDefinition;
import dev.kubereconciler.leaderelection.LeaderElectionSettings;
import dev.kubereconciler.manager.ControllerManager;
import dev.kubereconciler.rbac.ControllerRbac;
import dev.kubereconciler.rbac.FleetRbac;
import dev.kubereconciler.rbac.PolicyRule;
import dev.kubereconciler.rbac.RbacManifests;
import dev.kubereconciler.rbac.RbacPolicy;
import dev.kubereconciler.rbac.RbacPolicyProvider;
import dev.kubereconciler.rbac.RbacRules;

/**
 * The RBAC policy of this application: the rules of its controllers, its leases, the
 * rules of {@code kube-reconciler.rbac.rules} and of {@link RbacCustomizer} beans; with a
 * fleet, those of the local cluster (its own controllers and the cluster providers'
 * reads), and apart from them the {@linkplain #memberPolicy() rules of every member}.
 */
public class KubeReconcilerRbac implements RbacPolicyProvider {

	private final ManagedControllers controllers;

	private final KubeReconcilerProperties properties;

	private final RbacProperties rbacProperties;

	private final List<RbacCustomizer> customizers;

	private final String name;

	private final String namespace;

	KubeReconcilerRbac(ManagedControllers controllers, KubeReconcilerProperties properties,
			RbacProperties rbacProperties, List<RbacCustomizer> customizers, String name, String namespace) {
		this.controllers = controllers;
		this.properties = properties;
		this.rbacProperties = rbacProperties;
		this.customizers = customizers;
		this.name = name;
		this.namespace = namespace;
	}

	/**
	 * Return the policy as Roles or a ClusterRole with their bindings to the
	 * application's ServiceAccount, in YAML.
	 * @return the YAML
	 */
	public String yaml() {
		return RbacManifests.yaml(policy(), this.name, this.namespace);
	}

	/**
	 * Calculate the policy with the lease namespace the manager uses.
	 * @return the policy
	 */
	@Override
	public RbacPolicy policy() {
		return policy(null);
	}

	/**
	 * Calculate the policy.
	 * @param deploymentNamespace the namespace the application will run in, used for the
	 * leases when {@code kube-reconciler.leader-election.lease-namespace} is not set;
	 * {@code null} for the namespace the running manager uses
	 * @return the policy
	 */
	public RbacPolicy policy(@Nullable String deploymentNamespace) {
		ControllerManager manager = this.controllers.getManager();
		List<ControllerDefinition> definitions = manager.controllers()
			.values()
			.stream()
			.map(Controller::definition)
			.toList();
		// the local cluster's controllers only: a fleet controller's rules go to the
		// members (memberPolicy)
		List<ControllerDefinition> local = FleetRbac.onLocal(definitions);
		RbacRules rules = FleetRbac.local(definitions);
		if (!local.isEmpty() || definitions.isEmpty()) {
			ControllerRbac.readThrough(rules, manager.cacheOptions(), local);
		}
		FleetRbac.providers(rules, manager.clusterProviders());
		this.properties.getClusters().forEach((cluster, settings) -> {
			String secret = settings.getKubeconfig().getSecret();
			if (secret != null && secret.indexOf('/') > 0) {
				int slash = secret.indexOf('/');
				FleetRbac.kubeconfigSecret(rules, secret.substring(0, slash), secret.substring(slash + 1));
			}
		});
		LeaderElectionSettings leaderElection = manager.leaderElection();
		if (leaderElection != null) {
			String configured = this.properties.getLeaderElection().getLeaseNamespace();
			rules.leases((configured != null) ? configured
					: (deploymentNamespace != null) ? deploymentNamespace : leaderElection.leaseNamespace());
		}
		if (this.properties.getSharding().isEnabled()) {
			String configured = this.properties.getSharding().getLeaseNamespace();
			rules.shardLeases((configured != null) ? configured
					: (deploymentNamespace != null) ? deploymentNamespace : LeaderElectionSettingsFactory
						.podNamespace(LeaderElectionSettingsFactory.SERVICE_ACCOUNT_NAMESPACE));
		}
		if (this.properties.getCrds().isApply()) {
			// kube-reconciler.crds.apply: a server-side apply that may create the CRD,
			// then reads until it is established
			rules.clusterRule(
					PolicyRule.of("apiextensions.k8s.io", "customresourcedefinitions", "get", "create", "patch"));
		}
		List<RbacProperties.Rule> configuredRules = this.rbacProperties.getRules();
		for (int i = 0; i < configuredRules.size(); i++) {
			rules.rule(rule(i, configuredRules.get(i)));
		}
		this.customizers.forEach((customizer) -> customizer.customize(rules));
		return rules.build();
	}

	/**
	 * Calculate the policy of every member cluster: the rules of the controllers that run
	 * on the fleet, and of {@link RbacCustomizer#customizeMembers} callbacks; no roles
	 * when no controller runs on the fleet.
	 * @return the policy
	 */
	public RbacPolicy memberPolicy() {
		ControllerManager manager = this.controllers.getManager();
		List<ControllerDefinition> fleet = FleetRbac
			.onFleet(manager.controllers().values().stream().map(Controller::definition).toList());
		RbacRules rules = FleetRbac.members(fleet);
		if (!fleet.isEmpty()) {
			ControllerRbac.readThrough(rules, manager.cacheOptions(), fleet);
		}
		this.customizers.forEach((customizer) -> customizer.customizeMembers(rules));
		return rules.build();
	}

	/**
	 * Return the member clusters' policy as Roles or a ClusterRole with their bindings to
	 * the application's ServiceAccount in each member, in YAML.
	 * @param deploymentNamespace the namespace of that ServiceAccount
	 * @return the YAML
	 */
	public String memberYaml(String deploymentNamespace) {
		return RbacManifests.yaml(memberPolicy(), this.name, deploymentNamespace);
	}

	private static PolicyRule rule(int index, RbacProperties.Rule rule) {
		try {
			return new PolicyRule(rule.getApiGroups(), rule.getResources(), rule.getVerbs(), rule.getResourceNames());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidPropertyException("kube-reconciler.rbac.rules[" + index + "]",
					rule.getApiGroups() + " " + rule.getResources() + " " + rule.getVerbs(), ex.getMessage(),
					"Give the rule resources and verbs, for example resources: [secrets] and verbs: [get].");
		}
	}

}
