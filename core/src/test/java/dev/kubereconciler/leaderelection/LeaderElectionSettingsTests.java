package dev.kubereconciler.leaderelection;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link LeaderElectionSettings}.
 */
class LeaderElectionSettingsTests {

	@Test
	void followersAreAWarmStandbyByDefault() {
		assertThat(LeaderElectionSettings.of("lease", "ops", "me").warmup()).isTrue();
		assertThat(new LeaderElectionSettings("lease", "ops", "me",
				new LeaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500)))
			.warmup()).isTrue();
	}

	@Test
	void withWarmupChangesOnlyTheStandby() {
		LeaderElectionSettings warm = new LeaderElectionSettings("lease", "ops", "me",
				new LeaseTiming(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(500)));
		LeaderElectionSettings cold = warm.withWarmup(false);
		assertThat(cold.warmup()).isFalse();
		assertThat(cold).usingRecursiveComparison().ignoringFields("warmup").isEqualTo(warm);
		assertThat(cold.withWarmup(true)).isEqualTo(warm);
	}

	@Test
	void timingsAreStillCheckedForAColdStandby() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LeaderElectionSettings("lease", "ops", "me",
					new LeaseTiming(Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofMillis(500)), false))
			.withMessageContaining("renewDeadline");
	}

}
