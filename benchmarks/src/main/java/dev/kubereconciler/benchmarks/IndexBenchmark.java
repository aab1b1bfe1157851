package dev.kubereconciler.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.impl.DefaultSharedIndexInformer;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watchable;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import dev.kubereconciler.cache.FieldIndex;
import dev.kubereconciler.internal.cache.CacheView;
import dev.kubereconciler.reconcile.Request;

/**
 * A lookup by a declared index against the scan a mapper makes without one: among
 * {@code size} cached objects (ConfigMaps standing for Backups, each naming one of
 * {@code size / 10} Secrets in its data), find the ten that name one Secret. {@code scan}
 * is what a {@code RequestMapper} over the lister does; {@code viewScan} is the context's
 * {@code list} with a filter; {@code indexLookup} is {@code CacheView.byIndex}, behind
 * {@code ReconcileContext.listByIndex} and {@code mapsByIndex}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@State(Scope.Benchmark)
public class IndexBenchmark {

	private static final String NAMESPACE = "team-a";

	@Param({ "10000" })
	public int size;

	private SharedIndexInformer<V1ConfigMap> informer;

	private CacheView view;

	private FieldIndex<V1ConfigMap> index;

	private String secret;

	@Setup
	public void fill() {
		this.informer = new DefaultSharedIndexInformer<>(V1ConfigMap.class, new NoListerWatcher(), 0);
		this.index = FieldIndex.of(V1ConfigMap.class, "secret",
				(configMap) -> NAMESPACE + "/" + configMap.getData().get("secret"));
		Function<V1ConfigMap, List<String>> values = (configMap) -> this.index.valuesOf(configMap);
		this.informer.addIndexers(Map.of("secret", values));
		int secrets = Math.max(1, this.size / 10);
		for (int i = 0; i < this.size; i++) {
			this.informer.getIndexer()
				.add(new V1ConfigMap()
					.metadata(new V1ObjectMeta().namespace(NAMESPACE).name("backup-" + i).resourceVersion("1"))
					.data(Map.of("secret", "secret-" + (i % secrets), "schedule", "0 3 * * *")));
		}
		this.view = new CacheView(this.informer, System::nanoTime);
		this.secret = "secret-" + (secrets / 2);
	}

	@Benchmark
	public List<Request> scan() {
		List<Request> keys = new ArrayList<>();
		for (V1ConfigMap configMap : this.informer.getIndexer().list()) {
			if (this.secret.equals(configMap.getData().get("secret"))) {
				keys.add(new Request(NAMESPACE, configMap.getMetadata().getName()));
			}
		}
		return keys;
	}

	@Benchmark
	public List<KubernetesObject> viewScan() {
		return this.view.list(null, (object) -> this.secret.equals(((V1ConfigMap) object).getData().get("secret")));
	}

	@Benchmark
	public List<KubernetesObject> indexLookup() {
		return this.view.byIndex(this.index, NAMESPACE + "/" + this.secret);
	}

	/**
	 * The informer is filled by hand and never started.
	 */
	private static final class NoListerWatcher implements ListerWatcher<V1ConfigMap, V1ConfigMapList> {

		@Override
		public V1ConfigMapList list(CallGeneratorParams params) {
			throw new UnsupportedOperationException();
		}

		@Override
		public Watchable<V1ConfigMap> watch(CallGeneratorParams params) {
			throw new UnsupportedOperationException();
		}

	}

}
