package dev.kubereconciler.test.certmanager;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import org.jspecify.annotations.Nullable;

/**
 * What one cert-manager {@code Certificate} asks for, read from its JSON with
 * cert-manager's defaults applied.
 *
 * @param namespace the Certificate's namespace
 * @param name the Certificate's name
 * @param secretName {@code spec.secretName}
 * @param commonName {@code spec.commonName}, or empty
 * @param organizations {@code spec.subject.organizations}
 * @param dnsNames {@code spec.dnsNames}
 * @param ipAddresses {@code spec.ipAddresses}
 * @param uris {@code spec.uris}
 * @param emailAddresses {@code spec.emailAddresses}
 * @param duration {@code spec.duration}, 90 days by default
 * @param renewBefore {@code spec.renewBefore}, a third of the duration by default
 * @param isCa {@code spec.isCA}
 * @param usages {@code spec.usages}, {@code digital signature} and
 * {@code key encipherment} by default
 * @param keyAlgorithm {@code spec.privateKey.algorithm}, {@code RSA} by default
 * @param keySize {@code spec.privateKey.size}, or 0 for the algorithm's default
 * @param keyEncoding {@code spec.privateKey.encoding}, {@code PKCS1} by default
 * @param rotationPolicy {@code spec.privateKey.rotationPolicy}, {@code Always} by default
 * (cert-manager 1.18 on)
 * @param issuerName {@code spec.issuerRef.name}
 * @param issuerKind {@code spec.issuerRef.kind}, {@code Issuer} by default
 * @param issuerGroup {@code spec.issuerRef.group}, {@code cert-manager.io} by default
 * @param secretLabels {@code spec.secretTemplate.labels}
 * @param secretAnnotations {@code spec.secretTemplate.annotations}
 */
record CertificateSpec(String namespace, String name, String secretName, String commonName, List<String> organizations,
		List<String> dnsNames, List<String> ipAddresses, List<String> uris, List<String> emailAddresses,
		Duration duration, Duration renewBefore, boolean isCa, List<String> usages, String keyAlgorithm, int keySize,
		String keyEncoding, String rotationPolicy, String issuerName, String issuerKind, String issuerGroup,
		Map<String, String> secretLabels, Map<String, String> secretAnnotations) {

	static final Duration DEFAULT_DURATION = Duration.ofDays(90);

	private static final Pattern GO_DURATION_PART = Pattern.compile("(\\d+(?:\\.\\d*)?|\\.\\d+)(ns|us|µs|ms|s|m|h)");

	/**
	 * Read a Certificate.
	 * @param certificate the Certificate's JSON
	 * @return the spec
	 * @throws IllegalArgumentException naming the field when one is missing or invalid
	 */
	static CertificateSpec of(JsonObject certificate) {
		JsonObject metadata = object(certificate, "metadata");
		String namespace = text(metadata, "namespace", "");
		String name = text(metadata, "name", "");
		String key = namespace + "/" + name;
		JsonObject spec = object(certificate, "spec");
		String secretName = text(spec, "secretName", "");
		if (secretName.isEmpty()) {
			throw new IllegalArgumentException("Certificate " + key + " has no spec.secretName: name the Secret "
					+ "the key and certificate are written to");
		}
		JsonObject issuerRef = object(spec, "issuerRef");
		String issuerName = text(issuerRef, "name", "");
		if (issuerName.isEmpty()) {
			throw new IllegalArgumentException("Certificate " + key
					+ " has no spec.issuerRef.name: name the Issuer or ClusterIssuer that signs it");
		}
		Duration duration = duration(spec, "duration", DEFAULT_DURATION, key);
		Duration renewBefore = duration(spec, "renewBefore", duration.dividedBy(3), key);
		JsonObject privateKey = object(spec, "privateKey");
		List<String> usages = texts(spec, "usages");
		JsonObject secretTemplate = object(spec, "secretTemplate");
		return new CertificateSpec(namespace, name, secretName, text(spec, "commonName", ""),
				texts(object(spec, "subject"), "organizations"), texts(spec, "dnsNames"), texts(spec, "ipAddresses"),
				texts(spec, "uris"), texts(spec, "emailAddresses"), duration, renewBefore,
				spec.has("isCA") && spec.get("isCA").getAsBoolean(),
				usages.isEmpty() ? List.of("digital signature", "key encipherment") : usages,
				text(privateKey, "algorithm", "RSA"), privateKey.has("size") ? privateKey.get("size").getAsInt() : 0,
				text(privateKey, "encoding", "PKCS1"), text(privateKey, "rotationPolicy", "Always"), issuerName,
				text(issuerRef, "kind", "Issuer"), text(issuerRef, "group", "cert-manager.io"),
				strings(object(secretTemplate, "labels")), strings(object(secretTemplate, "annotations")));
	}

	/**
	 * Return the Certificate's {@code namespace/name}.
	 * @return the key
	 */
	String key() {
		return this.namespace + "/" + this.name;
	}

	/**
	 * Parse a duration as Go's {@code time.ParseDuration} does ({@code 2160h},
	 * {@code 1h30m}, {@code 90s}), the form cert-manager's durations take.
	 * @param text the text
	 * @return the duration
	 * @throws IllegalArgumentException if the text is not such a duration
	 */
	static Duration parseGoDuration(String text) {
		Matcher part = GO_DURATION_PART.matcher(text);
		Duration total = Duration.ZERO;
		int position = 0;
		while (position < text.length() && part.region(position, text.length()).lookingAt()) {
			BigDecimal nanos = new BigDecimal(part.group(1)).multiply(BigDecimal.valueOf(switch (part.group(2)) {
				case "ns" -> 1L;
				case "us", "µs" -> 1_000L;
				case "ms" -> 1_000_000L;
				case "s" -> 1_000_000_000L;
				case "m" -> 60_000_000_000L;
				default -> 3_600_000_000_000L;
			}));
			total = total.plusNanos(nanos.longValue());
			position = part.end();
		}
		if (position > 0 && position == text.length()) {
			return total;
		}
		throw new IllegalArgumentException(
				"'" + text + "' is not a duration: write it as Go does, such as 2160h or 1h30m");
	}

	private static Duration duration(JsonObject spec, String field, Duration fallback, String key) {
		String text = text(spec, field, "");
		if (text.isEmpty()) {
			return fallback;
		}
		try {
			return parseGoDuration(text);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					"Certificate " + key + " has an invalid spec." + field + ": " + ex.getMessage(), ex);
		}
	}

	private static JsonObject object(JsonObject parent, String field) {
		JsonElement element = parent.get(field);
		return (element != null && element.isJsonObject()) ? element.getAsJsonObject() : new JsonObject();
	}

	private static String text(JsonObject parent, String field, String fallback) {
		JsonElement element = parent.get(field);
		return (element != null && element.isJsonPrimitive()) ? element.getAsString() : fallback;
	}

	private static List<String> texts(JsonObject parent, String field) {
		List<String> texts = new ArrayList<>();
		JsonElement element = parent.get(field);
		if (element != null && element.isJsonArray()) {
			element.getAsJsonArray().forEach((item) -> texts.add(item.getAsString()));
		}
		return List.copyOf(texts);
	}

	private static Map<String, String> strings(@Nullable JsonObject object) {
		Map<String, String> strings = new LinkedHashMap<>();
		if (object != null) {
			object.entrySet().forEach((entry) -> strings.put(entry.getKey(), entry.getValue().getAsString()));
		}
		return strings;
	}

}
