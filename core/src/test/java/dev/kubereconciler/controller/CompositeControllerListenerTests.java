package dev.kubereconciler.controller;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CompositeControllerListener}.
 */
class CompositeControllerListenerTests {

	@Test
	void everyCallbackOfTheListenerIsFannedOut() {
		// a default method left out would be dropped silently for every listener bean
		List<String> overridden = Arrays.stream(CompositeControllerListener.class.getDeclaredMethods())
			.map(Method::getName)
			.toList();
		assertThat(Arrays.stream(ControllerListener.class.getMethods())
			.filter((method) -> !Modifier.isStatic(method.getModifiers()))
			.map(Method::getName)).allSatisfy((name) -> assertThat(overridden).contains(name));
	}

	@Test
	void dependentCallbacksReachEveryListener() {
		List<String> seen = new ArrayList<>();
		ControllerListener listener = CompositeControllerListener.of(List.of(recorder("a", seen), recorder("b", seen)));
		listener.dependentApplied("widget", "config", true, true);
		listener.dependentPruned("widget", "config");
		listener.dependentReady("widget", "config", Duration.ofSeconds(3));
		assertThat(seen).containsExactly("a applied widget/config true true", "b applied widget/config true true",
				"a pruned widget/config", "b pruned widget/config", "a ready widget/config PT3S",
				"b ready widget/config PT3S");
	}

	private static ControllerListener recorder(String name, List<String> seen) {
		return new ControllerListener() {

			@Override
			public void dependentApplied(String controller, String dependent, boolean changed, boolean drift) {
				seen.add(name + " applied " + controller + "/" + dependent + " " + changed + " " + drift);
			}

			@Override
			public void dependentPruned(String controller, String dependent) {
				seen.add(name + " pruned " + controller + "/" + dependent);
			}

			@Override
			public void dependentReady(String controller, String dependent, Duration waited) {
				seen.add(name + " ready " + controller + "/" + dependent + " " + waited);
			}

		};
	}

}
