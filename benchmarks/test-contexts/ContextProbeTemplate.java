package com.example.greeting;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import dev.kubereconciler.manager.ControllerRegistry;
import dev.kubereconciler.test.KubernetesTest;

import static org.assertj.core.api.Assertions.assertThat;

// one property of its own, so that Spring's context cache holds no context for it
@SpringBootTest(properties = "context-probe=NUMBER")
@KubernetesTest
class ContextNUMBERProbeTests {

	@Autowired
	ControllerRegistry controllers;

	@Test
	void theCachesAreSynced() {
		assertThat(this.controllers.hasSynced()).isTrue();
	}

}
