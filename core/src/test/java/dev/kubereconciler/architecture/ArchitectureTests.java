package dev.kubereconciler.architecture;

import java.util.ArrayList;
import java.util.List;

import com.tngtech.archunit.base.DescribedPredicate;
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
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.members;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The engine's architecture as build rules, as Spring Boot's {@code ArchitectureRules}
 * keep its own; {@code docs/architecture.md} draws the same graph. A failing rule names
 * the offending dependency.
 */
class ArchitectureTests {

	private static final String ROOT = "dev.kubereconciler";

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
			.whereLayer("internal")
			.mayOnlyAccessLayers("model", "time", "ratelimit", "events", "reconcile", "queue", "cache", "sharding",
					"leaderelection", "dependent", "controller")
			.whereLayer("manager")
			.mayOnlyAccessLayers("model", "time", "ratelimit", "events", "reconcile", "queue", "cache", "sharding",
					"leaderelection", "dependent", "controller", "internal")
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
