package dev.kubereconciler.observation;

import java.util.Locale;
import java.util.function.Function;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

import dev.kubereconciler.controller.ReconcileOutcome;
import dev.kubereconciler.reconcile.Trigger;
import dev.kubereconciler.observation.ReconcileObservationDocumentation.HighCardinalityKeyNames;
import dev.kubereconciler.observation.ReconcileObservationDocumentation.LowCardinalityKeyNames;

/**
 * The default {@link ReconcileObservationConvention}: the observation
 * {@code kube.reconciler.reconcile}, named {@code reconcile <controller>} in a trace.
 */
public class DefaultReconcileObservationConvention implements ReconcileObservationConvention {

	/** The observation's name. */
	public static final String NAME = "kube.reconciler.reconcile";

	private static final KeyValue UNKNOWN_RESULT = KeyValue.of(LowCardinalityKeyNames.RESULT, "unknown");

	private static final KeyValue UNKNOWN_OUTCOME = KeyValue.of(LowCardinalityKeyNames.OUTCOME, "unknown");

	// made once: a reconcile's key values are read twice, at its start and at its stop
	private static final KeyValue[] RESULTS = keyValues(LowCardinalityKeyNames.RESULT, ReconcileOutcome.values(),
			ReconcileOutcome::resultLabel);

	private static final KeyValue[] OUTCOMES = keyValues(LowCardinalityKeyNames.OUTCOME, ReconcileOutcome.values(),
			(outcome) -> outcome.name().toLowerCase(Locale.ROOT));

	private static final KeyValue[] TRIGGERS = keyValues(LowCardinalityKeyNames.TRIGGER, Trigger.values(),
			(trigger) -> trigger.name().toLowerCase(Locale.ROOT));

	@Override
	public String getName() {
		return NAME;
	}

	@Override
	public String getContextualName(ReconcileObservationContext context) {
		return "reconcile " + context.getController();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(ReconcileObservationContext context) {
		return KeyValues.of(controller(context), result(context), outcome(context), trigger(context));
	}

	@Override
	public KeyValues getHighCardinalityKeyValues(ReconcileObservationContext context) {
		return KeyValues.of(KeyValue.of(HighCardinalityKeyNames.REQUEST, context.getRequest().key()));
	}

	/**
	 * Return the controller key value.
	 * @param context the reconcile
	 * @return the key value
	 */
	protected KeyValue controller(ReconcileObservationContext context) {
		return KeyValue.of(LowCardinalityKeyNames.CONTROLLER, context.getController());
	}

	/**
	 * Return the result key value, {@code unknown} before the reconcile ended.
	 * @param context the reconcile
	 * @return the key value
	 */
	protected KeyValue result(ReconcileObservationContext context) {
		ReconcileOutcome outcome = context.getOutcome();
		return (outcome != null) ? RESULTS[outcome.ordinal()] : UNKNOWN_RESULT;
	}

	/**
	 * Return the outcome key value, {@code unknown} before the reconcile ended.
	 * @param context the reconcile
	 * @return the key value
	 */
	protected KeyValue outcome(ReconcileObservationContext context) {
		ReconcileOutcome outcome = context.getOutcome();
		return (outcome != null) ? OUTCOMES[outcome.ordinal()] : UNKNOWN_OUTCOME;
	}

	/**
	 * Return the trigger key value.
	 * @param context the reconcile
	 * @return the key value
	 */
	protected KeyValue trigger(ReconcileObservationContext context) {
		return TRIGGERS[context.getTrigger().ordinal()];
	}

	private static <E extends Enum<E>> KeyValue[] keyValues(LowCardinalityKeyNames key, E[] values,
			Function<E, String> label) {
		KeyValue[] keyValues = new KeyValue[values.length];
		for (E value : values) {
			keyValues[value.ordinal()] = KeyValue.of(key, label.apply(value));
		}
		return keyValues;
	}

}
