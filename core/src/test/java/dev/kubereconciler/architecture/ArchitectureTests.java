package dev.kubereconciler.architecture;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.AccessTarget;
import com.tngtech.archunit.core.domain.AccessTarget.CodeUnitAccessTarget;
import com.tngtech.archunit.core.domain.AccessTarget.FieldAccessTarget;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaField;
import com.tngtech.archunit.core.domain.JavaMember;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The engine's architecture as build rules, as Spring Boot's {@code ArchitectureRules}
 * keep its own; {@code docs/architecture.md} draws the same graph, and
 * {@link #docsDrawTheArrowsOfTheCode()} holds its arrows to the code. A failing rule
 * names the offending dependency.
 */
class ArchitectureTests {

	private static final String ROOT = "dev.kubereconciler";

	private static final String ARROWS_INTRODUCTION = "The arrows, one line per package, drawn from the code:";

	private static final JavaClasses CORE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.importPackages(ROOT);

	@Test
	void coreImportsNoSpring() {
		noClasses().should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework..")
			.because("core is the engine without Spring; the Spring glue lives in the autoconfigure module")
			.check(CORE);
	}

	@Test
	void packagesAreFreeOfCycles() {
		slices().matching(ROOT + ".(**)").should().beFreeOfCycles().check(CORE);
	}

	@Test
	void eachLayerUsesOnlyTheLayersBelowIt() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			// model is optional until the naming pass moves the model annotations there
			.optionalLayer("model")
			.definedBy(ROOT + ".model..")
			.layer("time")
			.definedBy(ROOT + ".time..")
			.layer("ratelimit")
			.definedBy(ROOT + ".ratelimit..")
			.layer("events")
			.definedBy(ROOT + ".events..")
			.layer("reconcile")
			.definedBy(ROOT + ".reconcile..")
			.layer("queue")
			.definedBy(ROOT + ".queue..")
			.layer("cache")
			.definedBy(ROOT + ".cache..")
			.layer("sharding")
			.definedBy(ROOT + ".sharding..")
			.layer("leaderelection")
			.definedBy(ROOT + ".leaderelection..")
			.layer("dependent")
			.definedBy(ROOT + ".dependent..")
			.layer("controller")
			.definedBy(ROOT + ".controller..")
			.layer("observation")
			.definedBy(ROOT + ".observation..")
			.layer("internal")
			.definedBy(ROOT + ".internal..")
			.layer("manager")
			.definedBy(ROOT + ".manager..")
			.layer("metrics")
			.definedBy(ROOT + ".metrics..")
			.layer("rbac")
			.definedBy(ROOT + ".rbac..")
			.layer("crd")
			.definedBy(ROOT + ".crd..")
			.layer("webhook")
			.definedBy(ROOT + ".webhook..")
			.whereLayer("model")
			.mayNotAccessAnyLayer()
			.whereLayer("time")
			.mayNotAccessAnyLayer()
			.whereLayer("events")
			.mayOnlyAccessLayers("time")
			.whereLayer("ratelimit")
			.mayOnlyAccessLayers("time")
			.whereLayer("reconcile")
			.mayOnlyAccessLayers("model", "events")
			.whereLayer("queue")
			.mayOnlyAccessLayers("model", "reconcile")
			.whereLayer("cache")
			.mayOnlyAccessLayers("model", "reconcile")
			.whereLayer("sharding")
			.mayOnlyAccessLayers("model", "time", "ratelimit", "reconcile", "leaderelection")
			.whereLayer("leaderelection")
			.mayOnlyAccessLayers("time")
			.whereLayer("dependent")
			.mayOnlyAccessLayers("model", "reconcile", "cache")
			.whereLayer("controller")
			.mayOnlyAccessLayers("model", "time", "ratelimit", "events", "reconcile", "queue", "cache", "sharding",
					"leaderelection", "dependent")
			.whereLayer("observation")
			.mayOnlyAccessLayers("reconcile", "controller")
			.whereLayer("internal")
			.mayOnlyAccessLayers("model", "time", "ratelimit", "events", "reconcile", "queue", "cache", "sharding",
					"leaderelection", "dependent", "controller", "observation")
			.whereLayer("manager")
			.mayOnlyAccessLayers("model", "time", "ratelimit", "events", "reconcile", "queue", "cache", "sharding",
					"leaderelection", "dependent", "controller", "observation", "internal")
			.whereLayer("metrics")
			.mayOnlyAccessLayers("model", "time", "ratelimit", "events", "reconcile", "queue", "sharding", "controller",
					"manager", "webhook")
			.whereLayer("rbac")
			.mayOnlyAccessLayers("model", "reconcile", "cache", "dependent", "controller")
			.whereLayer("crd")
			.mayOnlyAccessLayers("model", "reconcile", "time")
			.whereLayer("webhook")
			.mayOnlyAccessLayers("model", "time", "reconcile", "cache", "crd")
			.check(CORE);
	}

	@Test
	void webhookPackagesPointOneWay() {
		layeredArchitecture().consideringOnlyDependenciesInLayers()
			.layer("server")
			.definedBy(ROOT + ".webhook.server..")
			.layer("admission")
			.definedBy(ROOT + ".webhook.admission..")
			.layer("conversion")
			.definedBy(ROOT + ".webhook.conversion..")
			.layer("webhooks")
			.definedBy(ROOT + ".webhook")
			.layer("registration")
			.definedBy(ROOT + ".webhook.registration..")
			.whereLayer("server")
			.mayNotAccessAnyLayer()
			.whereLayer("admission")
			.mayOnlyAccessLayers("server")
			.whereLayer("conversion")
			.mayOnlyAccessLayers("server")
			.whereLayer("webhooks")
			.mayOnlyAccessLayers("server", "admission", "conversion")
			.whereLayer("registration")
			.mayOnlyAccessLayers("webhooks", "admission", "conversion")
			.check(CORE);
	}

	@Test
	void docsDrawTheArrowsOfTheCode() throws IOException {
		Map<String, Set<String>> drawn = drawnArrows(architectureDocument());
		Map<String, Set<String>> real = new TreeMap<>();
		for (JavaClass type : CORE) {
			String from = concept(type);
			if (from != null) {
				Set<String> targets = real.computeIfAbsent(from, (key) -> new TreeSet<>());
				usedTypes(type).map(ArchitectureTests::concept)
					.filter((to) -> to != null && !to.equals(from))
					.forEach(targets::add);
			}
		}
		assertThat(drawn).as("the arrows of docs/architecture.md, one line per package of core")
			.containsExactlyInAnyOrderEntriesOf(real);
		List<String> order = new ArrayList<>(drawn.keySet());
		drawn.forEach(
				(from, targets) -> assertThat(targets).as("%s uses only packages drawn on the lines above it", from)
					.allSatisfy((to) -> assertThat(order.indexOf(to)).isLessThan(order.indexOf(from))));
	}

	// ArchUnit's dependencies, and the types in the signatures of the methods and fields
	// a class uses, as in its constant pool: a local variable that holds what a call
	// returns is an import in the source, but no dependency of ArchUnit's
	private static Stream<JavaClass> usedTypes(JavaClass type) {
		Stream<JavaClass> dependencies = type.getDirectDependenciesFromSelf().stream().map(Dependency::getTargetClass);
		Stream<JavaClass> signatures = type.getAccessesFromSelf().stream().flatMap((access) -> {
			AccessTarget target = access.getTarget();
			if (target instanceof CodeUnitAccessTarget code) {
				return Stream.concat(Stream.of(code.getRawReturnType()), code.getRawParameterTypes().stream());
			}
			return (target instanceof FieldAccessTarget field) ? Stream.of(field.getRawType()) : Stream.empty();
		});
		return Stream.concat(dependencies, signatures).map(JavaClass::getBaseComponentType);
	}

	// the package of a class of core, with the internal packages as one: internal.*
	private static @Nullable String concept(JavaClass type) {
		String name = type.getPackageName();
		if (!name.startsWith(ROOT + ".")) {
			return null;
		}
		String concept = name.substring(ROOT.length() + 1);
		return concept.startsWith("internal.") ? "internal.*" : concept;
	}

	// the fenced block after the line that introduces the arrows: "package ──► a, b"
	private static Map<String, Set<String>> drawnArrows(List<String> document) {
		int introduction = document.indexOf(ARROWS_INTRODUCTION);
		assertThat(introduction).as("docs/architecture.md has the line '%s'", ARROWS_INTRODUCTION).isNotNegative();
		int start = introduction + document.subList(introduction, document.size()).indexOf("```") + 1;
		int end = start + document.subList(start, document.size()).indexOf("```");
		Map<String, Set<String>> arrows = new LinkedHashMap<>();
		for (String line : document.subList(start, end)) {
			String[] parts = line.split("──►");
			Set<String> targets = new TreeSet<>();
			if (parts.length > 1) {
				for (String target : parts[1].split(",")) {
					targets.add(target.strip());
				}
			}
			arrows.put(parts[0].strip(), targets);
		}
		return arrows;
	}

	private static List<String> architectureDocument() throws IOException {
		// Maven runs the tests in the module's folder, an IDE may run them in the
		// checkout's
		for (Path folder = Path.of("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
			Path document = folder.resolve("docs/architecture.md");
			if (Files.isRegularFile(document)) {
				return Files.readAllLines(document);
			}
		}
		throw new IllegalStateException("No docs/architecture.md above " + Path.of("").toAbsolutePath());
	}

	@Test
	void internalPackagesServeOnlyTheManagerAndEachOther() {
		noClasses().that()
			.resideOutsideOfPackages(ROOT + ".internal..", ROOT + ".manager..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage(ROOT + ".internal..")
			.because("what users touch and what runs it live apart, as in controller-runtime's pkg/internal")
			.check(CORE);
	}

	@Test
	void publicApiExposesNoInternalType() {
		members().that()
			.areDeclaredInClassesThat()
			.resideOutsideOfPackage(ROOT + ".internal..")
			.and()
			.arePublic()
			.and(declaredInPublicType())
			.should(notExposeInternalTypes())
			.check(CORE);
	}

	private static DescribedPredicate<JavaMember> declaredInPublicType() {
		return DescribedPredicate.describe("are declared in public types",
				(member) -> member.getOwner().getModifiers().contains(JavaModifier.PUBLIC));
	}

	private static ArchCondition<JavaMember> notExposeInternalTypes() {
		return new ArchCondition<>("not expose a type of an internal package") {

			@Override
			public void check(JavaMember member, ConditionEvents events) {
				List<JavaClass> exposed = new ArrayList<>();
				if (member instanceof JavaField field) {
					exposed.add(field.getRawType());
				}
				if (member instanceof JavaCodeUnit code) {
					exposed.add(code.getRawReturnType());
					exposed.addAll(code.getRawParameterTypes());
				}
				exposed.stream()
					.filter((type) -> type.getPackageName().startsWith(ROOT + ".internal"))
					.forEach((type) -> events.add(SimpleConditionEvent.violated(member,
							member.getFullName() + " exposes internal type " + type.getName())));
			}

		};
	}

}
