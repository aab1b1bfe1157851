package dev.kubereconciler.reliability;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Reads the journal that the application instances of a multi-process scenario append to
 * ({@link ReplicaJvm.Journal}): one line per fact,
 * {@code <replica> <fact> <name> <System.nanoTime()>}. The {@link ShardReplica} facts are
 * {@code identity}, {@code start} or {@code end} of a reconcile of the ConfigMap
 * {@code name}, or {@code acquire}, {@code release} or {@code lost} of the partition
 * {@code name}; the leader election scenarios journal {@code leading} too. All processes
 * of one machine share the monotonic clock, so the times compare across them.
 */
final class ShardJournal {

	private final Path file;

	ShardJournal(Path file) {
		this.file = file;
	}

	Path file() {
		return this.file;
	}

	/**
	 * Return the facts, ordered by time.
	 * @param replica only this replica's, or {@code null} for all
	 * @param fact only this kind, or {@code null} for all
	 * @return the facts
	 */
	List<Fact> facts(String replica, String fact) throws IOException {
		List<Fact> facts = new ArrayList<>();
		if (!Files.exists(this.file)) {
			return facts;
		}
		String content = Files.readString(this.file);
		// a line still being appended by a replica is left for the next read
		String[] lines = content.substring(0, content.lastIndexOf('\n') + 1).split("\n");
		for (String line : lines) {
			String[] parts = line.split(" ");
			if (parts.length == 4 && (replica == null || parts[0].equals(replica))
					&& (fact == null || parts[1].equals(fact))) {
				facts.add(new Fact(parts[0], parts[1], parts[2], Long.parseLong(parts[3])));
			}
		}
		facts.sort(Comparator.comparingLong(Fact::nanos));
		return facts;
	}

	String identity(String replica) throws IOException {
		List<Fact> facts = facts(replica, "identity");
		return facts.isEmpty() ? null : facts.get(0).name();
	}

	/**
	 * Return the names whose reconcile ended at or after a time.
	 * @param replica only this replica's reconciles, or {@code null} for all
	 * @param since the time
	 * @return the names
	 */
	Set<String> reconciledSince(String replica, long since) throws IOException {
		return facts(replica, "end").stream()
			.filter((fact) -> fact.nanos() >= since)
			.map(Fact::name)
			.collect(Collectors.toSet());
	}

	/**
	 * Return the names without a reconcile that started after their write was sent.
	 * @param sent when the write of each was sent, by name
	 * @return the names
	 */
	List<String> unreconciledSince(Map<String, Long> sent) throws IOException {
		Map<String, Long> lastStart = new HashMap<>();
		facts(null, "start").forEach((fact) -> lastStart.merge(fact.name(), fact.nanos(), Math::max));
		List<String> missing = new ArrayList<>();
		sent.forEach((name, at) -> {
			if (lastStart.getOrDefault(name, Long.MIN_VALUE) < at) {
				missing.add(name);
			}
		});
		return missing;
	}

	/**
	 * Return the partitions a replica holds now, by its journal.
	 * @param replica the replica
	 * @return the partitions
	 */
	Set<Integer> partitionsHeld(String replica) throws IOException {
		Set<Integer> held = new TreeSet<>();
		partitionsAt(facts(replica, null), Long.MAX_VALUE).getOrDefault(replica, Set.of())
			.forEach((partition) -> held.add(Integer.parseInt(partition)));
		return held;
	}

	/**
	 * Return how many partitions each replica holds now, by the journal.
	 * @return the counts by replica, without replicas that hold none
	 */
	Map<String, Integer> held() throws IOException {
		return heldAt(facts(null, null), Long.MAX_VALUE);
	}

	/**
	 * Return how many partitions each replica held at a time.
	 * @param facts the facts, ordered by time
	 * @param at the time
	 * @return the counts by replica, without replicas that held none
	 */
	static Map<String, Integer> heldAt(List<Fact> facts, long at) {
		Map<String, Integer> counts = new TreeMap<>();
		partitionsAt(facts, at).forEach((replica, partitions) -> {
			if (!partitions.isEmpty()) {
				counts.put(replica, partitions.size());
			}
		});
		return counts;
	}

	private static Map<String, Set<String>> partitionsAt(List<Fact> facts, long at) {
		Map<String, Set<String>> held = new TreeMap<>();
		for (Fact fact : facts) {
			if (fact.nanos() > at) {
				break;
			}
			if (fact.fact().equals("acquire")) {
				held.computeIfAbsent(fact.replica(), (replica) -> new HashSet<>()).add(fact.name());
			}
			else if (fact.fact().equals("release") || fact.fact().equals("lost")) {
				held.computeIfAbsent(fact.replica(), (replica) -> new HashSet<>()).remove(fact.name());
			}
		}
		return held;
	}

	/**
	 * Return whether the given replicas hold every partition between them, each
	 * {@code floor(P/N)} or {@code ceil(P/N)}.
	 * @param held the counts by replica
	 * @param replicas the replicas
	 * @param partitions the number of partitions
	 * @return whether the holdings are balanced over exactly these replicas
	 */
	static boolean balanced(Map<String, Integer> held, Set<String> replicas, int partitions) {
		int floor = partitions / replicas.size();
		int ceil = floor + ((partitions % replicas.size() != 0) ? 1 : 0);
		return held.keySet().equals(replicas) && held.values().stream().mapToInt(Integer::intValue).sum() == partitions
				&& held.values().stream().allMatch((count) -> count == floor || count == ceil);
	}

