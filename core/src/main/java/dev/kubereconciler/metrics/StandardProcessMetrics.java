package dev.kubereconciler.metrics;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import com.sun.management.UnixOperatingSystemMXBean;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.NamingConvention;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import org.jspecify.annotations.Nullable;

/**
 * Prometheus' standard process metrics, as the Go and Java Prometheus clients export
 * them: {@code process_cpu_seconds_total}, {@code process_resident_memory_bytes},
 * {@code process_virtual_memory_bytes}, {@code process_open_fds}, {@code process_max_fds}
 * and {@code process_start_time_seconds}. A Prometheus collector, registered in the
 * Prometheus registry of a {@code PrometheusMeterRegistry}; a name that a Micrometer
 * meter of that registry publishes already (Micrometer's {@code UptimeMetrics} publishes
 * {@code process_start_time_seconds}) is left to it, at every scrape. On Linux memory and
 * file descriptors are read from {@code /proc/self}; elsewhere the memory series are
 * absent and the file descriptors come from the JVM.
 */
public final class StandardProcessMetrics implements MultiCollector {

	static final String CPU = "process_cpu_seconds";

	static final String RESIDENT = "process_resident_memory_bytes";

	static final String VIRTUAL = "process_virtual_memory_bytes";

	static final String OPEN_FDS = "process_open_fds";

	static final String MAX_FDS = "process_max_fds";

	static final String START_TIME = "process_start_time_seconds";

	static final List<String> NAMES = List.of(CPU, RESIDENT, VIRTUAL, OPEN_FDS, MAX_FDS, START_TIME);

	private final MeterRegistry meters;

	private final List<String> names;

	private final Path procSelf;

	private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();

	/**
	 * Create the collector.
	 * @param meters the Micrometer registry whose Prometheus registry the collector is
	 * registered in, whose meters take precedence
	 */
	public StandardProcessMetrics(MeterRegistry meters) {
		this(meters, NAMES, Path.of("/proc/self"));
	}

	StandardProcessMetrics(MeterRegistry meters, List<String> names, Path procSelf) {
		this.meters = meters;
		this.names = List.copyOf(names);
		this.procSelf = procSelf;
	}

	/**
	 * Register the metrics in a Prometheus registry, leaving out every name that a
	 * collector registered there already publishes (such as Prometheus' own
	 * {@code ProcessMetrics}); the registry's Micrometer meters are judged at every
	 * scrape instead, as binders may be bound later.
	 * @param prometheus the Prometheus registry of the Micrometer registry
	 * @param meters the Micrometer registry
	 * @return the names left out, empty when all six are registered
	 */
	public static List<String> register(PrometheusRegistry prometheus, MeterRegistry meters) {
		Set<String> taken = new HashSet<>();
		prometheus.scrape(NAMES::contains).forEach((snapshot) -> taken.add(snapshot.getMetadata().getPrometheusName()));
		taken.removeAll(micrometerNames(meters));
		List<String> names = NAMES.stream().filter((name) -> !taken.contains(name)).toList();
		if (!names.isEmpty()) {
			prometheus.register(new StandardProcessMetrics(meters, names, Path.of("/proc/self")));
		}
		return NAMES.stream().filter(taken::contains).toList();
	}

	@Override
	public List<String> getPrometheusNames() {
		return this.names;
	}

