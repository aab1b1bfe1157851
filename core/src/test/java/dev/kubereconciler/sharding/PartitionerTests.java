package dev.kubereconciler.sharding;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.reconcile.Request;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link Partitioner}.
 */
class PartitionerTests {

	@Test
	void fnv1a64MatchesThePublishedTestVectors() {
		assertThat(Partitioner.fnv1a64(new byte[0])).isEqualTo(0xcbf29ce484222325L);
		assertThat(Partitioner.fnv1a64("a".getBytes(StandardCharsets.UTF_8))).isEqualTo(0xaf63dc4c8601ec8cL);
		assertThat(Partitioner.fnv1a64("foobar".getBytes(StandardCharsets.UTF_8))).isEqualTo(0x85944171f73967e8L);
	}

	@Test
	void partitionsOfTwentyKeysNeverChange() {
		// replicas of different versions must agree during a rolling update: never edit
		// this table
		Map<String, Integer> golden = new LinkedHashMap<>();
		golden.put("default/widget-0", 14);
		golden.put("default/widget-1", 1);
		golden.put("default/widget-2", 8);
		golden.put("default/widget-10", 3);
		golden.put("default/widget-999", 11);
		golden.put("kube-system/coredns", 23);
		golden.put("kube-system/kube-proxy", 31);
		golden.put("prod/orders-api", 13);
		golden.put("prod/orders-worker", 21);
		golden.put("staging/orders-api", 23);
		golden.put("team-a/config", 9);
		golden.put("team-b/config", 2);
		golden.put("ns/a", 30);
		golden.put("ns/b", 11);
		golden.put("node-1", 3);
		golden.put("node-2", 22);
		golden.put("my-cluster-role", 7);
		golden.put("tenant-7/db-primary", 3);
		golden.put("tenant-7/db-replica", 25);
		golden.put("\u00fcn\u00efcode/\u00f1ame", 9);
		Partitioner partitioner = new Partitioner(32);
		golden.forEach((key, partition) -> {
			assertThat(partitioner.partitionOf(key)).as(key).isEqualTo(partition);
			assertThat(partitioner.partitionOf(Request.fromKey(key))).as(key).isEqualTo(partition);
		});
	}

	@Test
	void partitionIsTheUnsignedHashModuloThePartitionCount() {
		Partitioner partitioner = new Partitioner(7);
		assertThat(partitioner.partitionOf("kube-system/kube-proxy")).isEqualTo(0);
		assertThat(partitioner.partitionOf("default/widget-2")).isEqualTo(6);
		assertThat(new Partitioner(1).partitionOf("anything")).isZero();
	}

	@Test
	void spreadsSequentialNamesEvenly() {
		Partitioner partitioner = new Partitioner(32);
		int[] counts = new int[32];
		for (int i = 0; i < 32_000; i++) {
			counts[partitioner.partitionOf(new Request("default", "widget-" + i))]++;
		}
		for (int count : counts) {
			assertThat(count).isBetween(800, 1200);
		}
	}

	@Test
	void rejectsFewerThanOnePartition() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Partitioner(0)).withMessageContaining("partitions");
	}

}