	/**
	 * Return when the holdings last became balanced over the given replicas, at or after
	 * a time, and stayed so to the end of the journal.
	 * @param facts the facts, ordered by time
	 * @param replicas the replicas
	 * @param partitions the number of partitions
	 * @param from the time to look from
	 * @return the time, or -1 if they are not balanced at the end
	 */
	static long balancedSince(List<Fact> facts, Set<String> replicas, int partitions, long from) {
		long since = -1;
		for (Fact fact : facts) {
			if (fact.nanos() < from || !isHold(fact)) {
				continue;
			}
			boolean balanced = balanced(heldAt(facts, fact.nanos()), replicas, partitions);
			if (balanced && since < 0) {
				since = fact.nanos();
			}
			else if (!balanced) {
				since = -1;
			}
		}
		if (since < 0 && balanced(heldAt(facts, Long.MAX_VALUE), replicas, partitions)) {
			return from;
		}
		return since;
	}

	/**
	 * Return each replica's holding intervals of each partition.
	 * @param facts the facts, ordered by time
	 * @param ends when a replica that was killed stopped, by replica; its open intervals
	 * end then, the others' at the end of time
	 * @return the intervals
	 */
	static List<Holding> holdings(List<Fact> facts, Map<String, Long> ends) {
		List<Holding> holdings = new ArrayList<>();
		Map<String, Long> open = new HashMap<>();
		for (Fact fact : facts) {
			String id = fact.replica() + " " + fact.name();
			if (fact.fact().equals("acquire")) {
				open.put(id, fact.nanos());
			}
			else if ((fact.fact().equals("release") || fact.fact().equals("lost")) && open.containsKey(id)) {
				holdings.add(new Holding(fact.replica(), Integer.parseInt(fact.name()), open.remove(id), fact.nanos(),
						fact.fact().equals("lost")));
			}
		}
		open.forEach((id, from) -> {
			String[] parts = id.split(" ", 2);
			holdings.add(new Holding(parts[0], Integer.parseInt(parts[1]), from,
					ends.getOrDefault(parts[0], Long.MAX_VALUE), false));
		});
		return holdings;
	}

	/**
	 * Find partitions held by two replicas at intersecting times.
	 * @param holdings the holding intervals
	 * @return one description per intersecting pair
	 */
	static List<String> doubleHoldings(List<Holding> holdings) {
		List<String> found = new ArrayList<>();
		for (int i = 0; i < holdings.size(); i++) {
			for (int j = i + 1; j < holdings.size(); j++) {
				Holding a = holdings.get(i);
				Holding b = holdings.get(j);
				if (a.partition() == b.partition() && !a.replica().equals(b.replica()) && a.from() < b.to()
						&& b.from() < a.to()) {
					found.add("partition " + a.partition() + ": " + a + " and " + b);
				}
			}
		}
		return found;
	}

	/**
	 * Return whether a replica acquired a partition after one time and still held it at
	 * another, by its own journal.
	 * @param facts the facts, ordered by time
	 * @param replica the replica
	 * @param partition the partition
	 * @param since the time after which it must have acquired it
	 * @param at the time
	 * @return whether its last hold fact for the partition in {@code (since, at]} is an
	 * {@code acquire}
	 */
	static boolean acquiredSince(List<Fact> facts, String replica, int partition, long since, long at) {
		String last = null;
		String name = String.valueOf(partition);
		for (Fact fact : facts) {
			if (fact.nanos() > at) {
				break;
			}
			if (fact.nanos() > since && isHold(fact) && fact.replica().equals(replica) && fact.name().equals(name)) {
				last = fact.fact();
			}
		}
		return "acquire".equals(last);
	}

	/**
	 * Pair every start with the next end of the same replica and key; a start without an
	 * end (a killed replica's last reconcile) runs until the end of time.
	 * @param facts the facts, ordered by time
	 * @return the reconciles
	 */
	static List<Reconcile> reconciles(List<Fact> facts) {
		List<Reconcile> reconciles = new ArrayList<>();
		Map<String, Long> open = new HashMap<>();
		for (Fact fact : facts) {
			String id = fact.replica() + " " + fact.name();
			if (fact.fact().equals("start")) {
				open.put(id, fact.nanos());
			}
			else if (fact.fact().equals("end") && open.containsKey(id)) {
				reconciles.add(new Reconcile(fact.replica(), fact.name(), open.remove(id), fact.nanos()));
			}
		}
		open.forEach((id, start) -> {
			String[] parts = id.split(" ", 2);
			reconciles.add(new Reconcile(parts[0], parts[1], start, Long.MAX_VALUE));
		});
		return reconciles;
	}

	/**
	 * Find pairs of reconciles of one key on two replicas at intersecting times.
	 * @param reconciles the reconciles
	 * @return the intersecting pairs
	 */
	static List<Reconcile[]> overlaps(List<Reconcile> reconciles) {
		Map<String, List<Reconcile>> byName = reconciles.stream().collect(Collectors.groupingBy(Reconcile::name));
		List<Reconcile[]> overlapping = new ArrayList<>();
		byName.values().forEach((list) -> {
			for (int i = 0; i < list.size(); i++) {
				for (int j = i + 1; j < list.size(); j++) {
					Reconcile a = list.get(i);
					Reconcile b = list.get(j);
					if (!a.replica().equals(b.replica()) && a.start() < b.end() && b.start() < a.end()) {
						overlapping.add(new Reconcile[] { a, b });
					}
				}
			}
		});
		return overlapping;
	}

	private static boolean isHold(Fact fact) {
		return fact.fact().equals("acquire") || fact.fact().equals("release") || fact.fact().equals("lost");
	}

	static String seconds(long nanos) {
		return String.format("%.2f s", nanos / 1e9);
	}

	record Fact(String replica, String fact, String name, long nanos) {
	}

	record Holding(String replica, int partition, long from, long to, boolean lost) {
	}

	record Reconcile(String replica, String name, long start, long end) {
	}

}
