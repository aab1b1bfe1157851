package dev.kubereconciler.autoconfigure.manifests;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties for the RBAC rules that kube-reconciler derives from the
 * controllers.
 */
@ConfigurationProperties("kube-reconciler.rbac")
public class RbacProperties {

	/**
	 * Rules the application's own code needs beyond what the controllers declare, granted
	 * in the controllers' scope (each Role, or the ClusterRole).
	 */
	private final List<Rule> rules = new ArrayList<>();

	public List<Rule> getRules() {
		return this.rules;
	}

	/**
	 * One rule, as in a Role's rules.
	 */
	public static class Rule {

		/**
		 * API groups of the rule; "" for the core group.
		 */
		private List<String> apiGroups = new ArrayList<>(List.of(""));

		/**
		 * Plural resource names, optionally with a subresource, such as "secrets" or
		 * "widgets/status".
		 */
		private List<String> resources = new ArrayList<>();

		/**
		 * Verbs, such as get, list, watch, create, update, patch and delete.
		 */
		private List<String> verbs = new ArrayList<>();

		/**
		 * Names of the objects the rule is limited to; empty for every object.
		 */
		private List<String> resourceNames = new ArrayList<>();

		public List<String> getApiGroups() {
			return this.apiGroups;
		}

		public void setApiGroups(List<String> apiGroups) {
			this.apiGroups = apiGroups;
		}

		public List<String> getResources() {
			return this.resources;
		}

		public void setResources(List<String> resources) {
			this.resources = resources;
		}

		public List<String> getVerbs() {
			return this.verbs;
		}

		public void setVerbs(List<String> verbs) {
			this.verbs = verbs;
		}

		public List<String> getResourceNames() {
			return this.resourceNames;
		}

		public void setResourceNames(List<String> resourceNames) {
			this.resourceNames = resourceNames;
		}

	}

}
