package dev.kubereconciler.internal.cache;

import java.util.function.BiConsumer;

import io.kubernetes.client.openapi.ApiException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.kubereconciler.cache.ResourceType;

/**
 * What the informer of one namespace does with a failed list or watch: a refusal by the
 * API server's authorization (403) is logged once, naming the namespace and the missing
 * permission, since the derived RBAC covers only the namespaces known at build time and a
 * namespace added at run time needs a grant of the user's; the informer retries with its
 * backoff, and the other namespaces keep running. Anything else is logged as client-java
 * logs it.
 */
final class RefusedReads implements BiConsumer<Class<?>, Throwable> {

	private static final Logger logger = LoggerFactory.getLogger(RefusedReads.class);

	private static final int FORBIDDEN = 403;

	private final ResourceType type;

	private final String namespace;

	private volatile boolean logged;

	RefusedReads(ResourceType type, String namespace) {
		this.type = type;
		this.namespace = namespace;
	}

	@Override
	public void accept(Class<?> modelType, Throwable failure) {
		if (isForbidden(failure)) {
			String message = "The API server refused to list or watch " + resource() + " in namespace '"
					+ this.namespace + "' (403 Forbidden); the controllers keep running in their other namespaces, and "
					+ "this informer retries. Grant get, list and watch on " + resource() + " in namespace '"
					+ this.namespace + "' to the application's identity (a Role and a RoleBinding there): the derived "
					+ "RBAC covers only the namespaces the controllers declared when it was generated";
			if (!this.logged) {
				this.logged = true;
				logger.warn(message);
			}
			else {
				logger.debug(message);
			}
			return;
		}
		logger.error("{}#Reflector loop failed unexpectedly (namespace '{}')", modelType, this.namespace, failure);
	}

	private String resource() {
		String group = this.type.group();
		return group.isEmpty() ? this.type.plural() : this.type.plural() + "." + group;
	}

	private static boolean isForbidden(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof ApiException api && api.getCode() == FORBIDDEN) {
				return true;
			}
		}
		return false;
	}

}
