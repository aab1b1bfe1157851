package dev.kubereconciler.internal.cache;

import java.time.Duration;
import java.util.Map;

import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.informer.SharedIndexInformer;
import io.kubernetes.client.informer.impl.DefaultSharedIndexInformer;
import io.kubernetes.client.openapi.models.V1ConfigMap;
import io.kubernetes.client.openapi.models.V1ConfigMapList;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.util.CallGeneratorParams;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.dependent.DependentLabels;
import dev.kubereconciler.time.ManualClock;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The order-dependent rules of the {@link CacheView}, with the informer's events
 * delivered by hand in each order in which the API server's answer to a write and the
 * watch can arrive: a written version lives only until the informer catches up or its
 * object is gone, and a deletion never removes a newer object of the same name.
 */
class CacheViewTests {

	private static final String KEY = "ns/child";

	private final ManualClock clock = new ManualClock();

	private final SharedIndexInformer<V1ConfigMap> informer = new DefaultSharedIndexInformer<>(V1ConfigMap.class,
			new Unused(), 0);

	private final CacheView view = new CacheView(this.informer, this.clock);

	@Test
	void writeAnsweredAfterTheObjectLeftTheWatchIsNotKept() {
		// the informer holds version 10; a reconcile removes the label the watch
		// selects on: the watch says DELETED with version 11 before the update's answer
		// (version 11) comes back
		informerAdds(configMap("uid-1", "10"));
		informerDeletes(configMap("uid-1", "11"));
		this.view.written(configMap("uid-1", "11"));
		assertThat(this.view.get(KEY)).isNull();
		assertThat(this.view.list(null, (object) -> true)).isEmpty();
		assertThat(this.view.writtenCount()).isZero();
	}

	@Test
	void writeAnsweredAfterItsObjectWasDeletedIsNotKept() {
		// created at 20, deleted by someone else at 21, the create's answer comes last
		informerAdds(configMap("uid-1", "20"));
		informerDeletes(configMap("uid-1", "21"));
		this.view.written(configMap("uid-1", "20"));
		assertThat(this.view.get(KEY)).isNull();
		assertThat(this.view.writtenCount()).isZero();
	}

	@Test
	void deletionAfterTheWriteDropsIt() {
		informerAdds(configMap("uid-1", "10"));
		this.view.written(configMap("uid-1", "11"));
		assertThat(this.view.get(KEY).getMetadata().getResourceVersion()).isEqualTo("11");
		informerDeletes(configMap("uid-1", "11"));
		assertThat(this.view.get(KEY)).isNull();
		assertThat(this.view.writtenCount()).isZero();
	}

	@Test
	void deletionOfTheOldObjectKeepsTheNewerOneCreatedUnderTheSameName() {
		// a reconcile deletes the child and creates it again before the watch delivers
		// the deletion of the old one
		informerAdds(configMap("uid-old", "10"));
		this.view.forget(KEY);
		this.view.written(configMap("uid-new", "12"));
		informerDeletes(configMap("uid-old", "11"));
		KubernetesObject current = this.view.get(KEY);
		assertThat(current).isNotNull();
		assertThat(current.getMetadata().getUid()).isEqualTo("uid-new");
		assertThat(this.view.list(null, (object) -> true)).extracting((object) -> object.getMetadata().getUid())
			.containsExactly("uid-new");
		// the informer catches up: the written version is no longer needed
		informerAdds(configMap("uid-new", "12"));
		assertThat(this.view.get(KEY).getMetadata().getUid()).isEqualTo("uid-new");
		assertThat(this.view.writtenCount()).isZero();
	}

	@Test
	void recreationAnsweredAfterTheOldObjectsDeletionIsKept() {
		informerAdds(configMap("uid-old", "10"));
		informerDeletes(configMap("uid-old", "11"));
		this.view.written(configMap("uid-new", "12"));
		assertThat(this.view.get(KEY).getMetadata().getUid()).isEqualTo("uid-new");
	}

	@Test
	void deletionWithNonNumericVersionsDropsOnlyWritesOfTheSameObject() {
		informerAdds(configMap("uid-old", "a"));
		this.view.forget(KEY);
		this.view.written(configMap("uid-new", "c"));
		informerDeletes(configMap("uid-old", "b"));
		assertThat(this.view.get(KEY).getMetadata().getUid()).isEqualTo("uid-new");
		informerDeletes(configMap("uid-new", "d"));
		assertThat(this.view.get(KEY)).isNull();
	}

