package dev.kubereconciler.internal.controller;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.CompletionException;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Result;
import dev.kubereconciler.reconcile.TerminalReconcileException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for how {@link ResultHandler} classifies a reconcile's ending: a terminal error
 * stays terminal when it arrives wrapped, as controller-runtime's {@code errors.Is}
 * unwraps.
 */
class ResultClassificationTests {

	@Test
	void terminalErrorIsTerminal() {
		assertThat(ResultHandler.classify(null, new TerminalReconcileException("no")))
			.isEqualTo(ReconcileOutcome.TERMINAL_ERROR);
	}

	@Test
	void wrappedTerminalErrorIsTerminal() {
		Throwable wrapped = new CompletionException(
				new UndeclaredThrowableException(new TerminalReconcileException("no")));
		assertThat(ResultHandler.classify(null, wrapped)).isEqualTo(ReconcileOutcome.TERMINAL_ERROR);
	}

	@Test
	void errorWithOtherCausesIsRetried() {
		assertThat(ResultHandler.classify(null, new IllegalStateException(new IllegalArgumentException("x"))))
			.isEqualTo(ReconcileOutcome.ERROR);
	}

	@Test
	void causeCycleEndsTheSearch() {
		IllegalStateException first = new IllegalStateException("first");
		IllegalStateException second = new IllegalStateException("second", first);
		first.initCause(second);
		assertThat(ResultHandler.classify(null, first)).isEqualTo(ReconcileOutcome.ERROR);
	}

	@Test
	void successIsSuccess() {
		assertThat(ResultHandler.classify(Result.done(), null)).isEqualTo(ReconcileOutcome.SUCCESS);
	}

}
