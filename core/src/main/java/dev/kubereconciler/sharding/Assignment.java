package dev.kubereconciler.sharding;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

/**
 * Which live member owns each partition: rendezvous (highest random weight) hashing with
 * bounded loads, so that every member owns {@code floor(P/N)} or {@code ceil(P/N)}
 * partitions.
 *
 * <p>
 * Plain rendezvous hashing gives each partition to the member with the highest weight for
 * it, which is stable but can be uneven by several partitions. Here every (partition,
 * member) pair is visited once, highest weight first, and the partition goes to the
 * member if it is still free and the member has room: {@code floor(P/N)} partitions each,
 * plus one more for the first {@code P mod N} members to reach it. The result is a pure
 * function of the member set and {@code P}: every replica that sees the same members
 * computes the same assignment, so it changes only when the membership does, and never
 * flaps.
 */
public final class Assignment {

	private final List<String> members;

	private final String[] owners;

	private Assignment(List<String> members, String[] owners) {
		this.members = members;
		this.owners = owners;
	}

	/**
	 * Compute the assignment of partitions to members.
	 * @param members the live members' identities, in any order; duplicates are ignored
	 * @param partitions the number of partitions
	 * @return the assignment; every partition unowned when there are no members
	 */
	public static Assignment compute(Collection<String> members, int partitions) {
		if (partitions < 1) {
			throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
		}
		List<String> sorted = List.copyOf(new TreeSet<>(members));
		String[] owners = new String[partitions];
		int n = sorted.size();
		if (n == 0) {
			return new Assignment(sorted, owners);
		}
		long[] pairs = new long[partitions * n];
		long[] weights = new long[partitions * n];
		Integer[] order = new Integer[partitions * n];
		for (int m = 0; m < n; m++) {
			byte[] member = sorted.get(m).getBytes(StandardCharsets.UTF_8);
			for (int p = 0; p < partitions; p++) {
				int i = m * partitions + p;
				pairs[i] = ((long) m << 32) | p;
				weights[i] = weight(member, p);
				order[i] = i;
			}
		}
		// highest weight first; ties (practically never) by member, then partition, so
		// the order is total
		Arrays.sort(order, (a, b) -> {
			int byWeight = Long.compareUnsigned(weights[b], weights[a]);
			return (byWeight != 0) ? byWeight : Long.compare(pairs[a], pairs[b]);
		});
		int floor = partitions / n;
		int extras = partitions % n;
		int[] counts = new int[n];
		int extrasTaken = 0;
		for (Integer i : order) {
			int m = (int) (pairs[i] >>> 32);
			int p = (int) pairs[i];
			if (owners[p] != null) {
				continue;
			}
			if (counts[m] < floor) {
				counts[m]++;
				owners[p] = sorted.get(m);
			}
			else if (counts[m] == floor && extrasTaken < extras) {
				counts[m]++;
				extrasTaken++;
				owners[p] = sorted.get(m);
			}
		}
		return new Assignment(sorted, owners);
	}

	/**
	 * The weight of a (member, partition) pair: FNV-1a 64 of the member's identity, a
	 * zero byte and the partition number, then a 64-bit finaliser so that members whose
	 * names differ only in their last characters still get independent weights.
	 */
	static long weight(byte[] member, int partition) {
		byte[] input = Arrays.copyOf(member, member.length + 5);
		input[member.length] = 0;
		input[member.length + 1] = (byte) (partition >>> 24);
		input[member.length + 2] = (byte) (partition >>> 16);
		input[member.length + 3] = (byte) (partition >>> 8);
		input[member.length + 4] = (byte) partition;
		long z = Partitioner.fnv1a64(input);
		z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
		z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
		return z ^ (z >>> 31);
	}

	/**
	 * Return the members the assignment was computed over, sorted.
	 * @return the members
	 */
	public List<String> members() {
		return this.members;
	}

	public int partitions() {
		return this.owners.length;
	}

	/**
	 * Return the member that owns a partition.
	 * @param partition the partition
	 * @return its owner, or {@code null} when there are no members
	 */
	public @Nullable String ownerOf(int partition) {
		return this.owners[partition];
	}

	/**
	 * Return the partitions a member owns.
	 * @param member the member's identity
	 * @return its partitions, ascending; empty if it is not a member
	 */
	public List<Integer> partitionsOf(String member) {
		List<Integer> result = new ArrayList<>();
		for (int p = 0; p < this.owners.length; p++) {
			if (Objects.equals(this.owners[p], member)) {
				result.add(p);
			}
		}
		return Collections.unmodifiableList(result);
	}

	/**
	 * Return how many partitions each member owns.
	 * @return the counts by member, sorted by identity
	 */
	public Map<String, Integer> counts() {
		Map<String, Integer> counts = new TreeMap<>();
		this.members.forEach((member) -> counts.put(member, 0));
		for (String owner : this.owners) {
			if (owner != null) {
				counts.merge(owner, 1, Integer::sum);
			}
		}
		return counts;
	}

}
