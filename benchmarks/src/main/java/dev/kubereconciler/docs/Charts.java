package dev.kubereconciler.docs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.BitmapEncoder.BitmapFormat;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.XYSeries.XYSeriesRenderStyle;
import org.knowm.xchart.style.Styler.LegendPosition;
import org.knowm.xchart.style.markers.Marker;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Renders the charts of {@code docs/rate-limiting.md} into {@code docs/images}:
 * {@code ./mvnw -pl benchmarks -am -Pcharts verify -DskipTests}.
 */
public final class Charts {

	private static final int WIDTH = 900;

	private static final int HEIGHT = 500;

	private Charts() {
	}

	/**
	 * Render every chart.
	 * @param args the output folder, {@code docs/images} by default
	 * @throws IOException if a file cannot be written
	 */
	public static void main(String[] args) throws IOException {
		Path folder = Path.of((args.length > 0) ? args[0] : "docs/images");
		Files.createDirectories(folder);
		save(backoff(), folder.resolve("backoff.png"));
		save(storm(), folder.resolve("storm.png"));
		save(sharedBucket(), folder.resolve("shared-bucket.png"));
	}

	static XYChart backoff() {
		List<Duration> delays = ChartData.backoff(ChartData.BASE_DELAY, ChartData.MAX_DELAY, 25);
		List<Integer> failures = new ArrayList<>();
		List<Double> seconds = new ArrayList<>();
		List<Double> elapsed = new ArrayList<>();
		double total = 0;
		for (int i = 0; i < delays.size(); i++) {
			failures.add(i + 1);
			double delay = delays.get(i).toNanos() / 1e9;
			seconds.add(delay);
			total += delay;
			elapsed.add(total);
		}
		XYChart chart = chart("One item failing again and again: exponential 5ms..1000s", "failures so far",
				"seconds (log scale)");
		chart.getStyler().setYAxisLogarithmic(true);
		chart.getStyler().setLegendPosition(LegendPosition.InsideSE);
		chart.addSeries("delay before the next attempt", failures, seconds).setMarker(SeriesMarkers.CIRCLE);
		chart.addSeries("time since the first failure", failures, elapsed).setMarker(SeriesMarkers.NONE);
		return chart;
	}

	static XYChart storm() {
		Map<String, List<Long>> series = ChartData.storm(10_000, Duration.ofSeconds(300), Duration.ofSeconds(1),
				ChartData.stormLimiters());
		XYChart chart = chart("10,000 items failing from t=0: attempts per second", "seconds",
				"attempts per second (log scale)");
		chart.getStyler().setYAxisLogarithmic(true);
		// points, not lines: a line between two busy seconds would hide the idle
		// ones between
		chart.getStyler().setDefaultSeriesRenderStyle(XYSeriesRenderStyle.Scatter);
		chart.getStyler().setMarkerSize(7);
		List<Marker> markers = List.of(SeriesMarkers.CIRCLE, SeriesMarkers.SQUARE, SeriesMarkers.CROSS);
		series.forEach((name, attempts) -> {
			List<Integer> x = new ArrayList<>();
			List<Long> y = new ArrayList<>();
			for (int second = 0; second < attempts.size(); second++) {
				// a log axis cannot show 0: seconds without attempts are left out
				if (attempts.get(second) > 0) {
					x.add(second);
					y.add(attempts.get(second));
				}
			}
			XYSeries plotted = chart.addSeries(name, x, y);
			plotted.setMarker(markers.get(chart.getSeriesMap().size() - 1));
		});
		return chart;
	}

	static XYChart sharedBucket() {
		SharedBucketSimulation.Result result = ChartData.sharedBucketScenario().run();
		XYChart chart = chart("Three controllers sharing a manager bucket of 10 qps, burst 20", "seconds",
				"reconciles started per second / tokens");
		result.admissions().forEach((name, counts) -> {
			List<Integer> x = new ArrayList<>();
			for (int second = 0; second < counts.size(); second++) {
				x.add(second);
			}
			chart.addSeries(name, x, counts).setMarker(SeriesMarkers.NONE);
		});
		List<Double> x = new ArrayList<>();
		for (int i = 0; i < result.tokens().size(); i++) {
			x.add(i * result.sampleStep().toNanos() / 1e9);
		}
		chart.addSeries("manager bucket tokens (below 0: debt)", x, result.tokens()).setMarker(SeriesMarkers.NONE);
		return chart;
	}

	private static XYChart chart(String title, String xTitle, String yTitle) {
		XYChart chart = new XYChartBuilder().width(WIDTH)
			.height(HEIGHT)
			.title(title)
			.xAxisTitle(xTitle)
			.yAxisTitle(yTitle)
			.build();
		chart.getStyler().setLegendPosition(LegendPosition.InsideNE);
		chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
		return chart;
	}

	private static void save(XYChart chart, Path file) throws IOException {
		BitmapEncoder.saveBitmap(chart, file.toString(), BitmapFormat.PNG);
	}

}
