package dev.kubereconciler.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The Spring glue's architecture as build rules: it uses the engine's public API only, as
 * a user would, its top-level packages and the auto-configuration's sub-packages are free
 * of cycles, the auto-configuration's root package depends on none of its sub-packages,
 * and only the auto-configuration packages import Spring Boot's auto-configuration.
 */
class GlueArchitectureTests {

	private static final JavaClasses GLUE = new ClassFileImporter()
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
		.withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
		.importPackages("dev.kubereconciler.autoconfigure", "dev.kubereconciler.actuate");

	@Test
	void glueUsesNoInternalPackageOfTheEngine() {
		noClasses().should()
			.dependOnClassesThat()
			.resideInAPackage("dev.kubereconciler.internal..")
			.because("the Spring glue builds on the engine's public API, as a user does")
			.check(GLUE);
	}

	// the auto-configuration's sub-packages share its properties and failure reporting,
	// so the rule holds between the glue's two top-level packages
	@Test
	void autoconfigureAndActuateAreFreeOfCycles() {
		slices().matching("dev.kubereconciler.(*)..").should().beFreeOfCycles().check(GLUE);
	}

	// sub-packages build on the root's properties and failure reporting; a bean that
	// needs a sub-package's type belongs to that sub-package's auto-configuration
	@Test
	void autoconfigureRootDependsOnNoSubPackage() {
		noClasses().that()
			.resideInAPackage("dev.kubereconciler.autoconfigure")
			.should()
			.dependOnClassesThat(resideInAPackage("dev.kubereconciler.autoconfigure..")
				.and(not(resideInAPackage("dev.kubereconciler.autoconfigure"))))
			.check(GLUE);
	}

	@Test
	void autoconfigureSubPackagesAreFreeOfCycles() {
		slices().matching("dev.kubereconciler.autoconfigure.(*)..").should().beFreeOfCycles().check(GLUE);
	}

	@Test
	void onlyAutoConfigurationImportsSpringBootAutoConfiguration() {
		noClasses().that()
			.resideOutsideOfPackage("dev.kubereconciler.autoconfigure..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework.boot.autoconfigure..")
			.check(GLUE);
	}

}
