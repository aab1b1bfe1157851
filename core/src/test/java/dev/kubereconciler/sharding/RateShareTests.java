package dev.kubereconciler.sharding;

import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link RateShare}.
 */
class RateShareTests {

	@Test
	void sharesNeverAddUpToMoreThanTheClusterRate() {
		List<String> members = List.of("a", "b", "c");
		double qps = 0;
		int burst = 0;
		for (String member : members) {
			RateShare share = RateShare.of(10, 100, members, member);
			qps += share.qps();
			burst += share.burst();
			assertThat(share.qps()).isEqualTo(3.333333);
		}
		assertThat(qps).isLessThanOrEqualTo(10);
		assertThat(burst).isEqualTo(100);
	}

	@Test
	void leftOverBurstGoesToTheFirstMembersByIdentity() {
		List<String> members = List.of("c", "a", "b");
		assertThat(RateShare.of(30, 11, members, "a")).isEqualTo(new RateShare(10, 4));
		assertThat(RateShare.of(30, 11, members, "b")).isEqualTo(new RateShare(10, 4));
		assertThat(RateShare.of(30, 11, members, "c")).isEqualTo(new RateShare(10, 3));
	}

	@Test
	void aLoneMemberGetsTheWholeRate() {
		assertThat(RateShare.of(30, 30, List.of(), "a")).isEqualTo(new RateShare(30, 30));
	}

	@Test
	void everyMemberKeepsABurstOfOne() {
		assertThat(RateShare.of(2, 2, List.of("a", "b", "c"), "c")).isEqualTo(new RateShare(0.666666, 1));
	}

}
