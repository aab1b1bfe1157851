package dev.kubereconciler.benchmarks;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

import dev.kubereconciler.benchmarks.ScalePeers.ScaleResult;

/**
 * The summary of a {@link ScalePeers} run: the median of every figure over the rounds,
 * and the targets of issue 27 judged on them.
 */
final class ScaleSummary {

	private static final double MIB = 1048576.0;

	private final PrintStream out;

	private final int count;

	private final long json;

	private final Map<String, List<ScaleResult>> results;

	private final Map<String, Long> empties;

	/**
	 * Create the summary.
	 * @param out where to print
	 * @param count the ConfigMaps
	 * @param json the bytes of the whole list as one JSON answer
	 * @param results every peer's results, by peer
	 * @param empties the live bytes of every peer's JVM on the empty namespace, by peer
	 */
	ScaleSummary(PrintStream out, int count, long json, Map<String, List<ScaleResult>> results,
			Map<String, Long> empties) {
		this.out = out;
		this.count = count;
		this.json = json;
		this.results = results;
		this.empties = empties;
	}

	void print() {
		this.out.printf(Locale.ROOT,
				"== %d ConfigMaps, median of the rounds; heap figures are above the heap in use at the start%n",
				this.count);
		this.out.printf("%-36s %9s %14s %12s %12s %12s %11s %15s%n", "peer", "synced", "last reconcile", "peak in use",
				"to synced", "peak live", "live cache", "live per object");
		this.results.forEach((peer, runs) -> {
			if (runs.isEmpty()) {
				this.out.printf("%-36s FAILED%n", label(peer));
				return;
			}
			double live = livePerObject(peer);
			this.out.printf(Locale.ROOT, "%-36s %6.0f ms %11.0f ms %12s %12s %12s %11s %15s%n", label(peer),
					median(runs, (r) -> r.synced() / 1e6), median(runs, (r) -> r.last() / 1e6),
					mib(median(runs, (r) -> r.peak() - r.base())), mib(median(runs, (r) -> r.peakToSync() - r.base())),
					peakLive(runs).isNaN() ? "-" : mib(peakLive(runs)),
					Double.isNaN(live) ? "-" : mib(live * this.count),
					Double.isNaN(live) ? "-" : String.format(Locale.ROOT, "%.0f B", live));
		});
		targets();
	}

	/**
	 * The median peak live heap above the start of the live pass, NaN if not measured.
	 */
	private static Double peakLive(List<ScaleResult> runs) {
		if (runs.stream().anyMatch((r) -> r.fullCollections() == 0)) {
			return Double.NaN;
		}
		return median(runs, (r) -> r.peakLive() - r.liveBase());
	}

	private void targets() {
		double ours = livePerObject("ours");
		double clientJava = livePerObject("client-java");
		if (!Double.isNaN(ours) && !Double.isNaN(clientJava)) {
			double ratio = ours / clientJava;
			this.out.printf(Locale.ROOT,
					"target: live bytes per cached object <= 0.6x client-java's default: %.0f B against %.0f B, "
							+ "%.2fx: %s%n",
					ours, clientJava, ratio, (ratio <= 0.6) ? "MET" : "MISSED");
		}
		this.out.println("peak live above the live cache at the end (what the cold start held beside it):");
		this.results.forEach((peer, runs) -> {
			if (!runs.isEmpty() && !peakLive(runs).isNaN()) {
				double live = livePerObject(peer);
				this.out.printf(Locale.ROOT, "  %-36s %s%n", label(peer),
						mib(peakLive(runs) - (Double.isNaN(live) ? 0 : live * this.count)));
			}
		});
		List<ScaleResult> paged = this.results.get("ours");
		List<ScaleResult> unpaged = this.results.get("ours-unpaged");
		if (paged == null || unpaged == null || paged.isEmpty() || unpaged.isEmpty()) {
			return;
		}
		this.out.printf(Locale.ROOT,
				"paging: our peak in use %s unpaged, %s in pages of 500; peak live %s unpaged, "
						+ "%s in pages of 500%n",
				mib(median(unpaged, (r) -> r.peak() - r.base())), mib(median(paged, (r) -> r.peak() - r.base())),
				mib(peakLive(unpaged)), mib(peakLive(paged)));
		// an unpaged list holds the whole answer while it is decoded, a paged one a page
		// of it: paging must save at least the whole answer's JSON, less a page
		double saved = peakLive(unpaged) - peakLive(paged);
		double page = (double) this.json * Math.min(1, 500.0 / Math.max(1, this.count));
		this.out.printf(Locale.ROOT,
				"target: the initial list does not hold the JSON of every object at once: paging saves %s of peak "
						+ "live heap, against %s of JSON in one answer less a page: %s%n",
				mib(saved), mib(this.json - page), (saved >= this.json - page) ? "MET" : "MISSED");
	}

	private static String mib(double bytes) {
		return String.format(Locale.ROOT, "%.1f MiB", bytes / MIB);
	}

	/**
	 * The median live bytes per object of a peer, minus its JVM on the empty namespace.
	 * @return the bytes, or NaN when not measured
	 */
	private double livePerObject(String peer) {
		List<ScaleResult> runs = this.results.get(peer);
		Long empty = this.empties.get(peer);
		if (runs == null || runs.isEmpty() || empty == null || this.count == 0) {
			return Double.NaN;
		}
		return median(runs, (r) -> (double) (r.live() - empty) / this.count);
	}

	private static double median(List<ScaleResult> runs, ToDoubleFunction<ScaleResult> figure) {
		return ScaleResult.median(runs, figure);
	}

	static String label(String peer) {
		return switch (peer) {
			case "ours" -> "kube-reconciler, pages of 500";
			case "ours-unpaged" -> "kube-reconciler, one unpaged list";
			case "josdk" -> "Java Operator SDK";
			case "client-java" -> "client-java DefaultController";
			case "bare" -> "bare client, pages of 500";
			default -> peer;
		};
	}

}