	@Override
	public MetricSnapshots collect() {
		Set<String> taken = micrometerNames(this.meters);
		NAMES.stream().filter((name) -> !this.names.contains(name)).forEach(taken::add);
		List<MetricSnapshot> snapshots = new ArrayList<>();
		if (!taken.contains(CPU) && this.os instanceof com.sun.management.OperatingSystemMXBean process) {
			long nanos = process.getProcessCpuTime();
			if (nanos >= 0) {
				snapshots.add(CounterSnapshot.builder()
					.name(CPU)
					.help("Total user and system CPU time spent in seconds.")
					.unit(Unit.SECONDS)
					.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder()
						.value(Unit.nanosToSeconds(nanos))
						.build())
					.build());
			}
		}
		Status status = status();
		gauge(snapshots, taken, VIRTUAL, "Virtual memory size in bytes.", Unit.BYTES, status.virtualBytes());
		gauge(snapshots, taken, RESIDENT, "Resident memory size in bytes.", Unit.BYTES, status.residentBytes());
		gauge(snapshots, taken, OPEN_FDS, "Number of open file descriptors.", null, openFds());
		gauge(snapshots, taken, MAX_FDS, "Maximum number of open file descriptors.", null, maxFds());
		gauge(snapshots, taken, START_TIME, "Start time of the process since unix epoch in seconds.", Unit.SECONDS,
				Unit.millisToSeconds(ManagementFactory.getRuntimeMXBean().getStartTime()));
		return new MetricSnapshots(snapshots);
	}

	private static void gauge(List<MetricSnapshot> snapshots, Set<String> taken, String name, String help,
			@Nullable Unit unit, double value) {
		if (taken.contains(name) || Double.isNaN(value)) {
			return;
		}
		GaugeSnapshot.Builder builder = GaugeSnapshot.builder().name(name).help(help);
		if (unit != null) {
			builder.unit(unit);
		}
		snapshots.add(builder.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().value(value).build()).build());
	}

	// the names under which the registry's own meters are scraped, so that a binder bound
	// after this collector was registered still wins
	private static Set<String> micrometerNames(MeterRegistry meters) {
		NamingConvention convention = meters.config().namingConvention();
		Set<String> names = new HashSet<>();
		for (Meter meter : meters.getMeters()) {
			Meter.Id id = meter.getId();
			if (id.getName().startsWith("process")) {
				String name = convention.name(id.getName(), id.getType(), id.getBaseUnit());
				names.add(name.endsWith("_total") ? name.substring(0, name.length() - "_total".length()) : name);
			}
		}
		return names;
	}

	private Status status() {
		// as the Prometheus Java client reads them: VmSize and VmRSS, in kB
		double virtual = Double.NaN;
		double resident = Double.NaN;
		try (Stream<String> lines = Files.lines(this.procSelf.resolve("status"))) {
			for (String line : (Iterable<String>) lines::iterator) {
				if (line.startsWith("VmSize:")) {
					virtual = kiloBytes(line);
				}
				else if (line.startsWith("VmRSS:")) {
					resident = kiloBytes(line);
				}
			}
		}
		catch (IOException | RuntimeException ex) {
			// not Linux: no memory series
		}
		return new Status(virtual, resident);
	}

	private static double kiloBytes(String line) {
		String[] fields = line.substring(line.indexOf(':') + 1).trim().split("\\s+");
		return Unit.kiloBytesToBytes(Double.parseDouble(fields[0]));
	}

	private double openFds() {
		Path fds = this.procSelf.resolve("fd");
		if (Files.isDirectory(fds)) {
			try (Stream<Path> entries = Files.list(fds)) {
				return entries.count();
			}
			catch (IOException | RuntimeException ex) {
				// read from the JVM below
			}
		}
		return (this.os instanceof UnixOperatingSystemMXBean unix) ? unix.getOpenFileDescriptorCount() : Double.NaN;
	}

	private double maxFds() {
		Path limits = this.procSelf.resolve("limits");
		if (Files.isReadable(limits)) {
			try (Stream<String> lines = Files.lines(limits)) {
				// "Max open files 1048576 1048576 files"
				String line = lines.filter((candidate) -> candidate.startsWith("Max open files"))
					.findFirst()
					.orElse(null);
				if (line != null) {
					String soft = line.substring("Max open files".length()).trim().split("\\s+")[0];
					return soft.equals("unlimited") ? Double.POSITIVE_INFINITY : Double.parseDouble(soft);
				}
			}
			catch (IOException | RuntimeException ex) {
				// read from the JVM below
			}
		}
		return (this.os instanceof UnixOperatingSystemMXBean unix) ? unix.getMaxFileDescriptorCount() : Double.NaN;
	}

	private record Status(double virtualBytes, double residentBytes) {
	}

}
