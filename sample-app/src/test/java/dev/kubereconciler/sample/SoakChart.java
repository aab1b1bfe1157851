package dev.kubereconciler.sample;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The soak's per-minute figures drawn as an SVG: reconciles and errors, heap after GC,
 * threads and open files of each replica, with a mark at each minute that had a fault.
 */
final class SoakChart {

	private static final String[] COLORS = { "#1f77b4", "#d62728", "#2ca02c", "#9467bd" };

	private static final int WIDTH = 900;

	private static final int PANEL = 170;

	private static final int LEFT = 60;

	private final List<String> replicas;

	private final List<SoakReport.Row> rows;

	SoakChart(List<String> replicas, List<SoakReport.Row> rows) {
		this.replicas = replicas;
		this.rows = rows;
	}

	String svg() {
		StringBuilder svg = new StringBuilder(String.format(Locale.ROOT,
				"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" "
						+ "font-size=\"11\">\n<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n",
				WIDTH, 4 * PANEL + 30));
		panel(svg, 0, "reconciles and errors per minute", List.of("reconciles", "errors"),
				List.of(SoakReport.Row::reconciles, SoakReport.Row::errors));
		List<String> names = this.replicas;
		panel(svg, 1, "heap after GC, MiB", names, perReplica((sample) -> sample.heap() / (1024 * 1024)));
		panel(svg, 2, "threads", names, perReplica((sample) -> sample.threads()));
		panel(svg, 3, "open files", names, perReplica((sample) -> sample.openFiles()));
		return svg.append("</svg>\n").toString();
	}

	private List<ToDoubleFunction<SoakReport.Row>> perReplica(ToDoubleFunction<SoakSample> value) {
		List<ToDoubleFunction<SoakReport.Row>> series = new ArrayList<>();
		for (String replica : this.replicas) {
			series.add((row) -> {
				SoakSample sample = row.samples().get(replica);
				return (sample != null) ? value.applyAsDouble(sample) : Double.NaN;
			});
		}
		return series;
	}

	private void panel(StringBuilder svg, int index, String title, List<String> labels,
			List<ToDoubleFunction<SoakReport.Row>> series) {
		int top = 20 + index * PANEL;
		int height = PANEL - 40;
		int plotWidth = WIDTH - LEFT - 20;
		double max = 1;
		for (ToDoubleFunction<SoakReport.Row> line : series) {
			for (SoakReport.Row row : this.rows) {
				double value = line.applyAsDouble(row);
				if (!Double.isNaN(value)) {
					max = Math.max(max, value);
				}
			}
		}
		max = max * 1.1;
		svg.append(String.format(Locale.ROOT,
				"<text x=\"%d\" y=\"%d\" font-weight=\"bold\">%s</text>\n"
						+ "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#999\"/>\n"
						+ "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%.0f</text><text x=\"%d\" y=\"%d\" "
						+ "text-anchor=\"end\">0</text>\n",
				LEFT, top - 4, title, LEFT, top, plotWidth, height, LEFT - 4, top + 10, max, LEFT - 4, top + height));
		int n = Math.max(1, this.rows.size());
		for (SoakReport.Row row : this.rows) {
			double x = LEFT + plotWidth * (row.minute() - 0.5) / n;
			if (!row.faults().isEmpty()) {
				svg.append(String.format(Locale.ROOT,
						"<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#f0c000\" stroke-dasharray=\"3,3\">"
								+ "<title>%s</title></line>\n",
						x, top, x, top + height, String.join(", ", row.faults())));
			}
		}
		for (int s = 0; s < series.size(); s++) {
			StringBuilder points = new StringBuilder();
			for (SoakReport.Row row : this.rows) {
				double value = series.get(s).applyAsDouble(row);
				if (!Double.isNaN(value)) {
					points.append(String.format(Locale.ROOT, "%.1f,%.1f ", LEFT + plotWidth * (row.minute() - 0.5) / n,
							top + height - height * value / max));
				}
			}
			String color = COLORS[s % COLORS.length];
			svg.append(String.format(Locale.ROOT,
					"<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>\n"
							+ "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s</text>\n",
					color, points.toString().trim(), LEFT + 200 + 90 * s, top - 4, color, labels.get(s)));
		}
		svg.append(String.format(Locale.ROOT,
				"<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">minute (dashed: a fault)</text>\n",
				LEFT + plotWidth / 2, top + height + 14));
	}

}
