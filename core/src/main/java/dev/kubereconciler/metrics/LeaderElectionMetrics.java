package dev.kubereconciler.metrics;

import java.util.function.BooleanSupplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * client-go's leader election gauge, {@code leader_election_master_status{name}}: 1 while
 * this replica holds the Lease, 0 while it is a candidate. {@code name} is the Lease's
 * name, as controller-runtime's leader election ID.
 */
public final class LeaderElectionMetrics implements MeterBinder {

	private final String name;

	private final BooleanSupplier leading;

	/**
	 * Create the binder.
	 * @param name the Lease's name
	 * @param leading tells whether this replica leads now; read at every scrape
	 */
	public LeaderElectionMetrics(String name, BooleanSupplier leading) {
		this.name = name;
		this.leading = leading;
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		Gauge.builder("leader.election.master.status", this, (metrics) -> metrics.leading.getAsBoolean() ? 1 : 0)
			.description("Gauge of if the reporting system is master of the relevant lease, 0 indicates backup, "
					+ "1 indicates master. 'name' is the string used to identify the lease. "
					+ "Please make sure to group by name.")
			.tag("name", this.name)
			.strongReference(true)
			.register(registry);
	}

}
