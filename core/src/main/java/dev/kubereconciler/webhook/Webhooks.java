package dev.kubereconciler.webhook;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import dev.kubereconciler.cache.ResourceType;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.webhook.admission.AdmissionDefaulter;
import dev.kubereconciler.webhook.admission.AdmissionOperation;
import dev.kubereconciler.webhook.admission.AdmissionValidator;
import dev.kubereconciler.webhook.admission.AdmissionWebhook;
import dev.kubereconciler.webhook.admission.MutatingEndpoint;
import dev.kubereconciler.webhook.admission.ValidatingEndpoint;
import dev.kubereconciler.webhook.conversion.ConversionEndpoint;
import dev.kubereconciler.webhook.conversion.ConvertedResource;
import dev.kubereconciler.webhook.conversion.VersionConverter;
import dev.kubereconciler.webhook.server.WebhookEndpoint;

/**
 * The admission and conversion webhooks of an application: its validators, defaulters and
 * version converters by type, the paths they are served at, and the
 * {@link WebhookEndpoint endpoints} that answer the API server there.
 *
 * <p>
 * Paths follow controller-runtime, so that manifests written for a Go operator read the
 * same: {@code /validate-<group>-<version>-<kind>} and {@code /mutate-...} with the
 * group's dots as dashes and the kind in lower case (the core group is empty, as in
 * {@code /validate--v1-configmap}), and {@code /convert} for every conversion.
 *
 * <pre class="code">
 * Webhooks webhooks = Webhooks.builder()
 *     .validator(Widget.class, new WidgetValidator())
 *     .defaulter(Widget.class, new WidgetDefaulter())
 *     .converter(WidgetV1.class, Widget.class, new WidgetConverter())
 *     .build();
 * </pre>
 */
public final class Webhooks {

	/** The path of the conversion webhook, for every converted resource. */
	public static final String CONVERSION_PATH = "/convert";

	private final List<AdmissionWebhook> admissionWebhooks;

	private final List<ConvertedResource> convertedResources;

	private final Map<String, WebhookEndpoint> endpoints;

	private Webhooks(List<AdmissionWebhook> admissionWebhooks, List<ConvertedResource> convertedResources,
			Map<String, WebhookEndpoint> endpoints) {
		this.admissionWebhooks = List.copyOf(admissionWebhooks);
		this.convertedResources = List.copyOf(convertedResources);
		this.endpoints = Map.copyOf(endpoints);
	}

	/**
	 * Return a builder.
	 * @return the builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Return the validating and mutating webhooks, in the order registered.
	 * @return the webhooks
	 */
	public List<AdmissionWebhook> admissionWebhooks() {
		return this.admissionWebhooks;
	}

	/**
	 * Return the custom resources whose versions are converted.
	 * @return the resources
	 */
	public List<ConvertedResource> convertedResources() {
		return this.convertedResources;
	}

	/**
	 * Return the endpoints to serve, by path.
	 * @return the endpoints
	 */
	public Map<String, WebhookEndpoint> endpoints() {
		return this.endpoints;
	}

	/**
	 * Return whether there is nothing to serve.
	 * @return {@code true} with no validator, defaulter or converter
	 */
	public boolean isEmpty() {
		return this.endpoints.isEmpty();
	}

	/**
	 * Return the path a type's validator is served at.
	 * @param type the type
	 * @return the path, such as {@code /validate-apps-v1-deployment}
	 */
	public static String validatingPath(ResourceType type) {
		return "/validate-" + pathSegment(type);
	}

	/**
	 * Return the path a type's defaulter is served at.
	 * @param type the type
	 * @return the path, such as {@code /mutate-apps-v1-deployment}
	 */
	public static String mutatingPath(ResourceType type) {
		return "/mutate-" + pathSegment(type);
	}

	private static String pathSegment(ResourceType type) {
		return type.group().replace('.', '-') + "-" + type.version() + "-" + type.kind().toLowerCase(Locale.ROOT);
	}

	// a qualified name of three or more segments, as the API server requires
	private static String webhookName(String prefix, ResourceType type) {
		return prefix + type.kind().toLowerCase(Locale.ROOT) + "-" + type.version() + "."
				+ (type.group().isEmpty() ? "core.k8s.io" : type.group());
	}

	/**
	 * Builds {@link Webhooks}: one validator and one defaulter per type at most, and
	 * converters that share one hub per custom resource.
	 */
	public static final class Builder {

		private final List<AdmissionWebhook> admissionWebhooks = new ArrayList<>();

		private final Map<String, WebhookEndpoint> endpoints = new LinkedHashMap<>();

		private final Map<String, Object> owners = new LinkedHashMap<>();

		private final Map<String, ConversionEndpoint.Hub> hubs = new LinkedHashMap<>();

		private Builder() {
		}

		/**
		 * Serve a validator.
		 * @param <T> the model type
		 * @param type the model class
		 * @param validator the validator
		 * @return this builder
		 * @throws IllegalArgumentException if the type already has a validator
		 */
		public <T> Builder validator(Class<T> type, AdmissionValidator<? super T> validator) {
			ResourceType resource = ResourceType.of(type);
			Set<AdmissionOperation> operations = EnumSet.of(AdmissionOperation.CREATE, AdmissionOperation.UPDATE);
			if (overridesValidateDelete(validator)) {
				operations.add(AdmissionOperation.DELETE);
			}
			add(new AdmissionWebhook(webhookName("v", resource), validatingPath(resource), false, resource, operations),
					new ValidatingEndpoint<>(type, validator), validator);
			return this;
		}

