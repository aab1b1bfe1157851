package dev.kubereconciler.metrics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link StandardProcessMetrics}: the values read from a {@code /proc/self}
 * laid out as Linux lays it out, and the names left to another collector or a Micrometer
 * meter, in a scrape of a {@link PrometheusMeterRegistry}.
 */
class StandardProcessMetricsTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	@Test
	void memoryAndFileDescriptorsAreReadFromProcSelf(@TempDir Path proc) throws IOException {
		Files.writeString(proc.resolve("status"),
				"Name:\tjava\nVmPeak:\t 9000 kB\nVmSize:\t 8192 kB\nVmRSS:\t 2048 kB\nThreads:\t12\n");
		Files.writeString(proc.resolve("limits"), """
				Limit                     Soft Limit           Hard Limit           Units
				Max processes             unlimited            unlimited            processes
				Max open files            4096                 1048576              files
				""");
		Files.createDirectories(proc.resolve("fd"));
		for (int fd = 0; fd < 5; fd++) {
			Files.createFile(proc.resolve("fd").resolve(Integer.toString(fd)));
		}
		this.registry.getPrometheusRegistry()
			.register(new StandardProcessMetrics(this.registry, StandardProcessMetrics.NAMES, proc));
		String scrape = this.registry.scrape();
		assertThat(scrape)
			.contains("# TYPE process_resident_memory_bytes gauge\nprocess_resident_memory_bytes 2097152.0\n")
			.contains("# TYPE process_virtual_memory_bytes gauge\nprocess_virtual_memory_bytes 8388608.0\n")
			.contains("# TYPE process_open_fds gauge\nprocess_open_fds 5.0\n")
			.contains("# TYPE process_max_fds gauge\nprocess_max_fds 4096.0\n")
			.contains("# TYPE process_cpu_seconds_total counter\n")
			.contains("# TYPE process_start_time_seconds gauge\n");
		assertThat(value(scrape, "process_start_time_seconds"))
			.isEqualTo(ManagementFactory.getRuntimeMXBean().getStartTime() / 1000.0);
	}

	@Test
	void withoutProcSelfTheMemorySeriesAreAbsent(@TempDir Path proc) {
		this.registry.getPrometheusRegistry()
			.register(new StandardProcessMetrics(this.registry, StandardProcessMetrics.NAMES, proc.resolve("none")));
		assertThat(this.registry.scrape()).doesNotContain("process_resident_memory_bytes")
			.doesNotContain("process_virtual_memory_bytes")
			.contains("process_cpu_seconds_total ");
	}

	@Test
	void aNameThatAnotherCollectorPublishesIsLeftToIt() {
		this.registry.getPrometheusRegistry()
			.register(() -> MetricSnapshots.of(GaugeSnapshot.builder()
				.name("process_open_fds")
				.help("Number of open file descriptors.")
				.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(42).build())
				.build()));
		assertThat(StandardProcessMetrics.register(this.registry.getPrometheusRegistry(), this.registry))
			.containsExactly("process_open_fds");
		String scrape = this.registry.scrape();
		assertThat(scrape.lines().filter((line) -> line.startsWith("process_open_fds ")))
			.containsExactly("process_open_fds 42.0");
		assertThat(scrape).contains("process_resident_memory_bytes ");
	}

	@Test
	void aNameThatAMicrometerMeterPublishesIsLeftToItEvenWhenBoundLater() {
		assertThat(StandardProcessMetrics.register(this.registry.getPrometheusRegistry(), this.registry)).isEmpty();
		assertThat(this.registry.scrape().lines().filter((line) -> line.startsWith("process_start_time_seconds ")))
			.hasSize(1);
		// as Micrometer's UptimeMetrics publishes it
		TimeGauge.builder("process.start.time", () -> 1_000_000L, TimeUnit.MILLISECONDS).register(this.registry);
		assertThat(this.registry.scrape().lines().filter((line) -> line.startsWith("process_start_time_seconds ")))
			.containsExactly("process_start_time_seconds 1000.0");
	}

	private static double value(String scrape, String name) {
		return scrape.lines()
			.filter((line) -> line.startsWith(name + " "))
			.map((line) -> Double.parseDouble(line.substring(name.length() + 1)))
			.findFirst()
			.orElseThrow();
	}

}
