package dev.kubereconciler.benchmarks;

import java.util.Collection;

import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import dev.kubereconciler.ratelimit.RateLimiter;
import dev.kubereconciler.reconcile.Request;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks that the benchmarks measure what they claim to, on tiny inputs; never their
 * speed.
 */
class BenchmarkHarnessTests {

	private static final int KEYS = 2_000;

	@Test
	void ourControllerReconcilesEveryKey() throws InterruptedException {
		for (String limiter : new String[] { "default", "none" }) {
			DispatchBenchmark.Work work = work();
			DispatchBenchmark.Ours ours = new DispatchBenchmark.Ours();
			ours.limiter = limiter;
			ours.setUp(work);
			try {
				assertThat(ours.controller.queue().depth()).isEqualTo(KEYS);
				new DispatchBenchmark().ours(work, ours);
			}
			finally {
				ours.tearDown();
			}
		}
	}

	@Test
	void clientJavaControllerReconcilesEveryKey() throws InterruptedException {
		for (String limiter : new String[] { "default", "none" }) {
			DispatchBenchmark.Work work = work();
			DispatchBenchmark.ClientJava clientJava = new DispatchBenchmark.ClientJava();
			clientJava.limiter = limiter;
			clientJava.createInformerFactory();
			clientJava.setUp(work);
			try {
				assertThat(clientJava.queue.length()).isEqualTo(KEYS);
				new DispatchBenchmark().clientJava(work, clientJava);
			}
			finally {
				clientJava.tearDown();
			}
		}
	}

	@Test
	void bareExecutorRunsEveryKey() throws InterruptedException {
		DispatchBenchmark.Work work = work();
		DispatchBenchmark.Bare bare = new DispatchBenchmark.Bare();
		bare.setUp(work);
		try {
			new DispatchBenchmark().executor(work, bare);
		}
		finally {
			bare.tearDown();
		}
	}

	@Test
	@SuppressWarnings("unchecked")
	void memoryScenariosTrackEveryKey() {
		LimiterMemory memory = new LimiterMemory(KEYS);
		Request[] ours = Keys.ours("", KEYS);
		io.kubernetes.client.extended.controller.reconciler.Request[] clientJava = Keys.clientJava("", KEYS);
		assertThat(memory.scenarios()).hasSize(4).allSatisfy((scenario) -> {
			Object limiter = scenario.build().get();
			if (limiter instanceof RateLimiter<?> ourLimiter) {
				assertThat(ours)
					.allSatisfy((key) -> assertThat(((RateLimiter<Request>) ourLimiter).numRequeues(key)).isEqualTo(1));
			}
			else {
				io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<io.kubernetes.client.extended.controller.reconciler.Request> theirs = (io.kubernetes.client.extended.workqueue.ratelimiter.RateLimiter<io.kubernetes.client.extended.controller.reconciler.Request>) limiter;
				assertThat(clientJava).allSatisfy((key) -> assertThat(theirs.numRequeues(key)).isEqualTo(1));
			}
		});
	}

	@Test
	void recorderKeepsTheFirstReconcileOfEachConfigMap() {
		EndToEndLatency.Recorder recorder = new EndToEndLatency.Recorder(3);
		recorder.reconciled(EndToEndLatency.name(1));
		long first = recorder.firstReconcile(1);
		recorder.reconciled(EndToEndLatency.name(1));
		recorder.reconciled("unrelated");
		assertThat(first).isNotZero();
		assertThat(recorder.firstReconcile(1)).isEqualTo(first);
		assertThat(recorder.firstReconcile(0)).isZero();
	}

	@Test
	void oneLimiterBenchmarkRunsUnderJmh() throws Exception {
		// another JMH run on the machine must not make the build fail
		System.setProperty("jmh.ignoreLock", "true");
		Collection<RunResult> results = new Runner(
				new OptionsBuilder().include(LimiterBenchmark.class.getName() + ".bucketOursWhenNanos$")
					.param("rate", "controller-default")
					.forks(0)
					.warmupIterations(0)
					.measurementIterations(1)
					.measurementTime(TimeValue.milliseconds(100))
					.build())
			.run();
		assertThat(results).hasSize(1);
	}

	private static DispatchBenchmark.Work work() {
		DispatchBenchmark.Work work = new DispatchBenchmark.Work();
		work.keys = KEYS;
		work.setUp();
		return work;
	}

}
