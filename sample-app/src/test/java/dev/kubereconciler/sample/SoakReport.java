package dev.kubereconciler.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.stream.Collectors;

/**
 * The soak's figures per minute, as a CSV file, a Markdown table and an SVG chart, and
 * the acceptance bounds they breach.
 */
final class SoakReport {

	private static final double MIB = 1024.0 * 1024.0;

	private final List<String> replicas;

	private final List<Row> rows = new ArrayList<>();

	private final Map<String, List<SoakSample>> byReplica = new HashMap<>();

	SoakReport(List<String> replicas) {
		this.replicas = replicas;
	}

	/**
	 * Add one minute's figures.
	 * @param samples each replica's sample, those that answered
	 * @param previous each replica's last sample before, by name
	 * @param faults the faults that started in the minute
	 * @param leaderChanges replicas that started to lead in the minute
	 * @param writes the churn's writes in the minute; failed the ones refused or lost
	 */
	void minute(int minute, List<SoakSample> samples, Map<String, SoakSample> previous, List<String> faults,
			long leaderChanges, long partitions, long writes, long failed) {
		Row row = new Row(minute, new HashMap<>(), faults, leaderChanges, partitions, writes, failed);
		for (SoakSample sample : samples) {
			row.samples().put(sample.replica(), sample);
			this.byReplica.computeIfAbsent(sample.replica(), (name) -> new ArrayList<>()).add(sample);
		}
		row.previous.putAll(previous);
		this.rows.add(row);
	}

	/**
	 * Return the flatness breaches: from minute 10 on, in a run of 20 minutes or more,
	 * the line fitted through r1's heap after GC, threads and open files (r1 is never
	 * killed, so one process spans the run) may rise by at most 10% of its mean.
	 */
	List<String> flatness() {
		List<String> breaches = new ArrayList<>();
		List<SoakSample> witness = this.byReplica.getOrDefault("r1", List.of())
			.stream()
			.filter((sample) -> sample.minute() >= 10)
			.toList();
		if (this.rows.size() < 20 || witness.size() < 5) {
			return breaches;
		}
		check(breaches, witness, "heap after GC", SoakSample::heap);
		check(breaches, witness, "threads", (sample) -> sample.threads());
		check(breaches, witness, "open files", (sample) -> sample.openFiles());
		return breaches;
	}

	List<String> flatnessFigures() {
		List<String> figures = new ArrayList<>();
		List<SoakSample> witness = this.byReplica.getOrDefault("r1", List.of())
			.stream()
			.filter((sample) -> sample.minute() >= 10)
			.toList();
		if (witness.size() >= 2) {
			figures.add(rise(witness, "heap after GC", SoakSample::heap));
			figures.add(rise(witness, "threads", (sample) -> sample.threads()));
			figures.add(rise(witness, "open files", (sample) -> sample.openFiles()));
		}
		return figures;
	}

	private static void check(List<String> breaches, List<SoakSample> samples, String what,
			ToDoubleFunction<SoakSample> value) {
		double[] fit = fit(samples, value);
		if (fit[1] > 0.10 * fit[2]) {
			breaches.add(rise(samples, what, value) + ": more than 10%");
		}
	}

	private static String rise(List<SoakSample> samples, String what, ToDoubleFunction<SoakSample> value) {
		double[] fit = fit(samples, value);
		return String.format(Locale.ROOT,
				"r1 %s, minute %d to %d: fitted line from %.1f to %.1f (%+.1f%% of the mean %.1f)", what,
				samples.get(0).minute(), samples.get(samples.size() - 1).minute(), fit[0], fit[0] + fit[1],
				100 * fit[1] / fit[2], fit[2]);
	}

	// least squares over the minutes: {value at the first minute, rise to the last, mean}
	private static double[] fit(List<SoakSample> samples, ToDoubleFunction<SoakSample> value) {
		int n = samples.size();
		double meanX = samples.stream().mapToDouble(SoakSample::minute).average().orElse(0);
		double meanY = samples.stream().mapToDouble(value).average().orElse(0);
		double sxy = 0;
		double sxx = 0;
		for (SoakSample sample : samples) {
			sxy += (sample.minute() - meanX) * (value.applyAsDouble(sample) - meanY);
			sxx += (sample.minute() - meanX) * (sample.minute() - meanX);
		}
		double slope = (sxx > 0) ? sxy / sxx : 0;
		double first = samples.get(0).minute();
		double last = samples.get(n - 1).minute();
		return new double[] { meanY + slope * (first - meanX), slope * (last - first), meanY };
	}

