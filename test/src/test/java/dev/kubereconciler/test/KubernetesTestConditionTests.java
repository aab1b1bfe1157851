package dev.kubereconciler.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for when {@link KubernetesTestExtension} lets Kubernetes tests run, and for the
 * namespaces it names.
 */
class KubernetesTestConditionTests {

	@TempDir
	Path home;

	@Test
	void missingBinariesSkipWithTheDiscoveryMessage() {
		ConditionEvaluationResult result = KubernetesTestExtension.evaluate(Map.of(), this.home);
		assertThat(result.isDisabled()).isTrue();
		assertThat(result.getReason()).hasValueSatisfying(
				(reason) -> assertThat(reason).startsWith("No etcd and kube-apiserver for the Kubernetes test server")
					.contains("./dev setup", "KUBEBUILDER_ASSETS"));
	}

	@Test
	void missingBinariesOnCiRunTheTestsSoThatTheyFail() {
		ConditionEvaluationResult result = KubernetesTestExtension.evaluate(Map.of("CI", "true"), this.home);
		assertThat(result.isDisabled()).isFalse();
		assertThat(result.getReason()).hasValue("CI=true, so the missing binaries fail the tests");
	}

	@Test
	void foundBinariesRunTheTests() throws IOException {
		Path assets = Files.createDirectories(this.home.resolve("assets"));
		for (String name : new String[] { "etcd", "kube-apiserver" }) {
			Files.writeString(assets.resolve(name), "#!/bin/sh\n");
			Files.setPosixFilePermissions(assets.resolve(name), PosixFilePermissions.fromString("rwxr-xr-x"));
		}
		ConditionEvaluationResult result = KubernetesTestExtension
			.evaluate(Map.of("KUBEBUILDER_ASSETS", assets.toString()), this.home);
		assertThat(result.isDisabled()).isFalse();
	}

	@Test
	void namespaceNamesAreValidDnsLabelsEvenForLongOrOddClassNames() {
		class AVeryLongTestClassNameThatGoesOnAndOnWellPastTheSixtyThreeCharacterLimit {

		}
		class $Odd_ {

		}
		String dnsLabel = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
		assertThat(KubernetesTestExtension
			.namespaceName(AVeryLongTestClassNameThatGoesOnAndOnWellPastTheSixtyThreeCharacterLimit.class))
			.matches(dnsLabel)
			.hasSizeLessThanOrEqualTo(63)
			.startsWith("averylongtestclassname");
		assertThat(KubernetesTestExtension.namespaceName($Odd_.class)).matches("odd-[a-z0-9]{5}");
		assertThat(KubernetesTestExtension.namespaceName(getClass()))
			.isNotEqualTo(KubernetesTestExtension.namespaceName(getClass()));
	}

}