		/**
		 * Serve a defaulter.
		 * @param <T> the model type
		 * @param type the model class
		 * @param defaulter the defaulter
		 * @return this builder
		 * @throws IllegalArgumentException if the type already has a defaulter
		 */
		public <T> Builder defaulter(Class<T> type, AdmissionDefaulter<? super T> defaulter) {
			ResourceType resource = ResourceType.of(type);
			add(new AdmissionWebhook(webhookName("m", resource), mutatingPath(resource), true, resource,
					EnumSet.of(AdmissionOperation.CREATE, AdmissionOperation.UPDATE)),
					new MutatingEndpoint<>(type, defaulter), defaulter);
			return this;
		}

		/**
		 * Serve conversions between a custom resource's hub version and one spoke.
		 * @param <H> the hub's model type
		 * @param <S> the spoke's model type
		 * @param hub the hub's model class
		 * @param spoke the spoke's model class
		 * @param converter the converter
		 * @return this builder
		 * @throws IllegalArgumentException if the classes are not two versions of one
		 * custom resource, the resource already has another hub, or the spoke already has
		 * a converter
		 */
		@SuppressWarnings("unchecked")
		public <H, S> Builder converter(Class<H> hub, Class<S> spoke, VersionConverter<H, S> converter) {
			ResourceType hubType = customResource(hub, converter);
			ResourceType spokeType = customResource(spoke, converter);
			if (!hubType.group().equals(spokeType.group()) || !hubType.kind().equals(spokeType.kind())
					|| hubType.version().equals(spokeType.version())) {
				throw new IllegalArgumentException(
						converter.getClass().getName() + " converts between " + hubType.displayName() + " and "
								+ spokeType.displayName() + ", which are not two versions of one custom resource");
			}
			String key = hubType.group() + "/" + hubType.kind();
			ConversionEndpoint.Hub existing = this.hubs.get(key);
			if (existing != null && !existing.hub().equals(hubType)) {
				throw new IllegalArgumentException(converter.getClass().getName() + " names " + hubType.displayName()
						+ " as the hub of " + hubType.kind() + ", whose hub is already " + existing.hub().displayName()
						+ ": every converter of a resource converts to one hub");
			}
			Map<String, ConversionEndpoint.Spoke> spokes = new LinkedHashMap<>(
					(existing != null) ? existing.spokes() : Map.of());
			// no spoke is ever the hub: every spoke's version differs from the hub's, as
			// checked above against this hub, which is the resource's only one
			if (spokes.containsKey(spokeType.version())) {
				throw new IllegalArgumentException(spokeType.displayName() + " already has a converter to the hub");
			}
			spokes.put(spokeType.version(),
					new ConversionEndpoint.Spoke(spokeType, (VersionConverter<Object, Object>) converter));
			this.hubs.put(key, new ConversionEndpoint.Hub(hubType, spokes));
			return this;
		}

		/**
		 * Build the webhooks.
		 * @return the webhooks
		 */
		public Webhooks build() {
			Map<String, WebhookEndpoint> endpoints = new LinkedHashMap<>(this.endpoints);
			List<ConvertedResource> converted = new ArrayList<>();
			if (!this.hubs.isEmpty()) {
				endpoints.put(CONVERSION_PATH, new ConversionEndpoint(this.hubs));
				this.hubs.values()
					.forEach((hub) -> converted.add(new ConvertedResource(hub.hub().plural() + "." + hub.hub().group(),
							hub.hub(), hub.spokes().values().stream().map(ConversionEndpoint.Spoke::type).toList())));
			}
			return new Webhooks(this.admissionWebhooks, converted, endpoints);
		}

		private void add(AdmissionWebhook webhook, WebhookEndpoint endpoint, Object owner) {
			Object other = this.owners.putIfAbsent(webhook.path(), owner);
			if (other != null) {
				throw new IllegalArgumentException(webhook.type().displayName() + " has two "
						+ (webhook.mutating() ? "defaulters" : "validators") + ", " + other.getClass().getName()
						+ " and " + owner.getClass().getName() + ": merge them into one, which may call the other");
			}
			this.admissionWebhooks.add(webhook);
			this.endpoints.put(webhook.path(), endpoint);
		}

		private static ResourceType customResource(Class<?> type, Object converter) {
			if (type.getAnnotation(ResourceCoordinates.class) == null) {
				throw new IllegalArgumentException(converter.getClass().getName() + " converts " + type.getName()
						+ ", which is no custom resource: only the versions of a CRD, annotated with "
						+ "@ResourceCoordinates, are converted by webhook");
			}
			return ResourceType.of(type);
		}

		private static boolean overridesValidateDelete(AdmissionValidator<?> validator) {
			for (Class<?> type = validator.getClass(); type != null
					&& type != Object.class; type = type.getSuperclass()) {
				for (Method method : type.getDeclaredMethods()) {
					if (method.getName().equals("validateDelete") && method.getParameterCount() == 2
							&& !method.isBridge() && !method.isSynthetic()) {
						return true;
					}
				}
			}
			return false;
		}

	}

}
