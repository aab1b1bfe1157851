package dev.kubereconciler.sample.mirror;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Preconditions;

import org.springframework.stereotype.Component;

import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Request;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;
import dev.kubereconciler.sample.SampleProperties;

/**
 * Copies every ConfigMap labelled {@code mirror=true} into the target namespace, as
 * {@code <namespace>.<name>}, and deletes the copy when the source goes away or loses the
 * label.
 *
 * <p>
 * Owner references cannot cross namespaces, so a copy points at its source through labels
 * and annotations instead, and the controller deletes copies itself rather than leaving
 * it to the garbage collector. A copy whose source was deleted while the application was
 * down stays until its source comes back and goes again: nothing enqueues it.
 */
@Component
public class ConfigMapMirror {

	/** The label that a ConfigMap needs to be mirrored. */
	public static final String MIRROR_LABEL = "mirror";

	/** Marks copies as made by this controller. */
	public static final String MANAGED_BY_LABEL = "app.kubernetes.io/managed-by";

	/** The value of {@link #MANAGED_BY_LABEL} on copies. */
	public static final String MANAGED_BY = "configmap-mirror";

	/** The source's namespace, as a label so that copies can be selected by it. */
	public static final String SOURCE_NAMESPACE_LABEL = "mirror.sample.kubereconciler.dev/source-namespace";

	/** The source's {@code namespace/name}. */
	public static final String SOURCE_ANNOTATION = "mirror.sample.kubereconciler.dev/source";

	/** The source's uid, which tells a recreated source from the one copied. */
	public static final String SOURCE_UID_ANNOTATION = "mirror.sample.kubereconciler.dev/source-uid";

	private final CoreV1Api core;

	private final String targetNamespace;

	public ConfigMapMirror(CoreV1Api core, SampleProperties properties) {
		this.core = core;
		this.targetNamespace = properties.getMirror().getTargetNamespace();
	}

	@Reconciler(name = "configmap-mirror", labelSelector = "mirror=true")
	public Result reconcile(Request request, ReconcileContext<V1ConfigMap> context) throws Exception {
		if (request.namespace().equals(this.targetNamespace)) {
			// copying the target namespace into itself would never end
			return Result.done();
		}
		String copyName = copyName(request);
		V1ConfigMap source = context.get(V1ConfigMap.class, request.namespace(), request.name()).orElse(null);
		V1ConfigMap copy = readCopy(copyName);
		if (source == null || !isMirrored(source)) {
			if (copy != null && isCopyOf(copy, request)) {
				deleteCopy(copy);
			}
			return Result.done();
		}
		V1ConfigMap desired = desiredCopy(source, copyName);
		if (copy == null) {
			context.create(desired);
		}
		else if (!isCopyOf(copy, request)) {
			// someone else's ConfigMap: retrying will not make it ours
			throw new TerminalReconcileException("ConfigMap " + this.targetNamespace + "/" + copyName
					+ " exists and is not a copy of " + request + "; not overwriting it");
		}
		else if (!sameContent(copy, desired)) {
			// replace, not patch: the copy must lose keys and labels the source lost; the
			// resourceVersion makes a concurrent change fail with 409 and retry
			desired.getMetadata().setResourceVersion(copy.getMetadata().getResourceVersion());
			context.update(desired);
		}
		return Result.done();
	}

	/**
	 * Return the name of the copy of a source: {@code <namespace>.<name>}, so that
	 * sources of the same name in two namespaces do not collide.
	 * @param source the source
	 * @return the copy's name in the target namespace
	 */
	public static String copyName(Request source) {
		return source.namespace() + "." + source.name();
	}

	private static boolean isMirrored(V1ConfigMap source) {
		Map<String, String> labels = source.getMetadata().getLabels();
		return labels != null && "true".equals(labels.get(MIRROR_LABEL))
				&& source.getMetadata().getDeletionTimestamp() == null;
	}

	private static boolean isCopyOf(V1ConfigMap copy, Request source) {
		Map<String, String> labels = copy.getMetadata().getLabels();
		Map<String, String> annotations = copy.getMetadata().getAnnotations();
		return labels != null && MANAGED_BY.equals(labels.get(MANAGED_BY_LABEL)) && annotations != null
				&& source.key().equals(annotations.get(SOURCE_ANNOTATION));
	}

	private V1ConfigMap desiredCopy(V1ConfigMap source, String copyName) {
		V1ObjectMeta from = source.getMetadata();
		Map<String, String> labels = new LinkedHashMap<>();
		if (from.getLabels() != null) {
			labels.putAll(from.getLabels());
		}
		// a copy is never a source itself
		labels.remove(MIRROR_LABEL);
		labels.put(MANAGED_BY_LABEL, MANAGED_BY);
		labels.put(SOURCE_NAMESPACE_LABEL, from.getNamespace());
		Map<String, String> annotations = new LinkedHashMap<>();
		annotations.put(SOURCE_ANNOTATION, from.getNamespace() + "/" + from.getName());
		annotations.put(SOURCE_UID_ANNOTATION, from.getUid());
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().name(copyName)
				.namespace(this.targetNamespace)
				.labels(labels)
				.annotations(annotations))
			.data(source.getData())
			.binaryData(source.getBinaryData());
	}

	private static boolean sameContent(V1ConfigMap copy, V1ConfigMap desired) {
		return Objects.equals(emptyIfNull(copy.getData()), emptyIfNull(desired.getData()))
				&& Objects.equals(emptyIfNull(copy.getBinaryData()), emptyIfNull(desired.getBinaryData()))
				&& Objects.equals(copy.getMetadata().getLabels(), desired.getMetadata().getLabels())
				&& Objects.equals(copy.getMetadata().getAnnotations(), desired.getMetadata().getAnnotations());
	}

	private static <V> Map<String, V> emptyIfNull(Map<String, V> map) {
		return (map != null) ? map : Map.of();
	}

	private V1ConfigMap readCopy(String copyName) throws ApiException {
		try {
			return this.core.readNamespacedConfigMap(copyName, this.targetNamespace).execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() == 404) {
				return null;
			}
			throw ex;
		}
	}

	private void deleteCopy(V1ConfigMap copy) throws ApiException {
		try {
			// only the copy that was read: never one that someone recreated meanwhile
			this.core.deleteNamespacedConfigMap(copy.getMetadata().getName(), this.targetNamespace)
				.body(new V1DeleteOptions().preconditions(new V1Preconditions().uid(copy.getMetadata().getUid())))
				.execute();
		}
		catch (ApiException ex) {
			if (ex.getCode() != 404) {
				throw ex;
			}
		}
	}

}
