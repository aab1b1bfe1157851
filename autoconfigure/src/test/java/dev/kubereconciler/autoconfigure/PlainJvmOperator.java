package dev.kubereconciler.autoconfigure;

import java.util.stream.IntStream;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ServiceAccount;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;

import dev.kubereconciler.dependent.Dependent;
import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;
import dev.kubereconciler.reconcile.ReconcileContext;
import dev.kubereconciler.reconcile.Reconciler;
import dev.kubereconciler.reconcile.Result;

/**
 * An operator as a user writes it from the README, for {@link PlainJvmOperatorTests} to
 * start in a JVM of its own with no flags: a {@code Fleet} owns one ServiceAccount per
 * member (a bulk dependent; a type no other test of the module writes, so that the API
 * server's request counts are this operator's) and reports its members in a status class
 * without {@code equals}.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class PlainJvmOperator {

	private static final Logger logger = LoggerFactory.getLogger(PlainJvmOperator.class);

	/** What the operator prints after each reconcile, for the test to count. */
	static final String RECONCILED = "reconciled fleet ";

	public static void main(String[] args) {
		new SpringApplicationBuilder(PlainJvmOperator.class).web(WebApplicationType.NONE).run(args);
	}

	@Bean
	Dependent<Fleet, V1ServiceAccount> fleetMembers() {
		return Dependent
			.bulk("members", V1ServiceAccount.class,
					(Fleet fleet,
							ReconcileContext<Fleet> context) -> IntStream.range(0, fleet.getSpec().getMembers())
								.mapToObj((index) -> new V1ServiceAccount().metadata(new V1ObjectMeta()
									.name(fleet.getMetadata().getName() + "-" + index)
									.putAnnotationsItem("plain.test.kubereconciler.dev/index", String.valueOf(index))))
								.toList());
	}

	@Bean
	FleetReconciler fleetReconciler() {
		return new FleetReconciler();
	}

	/**
	 * Reports how many members a fleet has.
	 */
	static class FleetReconciler {

		@Reconciler
		public Result reconcile(Fleet fleet, ReconcileContext<Fleet> context) throws Exception {
			Fleet.Status status = new Fleet.Status();
			status.setMembers(fleet.getSpec().getMembers());
			status.setPhase("Ready");
			fleet.setStatus(status);
			context.updateStatus(fleet);
			logger.info(RECONCILED + fleet.getMetadata().getName());
			return Result.done();
		}

	}

	/**
	 * A fleet of {@code spec.members} ServiceAccounts.
	 */
	@ResourceCoordinates(group = "plain.test.kubereconciler.dev", version = "v1", kind = "Fleet", plural = "fleets")
	public static class Fleet extends CustomResource<Fleet.Spec, Fleet.Status> {

		/**
		 * How many members.
		 */
		public static class Spec {

			private int members;

			public int getMembers() {
				return this.members;
			}

			public void setMembers(int members) {
				this.members = members;
			}

		}

		/**
		 * What the operator saw; a plain class, as the docs allow, without
		 * {@code equals}.
		 */
		public static class Status {

			private Integer members;

			private String phase;

			public Integer getMembers() {
				return this.members;
			}

			public void setMembers(Integer members) {
				this.members = members;
			}

			public String getPhase() {
				return this.phase;
			}

			public void setPhase(String phase) {
				this.phase = phase;
			}

		}

	}

}
