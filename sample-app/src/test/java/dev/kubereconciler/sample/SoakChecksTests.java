package dev.kubereconciler.sample;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The soak's own checks, on figures made up to breach them: the journal finds a key that
 * two replicas reconciled at once, and only that; the flatness check refuses a rise of
 * more than 10% and passes a flat line.
 */
class SoakChecksTests {

	@TempDir
	Path logs;

	@Test
	void aKeyReconciledByTwoReplicasAtOnceIsFoundAndHandOversAreNot() throws Exception {
		Path r1 = Files.writeString(this.logs.resolve("r1.log"),
				line("18:00:00.000", "default/a", "started") + line("18:00:01.000", "default/a", "ended")
						+ line("18:00:02.000", "default/b", "started") + line("18:00:05.000", "default/b", "ended")
						+ line("18:00:06.000", "default/c", "started") + "--- 2026-11-27T18:00:07Z restarting\n");
		Path r2 = Files.writeString(this.logs.resolve("r2.log"),
				// a starts as r1's ends: a hand-over, not an overlap
				line("18:00:01.000", "default/a", "started") + line("18:00:01.500", "default/a", "ended")
				// b while r1 still holds it
						+ line("18:00:04.000", "default/b", "started") + line("18:00:04.100", "default/b", "ended")
						// c after r1 was killed with c in flight
						+ line("18:00:06.500", "default/c", "started") + line("18:00:06.600", "default/c", "ended"));
		ReconcileJournal journal = new ReconcileJournal();
		journal.read("r1", r1);
		journal.read("r2", r2);
		assertThat(journal.reconciles()).isEqualTo(5);
		assertThat(journal.unfinished()).isOne();
		assertThat(journal.overlaps()).singleElement()
			.asString()
			.contains("widget default/b by r1 from 2026-11-27T18:00:02Z")
			.contains("widget default/b by r2 from 2026-11-27T18:00:04Z");
	}

	@Test
	void heapThatRisesMoreThanTenPercentFromMinuteTenIsABreachAndAFlatOneIsNot() {
		assertThat(report((minute) -> 100.0 + ((minute % 2 == 0) ? 3 : -3)).flatness()).isEmpty();
		assertThat(report((minute) -> 100.0 + minute).flatness()).singleElement()
			.asString()
			.startsWith("r1 heap after GC, minute 10 to 30")
			.endsWith("more than 10%");
	}

	private static SoakReport report(java.util.function.IntToDoubleFunction heapMib) {
		SoakReport report = new SoakReport(List.of("r1"));
		List<SoakSample> previous = new ArrayList<>();
		for (int minute = 1; minute <= 30; minute++) {
			SoakSample sample = new SoakSample(minute, Instant.EPOCH, "r1", 1, 0, 0, 0,
					heapMib.applyAsDouble(minute) * 1024 * 1024, 50, 100, 0, true);
			report.minute(minute, List.of(sample),
					previous.isEmpty() ? Map.of() : Map.of("r1", previous.get(previous.size() - 1)), List.of(), 0, 0, 0,
					0);
			previous.add(sample);
		}
		return report;
	}

	private static String line(String time, String key, String what) {
		return "2026-11-27T" + time + "Z DEBUG 4242 --- [kube-reconciler-sample] [widget-worker-1] "
				+ "dev.kubereconciler.reconciles           : Reconcile of " + key + " by controller 'widget' " + what
				+ "\n";
	}

}
