package dev.kubereconciler.internal.cache;

import java.net.ConnectException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The backoff of a member cluster's informers while its API server does not answer, on a
 * manual clock: on top of client-java's reflector, which runs again a second after a
 * failure, the n-th retry in a row comes 1 s doubling to 30 s after the failure, and any
 * answer resets it.
 */
class ServerReachabilityTests {

	private static final CallGeneratorParams PARAMS = new CallGeneratorParams(false, null, null);

	private final ManualClock clock = ManualClock.advancingOnSleep();

	private final ServerReachability reachability = new ServerReachability(this.clock, Duration.ofSeconds(1),
			Duration.ofSeconds(30));

	private final Deque<ApiException> failures = new ArrayDeque<>();

	private final ListerWatcher<V1ConfigMap, V1ConfigMapList> listerWatcher = this.reachability
		.retrying(new ListerWatcher<>() {

			@Override
			public V1ConfigMapList list(CallGeneratorParams params) throws ApiException {
				ApiException failure = ServerReachabilityTests.this.failures.poll();
				if (failure != null) {
					throw failure;
				}
				return new V1ConfigMapList();
			}

			@Override
			public Watchable<V1ConfigMap> watch(CallGeneratorParams params) throws ApiException {
				throw new ApiException(new ConnectException("Connection refused"));
			}

		});

	@Test
	void retriesWhileTheServerDoesNotAnswerBackOffFromOneSecondDoublingTo30() {
		for (int i = 0; i < 8; i++) {
			this.failures.add(refused());
		}
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.listerWatcher.list(PARAMS));
		assertThat(this.reachability.isReachable()).isFalse();
		List<Duration> intervals = new ArrayList<>();
		for (int i = 0; i < 7; i++) {
			long before = this.clock.read();
			assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.listerWatcher.list(PARAMS));
			assertThat(this.reachability.isReachable()).isFalse();
			// plus the second that client-java's reflector waits before it runs again
			intervals.add(Duration.ofNanos(this.clock.read() - before).plusSeconds(1));
		}
		assertThat(intervals).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
				Duration.ofSeconds(8), Duration.ofSeconds(16), Duration.ofSeconds(30), Duration.ofSeconds(30));
	}

	@Test
	void anAnswerMakesTheServerReachableAndResetsTheBackoff() throws ApiException {
		this.failures.add(refused());
		this.failures.add(refused());
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.listerWatcher.list(PARAMS));
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.listerWatcher.list(PARAMS));
		assertThat(this.reachability.isReachable()).isFalse();
		long before = this.clock.read();
		this.listerWatcher.list(PARAMS);
		assertThat(Duration.ofNanos(this.clock.read() - before)).isEqualTo(Duration.ofSeconds(1));
		assertThat(this.reachability.isReachable()).isTrue();
		// a watch that finds no server makes it unreachable again; the next list is the
		// first retry
		assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.listerWatcher.watch(PARAMS));
		assertThat(this.reachability.isReachable()).isFalse();
		before = this.clock.read();
		this.listerWatcher.list(PARAMS);
		assertThat(this.clock.read()).isEqualTo(before);
		assertThat(this.reachability.isReachable()).isTrue();
	}

	@Test
	void anErrorStatusIsAnAnswerThatStillBacksOff() {
		this.failures.add(new ApiException(403, "Forbidden"));
		this.failures.add(new ApiException(403, "Forbidden"));
		this.failures.add(new ApiException(403, "Forbidden"));
		for (int i = 0; i < 3; i++) {
			assertThatExceptionOfType(ApiException.class).isThrownBy(() -> this.listerWatcher.list(PARAMS));
			assertThat(this.reachability.isReachable()).isTrue();
		}
		assertThat(Duration.ofNanos(this.clock.read())).isEqualTo(Duration.ofSeconds(1));
	}

	private static ApiException refused() {
		return new ApiException(new ConnectException("Connection refused"));
	}

}
