package dev.kubereconciler.reconcile;

import java.io.UncheckedIOException;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link TerminalReconcileException#isTerminal(Throwable)}, which looks through
 * the cause chain as Go's {@code errors.Is} does.
 */
class TerminalReconcileExceptionTests {

	@Test
	void noErrorIsNotTerminal() {
		assertThat(TerminalReconcileException.isTerminal(null)).isFalse();
	}

	@Test
	void aTerminalExceptionAnywhereInTheCauseChainIsTerminal() {
		Throwable wrapped = new IllegalStateException("outer", new UncheckedIOException("middle",
				new java.io.IOException(new TerminalReconcileException("bad spec"))));
		assertThat(TerminalReconcileException.isTerminal(wrapped)).isTrue();
		assertThat(TerminalReconcileException
			.isTerminal(new IllegalStateException("outer", new IllegalArgumentException("inner")))).isFalse();
	}

	@Test
	void aCauseChainWithACycleEnds() {
		IllegalStateException first = new IllegalStateException("first");
		IllegalArgumentException second = new IllegalArgumentException("second", first);
		first.initCause(second);
		assertThat(TerminalReconcileException.isTerminal(first)).isFalse();
	}

}