	void write(Path folder, List<String> summary) {
		try {
			Files.createDirectories(folder);
			Files.writeString(folder.resolve("minutes.csv"), csv());
			Files.writeString(folder.resolve("report.md"),
					String.join("\n", summary) + "\n\n![per minute](chart.svg)\n\n" + markdown());
			Files.writeString(folder.resolve("chart.svg"), new SoakChart(this.replicas, this.rows).svg());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private String csv() {
		StringBuilder csv = new StringBuilder(
				"minute,reconciles,errors,queue,relists,leader_changes,partitions,writes,failed_writes,faults");
		for (String replica : this.replicas) {
			csv.append(',')
				.append(replica)
				.append("_heap_mib,")
				.append(replica)
				.append("_threads,")
				.append(replica)
				.append("_fds,")
				.append(replica)
				.append("_pid,")
				.append(replica)
				.append("_leads");
		}
		csv.append('\n');
		for (Row row : this.rows) {
			csv.append(String.format(Locale.ROOT, "%d,%.0f,%.0f,%.0f,%d,%d,%d,%d,%d,%s", row.minute(), row.reconciles(),
					row.errors(), row.depth(), row.lists(), row.leaderChanges(), row.partitions(), row.writes(),
					row.failed(), String.join(" ", row.faults())));
			for (String replica : this.replicas) {
				SoakSample sample = row.samples().get(replica);
				csv.append((sample != null) ? String.format(Locale.ROOT, ",%.1f,%d,%d,%d,%s", sample.heap() / MIB,
						sample.threads(), sample.openFiles(), sample.pid(), sample.leads()) : ",,,,,");
			}
			csv.append('\n');
		}
		return csv.toString();
	}

	private String markdown() {
		StringBuilder table = new StringBuilder("| min | reconciles | errors | queue | relists | leader changes "
				+ "| writes (failed) | heap after GC, MiB | threads | open files | faults |\n"
				+ "|---|---|---|---|---|---|---|---|---|---|---|\n");
		for (Row row : this.rows) {
			table.append(String.format(Locale.ROOT,
					"| %d | %.0f | %.0f | %.0f | %d | %d | %d (%d) | %s | %s | %s | %s |\n", row.minute(),
					row.reconciles(), row.errors(), row.depth(), row.lists(), row.leaderChanges(), row.writes(),
					row.failed(), perReplica(row, (s) -> String.format(Locale.ROOT, "%.1f", s.heap() / MIB)),
					perReplica(row, (s) -> Long.toString(s.threads())),
					perReplica(row, (s) -> Long.toString(s.openFiles())), String.join(", ", row.faults())));
		}
		return table.toString();
	}

	private String perReplica(Row row, java.util.function.Function<SoakSample, String> format) {
		return this.replicas.stream()
			.map((replica) -> row.samples().containsKey(replica) ? format.apply(row.samples().get(replica)) : "-")
			.collect(Collectors.joining(" / "));
	}

	/**
	 * One minute.
	 */
	record Row(int minute, Map<String, SoakSample> samples, List<String> faults, long leaderChanges, long partitions,
			long writes, long failed, Map<String, SoakSample> previous) {

		Row(int minute, Map<String, SoakSample> samples, List<String> faults, long leaderChanges, long partitions,
				long writes, long failed) {
			this(minute, samples, faults, leaderChanges, partitions, writes, failed, new HashMap<>());
		}

		double reconciles() {
			return delta(SoakSample::reconciles, false);
		}

		double errors() {
			return delta(SoakSample::errors, false);
		}

		long lists() {
			return (long) delta((sample) -> sample.lists(), true);
		}

		double depth() {
			return this.samples.values().stream().mapToDouble(SoakSample::depth).sum();
		}

		// a process's counter starts again at zero when the kubelet restarts it; the log
		// is kept across restarts
		private double delta(ToDoubleFunction<SoakSample> counter, boolean acrossRestarts) {
			double sum = 0;
			for (SoakSample sample : this.samples.values()) {
				SoakSample before = this.previous.get(sample.replica());
				double now = counter.applyAsDouble(sample);
				boolean continued = before != null && (acrossRestarts || before.pid() == sample.pid());
				sum += continued ? now - counter.applyAsDouble(before) : now;
			}
			return sum;
		}

		Instant end() {
			return this.samples.values().stream().map(SoakSample::at).max(Instant::compareTo).orElse(Instant.EPOCH);
		}

	}

}
