package dev.kubereconciler.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reconciles each replica journaled in its log (core's {@code ReconcileWorker} at
 * debug: when each reconcile of a key started and ended), and the keys that two replicas
 * reconciled at once.
 */
final class ReconcileJournal {

	private static final Pattern LINE = Pattern
		.compile("^(\\S+)\\s+DEBUG .*Reconcile of (\\S+) by controller '([^']+)' (started|ended)$");

	private final List<Run> runs = new ArrayList<>();

	private int unfinished;

	/**
	 * Read one replica's log.
	 * @param replica the replica's name in the report
	 * @param log its log, across restarts
	 */
	void read(String replica, Path log) {
		Map<String, Instant> open = new HashMap<>();
		try {
			for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
				if (line.startsWith("--- ")) {
					// the process restarted: what it had in flight ended with it
					this.unfinished += open.size();
					open.clear();
					continue;
				}
				Matcher matcher = LINE.matcher(line);
				if (!matcher.matches()) {
					continue;
				}
				Instant at = instant(matcher.group(1));
				String key = matcher.group(3) + " " + matcher.group(2);
				if (matcher.group(4).equals("started")) {
					open.put(key, at);
				}
				else {
					Instant started = open.remove(key);
					if (started != null) {
						this.runs.add(new Run(key, replica, started, at));
					}
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		this.unfinished += open.size();
	}

	int reconciles() {
		return this.runs.size();
	}

	int unfinished() {
		return this.unfinished;
	}

	/**
	 * Return each pair of reconciles of one key by two replicas whose times overlap.
	 * @return a line for each
	 */
	List<String> overlaps() {
		Map<String, List<Run>> byKey = new HashMap<>();
		this.runs.forEach((run) -> byKey.computeIfAbsent(run.key(), (key) -> new ArrayList<>()).add(run));
		List<String> overlaps = new ArrayList<>();
		for (List<Run> runs : byKey.values()) {
			runs.sort(Comparator.comparing(Run::started));
			for (int i = 0; i < runs.size(); i++) {
				for (int j = i + 1; j < runs.size() && runs.get(j).started().isBefore(runs.get(i).ended()); j++) {
					if (!runs.get(j).replica().equals(runs.get(i).replica())) {
						overlaps.add(runs.get(i) + " and " + runs.get(j));
					}
				}
			}
		}
		return overlaps;
	}

	private static Instant instant(String text) {
		try {
			return OffsetDateTime.parse(text).toInstant();
		}
		catch (DateTimeParseException ex) {
			return Instant.parse(text);
		}
	}

	record Run(String key, String replica, Instant started, Instant ended) {

		@Override
		public String toString() {
			return this.key + " by " + this.replica + " from " + this.started + " to " + this.ended;
		}

	}

}
