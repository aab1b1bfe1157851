package dev.kubereconciler.internal.cache;

import io.kubernetes.client.openapi.models.V1ListMeta;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How an informer's list goes on after its first request of one object.
 */
class ListPlanTests {

	private static final int MAX = 10_000;

	@Test
	void aFirstAnswerWithNoContinueTokenHoldsTheWholeList() {
		assertThat(ListPlan.after(new V1ListMeta().resourceVersion("7"), 1, true, MAX)).isEqualTo(ListPlan.COMPLETE);
		assertThat(ListPlan.after(new V1ListMeta().resourceVersion("7")._continue(""), 1, true, MAX))
			.isEqualTo(ListPlan.COMPLETE);
	}

	@Test
	void aFirstAnswerWithoutTheListsSelectorIsReadAgainWithItWhenItHoldsEverything() {
		assertThat(ListPlan.after(new V1ListMeta().resourceVersion("7"), 1, false, MAX))
			.isEqualTo(ListPlan.WATCH_CACHE);
	}

	@Test
	void upToTheMaxObjectsAreReadWholeFromTheWatchCache() {
		assertThat(ListPlan.after(more(4_999), 1, true, MAX)).isEqualTo(ListPlan.WATCH_CACHE);
		assertThat(ListPlan.after(more(MAX - 1), 1, true, MAX)).isEqualTo(ListPlan.WATCH_CACHE);
		assertThat(ListPlan.after(more(MAX - 1), 1, false, MAX)).isEqualTo(ListPlan.WATCH_CACHE);
	}

	@Test
	void moreThanTheMaxObjectsComeInPages() {
		assertThat(ListPlan.after(more(MAX), 1, true, MAX)).isEqualTo(ListPlan.PAGES);
		assertThat(ListPlan.after(more(99_999), 1, true, MAX)).isEqualTo(ListPlan.PAGES);
		assertThat(ListPlan.after(more(MAX - 500), 500, true, MAX)).isEqualTo(ListPlan.WATCH_CACHE);
		assertThat(ListPlan.after(more(MAX - 499), 500, true, MAX)).isEqualTo(ListPlan.PAGES);
	}

	@Test
	void aListWhoseSizeTheServerDoesNotGiveComesInPages() {
		// the API server gives no remainingItemCount for a list with a label selector
		assertThat(ListPlan.after(new V1ListMeta().resourceVersion("7")._continue("next"), 1, true, MAX))
			.isEqualTo(ListPlan.PAGES);
	}

	@Test
	void aMaxOfZeroPagesEveryListThatDoesNotFitTheFirstAnswer() {
		assertThat(ListPlan.after(more(1), 1, true, 0)).isEqualTo(ListPlan.PAGES);
		assertThat(ListPlan.after(new V1ListMeta().resourceVersion("7"), 1, true, 0)).isEqualTo(ListPlan.COMPLETE);
	}

	@Test
	void anAnswerWithoutMetadataIsTakenAsTheWholeList() {
		assertThat(ListPlan.after(null, 1, true, MAX)).isEqualTo(ListPlan.COMPLETE);
	}

	private static V1ListMeta more(long remaining) {
		return new V1ListMeta().resourceVersion("7")._continue("next").remainingItemCount(remaining);
	}

}
