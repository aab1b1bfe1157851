package dev.kubereconciler.sharding;

import java.nio.charset.StandardCharsets;

import dev.kubereconciler.reconcile.Request;

/**
 * Maps a reconcile key to one of a fixed number of partitions with FNV-1a 64 over the
 * UTF-8 bytes of its {@code namespace/name} key.
 *
 * <p>
 * The function is part of the wire contract between replicas of different versions during
 * a rolling update, so it must never change; a golden table in the tests pins it.
 */
public final class Partitioner {

	private static final long FNV_OFFSET_BASIS = 0xcbf29ce484222325L;

	private static final long FNV_PRIME = 0x100000001b3L;

	private final int partitions;

	/**
	 * Create a partitioner.
	 * @param partitions the number of partitions, at least 1
	 */
	public Partitioner(int partitions) {
		if (partitions < 1) {
			throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
		}
		this.partitions = partitions;
	}

	public int partitions() {
		return this.partitions;
	}

	/**
	 * Return the partition of a key.
	 * @param request the key
	 * @return the partition, from 0 to {@code partitions - 1}
	 */
	public int partitionOf(Request request) {
		return partitionOf(request.key());
	}

	/**
	 * Return the partition of a {@code namespace/name} (or cluster-scoped {@code name})
	 * key.
	 * @param key the key
	 * @return the partition, from 0 to {@code partitions - 1}
	 */
	public int partitionOf(String key) {
		return (int) Long.remainderUnsigned(fnv1a64(key.getBytes(StandardCharsets.UTF_8)), this.partitions);
	}

	/**
	 * Return the FNV-1a 64 hash of some bytes.
	 * @param bytes the bytes
	 * @return the hash, as an unsigned 64-bit value held in a {@code long}
	 */
	static long fnv1a64(byte[] bytes) {
		long hash = FNV_OFFSET_BASIS;
		for (byte b : bytes) {
			hash ^= (b & 0xff);
			hash *= FNV_PRIME;
		}
		return hash;
	}

}
