package dev.kubereconciler.benchmarks;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.asn1.sec.ECPrivateKey;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;
import org.bouncycastle.util.io.pem.PemObject;
import org.bouncycastle.util.io.pem.PemWriter;
import org.yaml.snakeyaml.Yaml;

/**
 * A fabric8 {@link Config} for the kubeconfig of the test API server. fabric8 cannot read
 * the PKCS#8 form of an EC client key ("Invalid DER: object is not integer"), so the key
 * is handed to it rewritten in SEC1 form ({@code BEGIN EC PRIVATE KEY}).
 */
final class Fabric8Configs {

	private Fabric8Configs() {
	}

	static Config fromKubeconfig(Path kubeconfig) throws IOException {
		Credentials credentials = Credentials.read(kubeconfig);
		return new ConfigBuilder(Config.empty()).withMasterUrl(credentials.server())
			.withCaCertData(base64(credentials.caCertificate()))
			.withClientCertData(base64(credentials.clientCertificate()))
			.withClientKeyData(base64(credentials.sec1Key().getBytes(StandardCharsets.US_ASCII)))
			.withClientKeyAlgo("EC")
			.withRequestTimeout(60_000)
			.build();
	}

	/**
	 * Return a kubeconfig that fabric8 reads as it is, for a process that builds its
	 * client from {@code KUBECONFIG}: the kubeconfig itself when it authenticates with a
	 * token, otherwise a copy with the same server and certificates, inline, and the key
	 * in SEC1 form.
	 * @param kubeconfig the test API server's kubeconfig
	 * @param target where to write the copy
	 * @return the kubeconfig for fabric8
	 */
	static Path kubeconfigFor(Path kubeconfig, Path target) throws IOException {
		Map<String, Object> user = user(read(kubeconfig));
		if (!user.containsKey("client-key") && !user.containsKey("client-key-data")) {
			return kubeconfig;
		}
		Credentials credentials = Credentials.read(kubeconfig);
		Files.writeString(target,
				"""
						apiVersion: v1
						kind: Config
						clusters:
						- name: test
						  cluster:
						    server: %s
						    certificate-authority-data: %s
						users:
						- name: test
						  user:
						    client-certificate-data: %s
						    client-key-data: %s
						contexts:
						- name: test
						  context: {cluster: test, user: test}
						current-context: test
						""".formatted(credentials.server(), base64(credentials.caCertificate()),
						base64(credentials.clientCertificate()),
						base64(credentials.sec1Key().getBytes(StandardCharsets.US_ASCII))));
		return target;
	}

	/**
	 * Rewrite a PEM EC private key in SEC1 form.
	 * @param pem the key in PKCS#8 or SEC1 form
	 * @return the key in SEC1 form
	 */
	static String sec1(String pem) throws IOException {
		Object parsed;
		try (PEMParser parser = new PEMParser(new StringReader(pem))) {
			parsed = parser.readObject();
		}
		PrivateKeyInfo info = (parsed instanceof PEMKeyPair pair) ? pair.getPrivateKeyInfo() : (PrivateKeyInfo) parsed;
		ECPrivateKey inner = ECPrivateKey.getInstance(info.parsePrivateKey());
		int orderBits = ((java.security.interfaces.ECPrivateKey) new JcaPEMKeyConverter().getPrivateKey(info))
			.getParams()
			.getOrder()
			.bitLength();
		// fabric8 insists on the curve inside the key, which PKCS#8 keeps outside it
		ECPrivateKey sec1 = new ECPrivateKey(orderBits, inner.getKey(), inner.getPublicKey(),
				info.getPrivateKeyAlgorithm().getParameters());
		StringWriter out = new StringWriter();
		try (PemWriter writer = new PemWriter(out)) {
			writer.writeObject(new PemObject("EC PRIVATE KEY", sec1.getEncoded()));
		}
		return out.toString();
	}

	private static Map<String, Object> read(Path kubeconfig) throws IOException {
		try (Reader reader = Files.newBufferedReader(kubeconfig)) {
			return new Yaml().load(reader);
		}
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> user(Map<String, Object> root) {
		return (Map<String, Object>) first(root, "users").get("user");
	}

	@SuppressWarnings("unchecked")
	private static Map<String, Object> first(Map<String, Object> root, String list) {
		return ((List<Map<String, Object>>) root.get(list)).get(0);
	}

	private static byte[] data(Map<String, Object> section, String name, Path directory) throws IOException {
		Object inline = section.get(name + "-data");
		if (inline != null) {
			return Base64.getDecoder().decode((String) inline);
		}
		return Files.readAllBytes(directory.resolve((String) section.get(name)));
	}

	private static String base64(byte[] bytes) {
		return Base64.getEncoder().encodeToString(bytes);
	}

	/**
	 * What a client needs from the test API server's kubeconfig.
	 */
	private record Credentials(String server, byte[] caCertificate, byte[] clientCertificate, String sec1Key) {

		@SuppressWarnings("unchecked")
		static Credentials read(Path kubeconfig) throws IOException {
			Map<String, Object> root = Fabric8Configs.read(kubeconfig);
			Map<String, Object> cluster = (Map<String, Object>) first(root, "clusters").get("cluster");
			Map<String, Object> user = user(root);
			Path directory = kubeconfig.toAbsolutePath().getParent();
			String key = new String(data(user, "client-key", directory), StandardCharsets.US_ASCII);
			return new Credentials((String) cluster.get("server"), data(cluster, "certificate-authority", directory),
					data(user, "client-certificate", directory), sec1(key));
		}

	}

}
