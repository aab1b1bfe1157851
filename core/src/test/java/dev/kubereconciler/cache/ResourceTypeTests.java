package dev.kubereconciler.cache;

import java.io.File;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

import io.kubernetes.client.apimachinery.GroupVersionKind;
import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1Deployment;
import io.kubernetes.client.openapi.models.V1ListMeta;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1Secret;
import io.kubernetes.client.util.ModelMapper;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.CustomResourceList;
import dev.kubereconciler.model.ResourceCoordinates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ResourceType}: built-in models, annotated custom resources and the
 * error for an unknown one.
 */
class ResourceTypeTests {

	@Test
	void builtInModelsAreKnown() {
		ResourceType secret = ResourceType.of(V1Secret.class);
		assertThat(secret.displayName()).isEqualTo("v1/Secret");
		assertThat(secret.plural()).isEqualTo("secrets");
		ResourceType deployment = ResourceType.of(V1Deployment.class);
		assertThat(deployment.apiVersion()).isEqualTo("apps/v1");
		assertThat(deployment.plural()).isEqualTo("deployments");
		assertThat(ResourceType.of(io.kubernetes.client.openapi.models.V1Lease.class).displayName())
			.isEqualTo("coordination.k8s.io/v1/Lease");
		assertThat(ResourceType.of(io.kubernetes.client.openapi.models.V1Ingress.class).plural())
			.isEqualTo("ingresses");
		assertThat(ResourceType.of(io.kubernetes.client.openapi.models.CoreV1Event.class).displayName())
			.isEqualTo("v1/Event");
		assertThat(ResourceType.of(io.kubernetes.client.openapi.models.EventsV1Event.class).displayName())
			.isEqualTo("events.k8s.io/v1/Event");
		// client-java's ModelMapper reads this one as version v1, kind
		// alpha2LeaseCandidate
		ResourceType candidate = ResourceType.of(io.kubernetes.client.openapi.models.V1alpha2LeaseCandidate.class);
		assertThat(candidate.version()).isEqualTo("v1alpha2");
		assertThat(candidate.kind()).isEqualTo("LeaseCandidate");
	}

	@Test
	void everyBuiltInModelHasTheCoordinatesThatClientJavasModelMapperGives() throws Exception {
		List<Class<?>> models = builtInModels();
		assertThat(models).hasSizeGreaterThan(50);
		for (Class<?> model : models) {
			GroupVersionKind prebuilt = ModelMapper.preBuiltGetGroupVersionKindByClass(model).orElseThrow();
			String group = (prebuilt.getGroup() == null || prebuilt.getGroup().isEmpty())
					? BuiltInGroups.of(model, prebuilt.getKind()) : prebuilt.getGroup();
			ResourceType type = ResourceType.of(model);
			if (Character.isUpperCase(prebuilt.getKind().charAt(0))) {
				assertThat(List.of(type.group(), type.version(), type.kind())).as(model.getName())
					.containsExactly(group, prebuilt.getVersion(), prebuilt.getKind());
			}
			else {
				// a version missing from ModelMapper's list (v1alpha2) ends up in its
				// kind
				assertThat(type.group()).as(model.getName()).isEqualTo(group);
				assertThat(type.version() + type.kind()).as(model.getName())
					.isEqualTo(prebuilt.getVersion() + prebuilt.getKind());
			}
		}
	}

	private static List<Class<?>> builtInModels() throws Exception {
		List<Class<?>> models = new ArrayList<>();
		File jar = new File(V1ConfigMap.class.getProtectionDomain().getCodeSource().getLocation().toURI());
		try (JarFile file = new JarFile(jar)) {
			for (Enumeration<JarEntry> entries = file.entries(); entries.hasMoreElements();) {
				String name = entries.nextElement().getName();
				if (name.matches("io/kubernetes/client/openapi/models/[A-Za-z0-9]+\\.class")) {
					Class<?> type = Class.forName(name.replace('/', '.').replace(".class", ""), false,
							V1ConfigMap.class.getClassLoader());
					if (KubernetesObject.class.isAssignableFrom(type) && !type.isInterface()) {
						models.add(type);
					}
				}
			}
		}
		return models;
	}

	@Test
	void annotatedCustomResourceIsRegisteredOnFirstUse() {
		ResourceType gadget = ResourceType.of(Gadget.class);
		assertThat(gadget.group()).isEqualTo("example.kubereconciler.dev");
		assertThat(gadget.version()).isEqualTo("v1beta1");
		assertThat(gadget.kind()).isEqualTo("Gadget");
		assertThat(gadget.plural()).isEqualTo("gadgetries");
		assertThat(gadget.listType()).isEqualTo(GadgetList.class);
		assertThat(ModelMapper.getGroupVersionKindByClass(Gadget.class).getKind()).isEqualTo("Gadget");
	}

	@Test
	void aModelWithoutAListClassIsListedAsTheGenericList() {
		ResourceType backup = ResourceType.of(Backup.class);
		assertThat(backup.listType()).isEqualTo(CustomResourceList.class);
		assertThat(backup.displayName()).isEqualTo("example.kubereconciler.dev/v1/Backup");
		assertThat(ModelMapper.getGroupVersionKindByClass(Backup.class).getKind()).isEqualTo("Backup");
		assertThat(ModelMapper.getGroupVersionResourceByClass(Backup.class).getResource()).isEqualTo("backups");
	}

	@Test
	void unknownCustomResourceFailsWithTheTwoWaysToDeclareIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> ResourceType.of(Unknown.class))
			.withMessageContaining("@ResourceCoordinates")
			.withMessageContaining("ModelMapper.addModelMap");
	}

	@ResourceCoordinates(group = "example.kubereconciler.dev", version = "v1beta1", kind = "Gadget",
			plural = "gadgetries")
	static class Gadget extends Unknown {

	}

	@ResourceCoordinates(group = "example.kubereconciler.dev", version = "v1", kind = "Backup", plural = "backups")
	static class Backup extends CustomResource<String, String> {

	}

	static class GadgetList implements KubernetesListObject {

		@Override
		public V1ListMeta getMetadata() {
			return null;
		}

		@Override
		public List<? extends KubernetesObject> getItems() {
			return List.of();
		}

		@Override
		public String getApiVersion() {
			return "example.kubereconciler.dev/v1beta1";
		}

		@Override
		public String getKind() {
			return "GadgetList";
		}

	}

	static class Unknown implements KubernetesObject {

		@Override
		public V1ObjectMeta getMetadata() {
			return null;
		}

		@Override
		public String getApiVersion() {
			return "example.kubereconciler.dev/v1beta1";
		}

		@Override
		public String getKind() {
			return "Unknown";
		}

	}

}
