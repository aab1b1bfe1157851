package dev.kubereconciler.sample;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;

import dev.kubereconciler.test.deploy.Replica;

/**
 * Who leads, polled from each replica's own metrics several times a second, with every
 * change of a replica's answer kept and the moments two replicas said they led at once.
 */
final class SoakLeaders implements Runnable {

	private final SoakReplicas replicas;

	private final Map<Replica, Boolean> leading = new HashMap<>();

	private final List<Change> changes = new ArrayList<>();

	private final List<String> twoLeaders = new ArrayList<>();

	SoakLeaders(SoakReplicas replicas) {
		this.replicas = replicas;
	}

	@Override
	public void run() {
		Map<Replica, Boolean> now = new HashMap<>();
		for (Replica replica : this.replicas.replicas()) {
			Boolean leads = this.replicas.leads(replica);
			// a replica that does not answer (killed, restarting) does not lead
			now.put(replica, Boolean.TRUE.equals(leads));
		}
		Instant at = Instant.now();
		synchronized (this) {
			now.forEach((replica, leads) -> {
				Boolean before = this.leading.put(replica, leads);
				if (!leads.equals(before)) {
					this.changes.add(new Change(at, this.replicas.name(replica), leads));
				}
			});
			List<String> leaders = now.entrySet()
				.stream()
				.filter(Map.Entry::getValue)
				.map((entry) -> this.replicas.name(entry.getKey()))
				.sorted()
				.toList();
			if (leaders.size() > 1) {
				this.twoLeaders.add(at + " " + leaders);
			}
		}
	}

	synchronized Optional<Replica> leader() {
		return this.leading.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).findFirst();
	}

	synchronized boolean leads(Replica replica) {
		return Boolean.TRUE.equals(this.leading.get(replica));
	}

	synchronized List<Change> changes() {
		return List.copyOf(this.changes);
	}

	synchronized List<String> twoLeaders() {
		return List.copyOf(this.twoLeaders);
	}

	Replica awaitLeader(Duration timeout) {
		try {
			return Awaitility.await("a leader")
				.atMost(timeout)
				.pollInterval(Duration.ofMillis(100))
				.until(this::leader, Optional::isPresent)
				.orElseThrow();
		}
		catch (ConditionTimeoutException ex) {
			throw new IllegalStateException("No replica leads after " + timeout.toSeconds() + " s", ex);
		}
	}

	/**
	 * Wait until the condition holds, and return how long that took, or {@code null} if
	 * it did not within the timeout.
	 */
	static Duration timeUntil(java.util.concurrent.Callable<Boolean> condition, Instant from, Duration timeout) {
		Duration left = timeout.minus(Duration.between(from, Instant.now()));
		try {
			Awaitility.await()
				.atMost(left.isNegative() ? Duration.ofMillis(1) : left.plusMillis(1))
				.pollInterval(Duration.ofMillis(100))
				.ignoreExceptions()
				.until(condition);
			return Duration.between(from, Instant.now());
		}
		catch (ConditionTimeoutException ex) {
			return null;
		}
	}

	/**
	 * A replica's answer changed.
	 *
	 * @param at when the poll saw it
	 * @param replica the replica's name
	 * @param leads whether it leads now
	 */
	record Change(Instant at, String replica, boolean leads) {

	}

}
