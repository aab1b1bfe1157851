package dev.kubereconciler.actuate;

import java.util.concurrent.atomic.LongAdder;

/**
 * The running counts of one dependent of one controller, written by the reconciles that
 * apply and prune it and read by the {@code controllers} endpoint.
 */
final class DependentTally {

	private final LongAdder applied = new LongAdder();

	private final LongAdder unchanged = new LongAdder();

	private final LongAdder driftCorrections = new LongAdder();

	private final LongAdder prunes = new LongAdder();

	void applied(boolean changed, boolean drift) {
		(changed ? this.applied : this.unchanged).increment();
		if (drift) {
			this.driftCorrections.increment();
		}
	}

	void pruned() {
		this.prunes.increment();
	}

	DependentCounts counts() {
		return new DependentCounts(this.applied.sum(), this.unchanged.sum(), this.driftCorrections.sum(),
				this.prunes.sum());
	}

}