	@Test
	void objectAWriteDeletedIsNotReadFromTheInformerBeforeItsDeleteEvent() {
		// the removal of the last finalizer deletes the object: the informer still
		// holds it, finalizer included, until the watch delivers the deletion
		informerAdds(configMap("uid-1", "10"));
		this.view.deleted(configMap("uid-1", "11"));
		assertThat(this.view.get(KEY)).isNull();
		assertThat(this.view.list(null, (object) -> true)).isEmpty();
		// created again under the same name: the new object is read
		informerDeletes(configMap("uid-1", "12"));
		informerAdds(configMap("uid-2", "13"));
		assertThat(this.view.get(KEY).getMetadata().getUid()).isEqualTo("uid-2");
	}

	@Test
	void writtenVersionTheInformerNeverDeliversExpires() {
		// created outside the watch's selector: no event will ever supersede or delete it
		this.view.written(configMap("uid-1", "30"));
		this.clock.advance(CacheView.RETENTION.minusSeconds(1));
		assertThat(this.view.get(KEY)).isNotNull();
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.view.get(KEY)).isNull();
		assertThat(this.view.list(null, (object) -> true)).isEmpty();
		assertThat(this.view.writtenCount()).isZero();
	}

	@Test
	void deletionsAreRememberedOnlyForTheRetention() {
		informerAdds(configMap("uid-1", "10"));
		informerDeletes(configMap("uid-1", "11"));
		assertThat(this.view.tombstoneCount()).isOne();
		this.clock.advance(CacheView.RETENTION);
		// any later event prunes what expired
		informerAdds(configMap("uid-2", "40", "other"));
		assertThat(this.view.tombstoneCount()).isZero();
	}

	@Test
	void theMembersOfAnApplySetAreFoundByTheirLabelWithOrWithoutAnOwnerReference() {
		V1ConfigMap member = configMap("uid-1", "10", "member");
		member.getMetadata().putLabelsItem(DependentLabels.PART_OF, "applyset-a-v1");
		V1ConfigMap other = configMap("uid-2", "10", "other");
		other.getMetadata().putLabelsItem(DependentLabels.PART_OF, "applyset-b-v1");
		informerAdds(member);
		informerAdds(other);
		informerAdds(configMap("uid-3", "10", "unlabelled"));
		V1ConfigMap written = configMap("uid-4", "11", "written");
		written.getMetadata().putLabelsItem(DependentLabels.PART_OF, "applyset-a-v1");
		this.view.written(written);
		assertThat(this.view.partOf("applyset-a-v1")).extracting((object) -> object.getMetadata().getName())
			.containsExactlyInAnyOrder("member", "written");
		assertThat(this.informer.getIndexer().getIndexers()).containsKey(ViewIndexes.PART_OF_INDEX);
	}

	private void informerAdds(V1ConfigMap configMap) {
		this.informer.getIndexer().add(configMap);
		this.view.onAdd(configMap);
	}

	private void informerDeletes(V1ConfigMap configMap) {
		this.informer.getIndexer().delete(configMap);
		this.view.onDelete(configMap, false);
	}

	private static V1ConfigMap configMap(String uid, String resourceVersion) {
		return configMap(uid, resourceVersion, "child");
	}

	private static V1ConfigMap configMap(String uid, String resourceVersion, String name) {
		return new V1ConfigMap()
			.metadata(new V1ObjectMeta().namespace("ns").name(name).uid(uid).resourceVersion(resourceVersion))
			.data(Map.of("uid", uid));
	}

	/**
	 * The informer is never started: the test delivers its events.
	 */
	private static final class Unused implements ListerWatcher<V1ConfigMap, V1ConfigMapList> {

		@Override
		public V1ConfigMapList list(CallGeneratorParams params) {
			throw new UnsupportedOperationException();
		}

		@Override
		public io.kubernetes.client.util.Watchable<V1ConfigMap> watch(CallGeneratorParams params) {
			throw new UnsupportedOperationException();
		}

	}

}
