package dev.kubereconciler.sample.widget;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.kubereconciler.sample.SampleProperties;
import dev.kubereconciler.sample.external.ExternalWidgetApi;
import dev.kubereconciler.sample.external.InMemoryExternalWidgetStore;
import dev.kubereconciler.time.Ticker;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The answers of the {@code externalWidgets} source, which reconciles a widget when its
 * answer differs from the one before.
 */
class ExternalWidgetsLookUpTests {

	private final ExternalWidgetApi externalApi = externalApi();

	@Test
	void aWidgetLostProvisionedAgainAndLostAgainBetweenTwoPollsAnswersDifferently() {
		Widget widget = Widget.of("default", "twice-lost", new WidgetSpec(3, "red"));
		String first = this.externalApi.provision("uid-1", "red", 3).id();
		this.externalApi.deprovision(first);
		widget.setStatus(new WidgetStatus(WidgetStatus.READY, first, 1L, null));
		Object firstLoss = WidgetConfiguration.lookUp(this.externalApi, widget);
		// provisioned again under a new id, which is lost before the next poll
		String second = this.externalApi.provision("uid-1", "red", 3).id();
		this.externalApi.deprovision(second);
		widget.setStatus(new WidgetStatus(WidgetStatus.READY, second, 1L, null));
		Object secondLoss = WidgetConfiguration.lookUp(this.externalApi, widget);
		assertThat(second).isNotEqualTo(first);
		assertThat(secondLoss).isNotEqualTo(firstLoss);
	}

	@Test
	void aWidgetAnswersTheSameWhileNothingChangesAndNothingBeforeItHasAnId() {
		Widget widget = Widget.of("default", "steady", new WidgetSpec(3, "red"));
		assertThat(WidgetConfiguration.lookUp(this.externalApi, widget)).isNull();
		String id = this.externalApi.provision("uid-2", "red", 3).id();
		widget.setStatus(new WidgetStatus(WidgetStatus.READY, id, 1L, null));
		assertThat(WidgetConfiguration.lookUp(this.externalApi, widget))
			.isEqualTo(WidgetConfiguration.lookUp(this.externalApi, widget));
	}

	private static ExternalWidgetApi externalApi() {
		SampleProperties.ExternalApi properties = new SampleProperties().getExternalApi();
		properties.setLatency(Duration.ZERO);
		properties.setFailureRate(0);
		return new ExternalWidgetApi(properties, null, Ticker.system(), new InMemoryExternalWidgetStore());
	}

}
