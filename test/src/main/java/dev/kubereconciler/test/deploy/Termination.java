package dev.kubereconciler.test.deploy;

import java.time.Duration;

/**
 * How a replica's process ended when it was stopped.
 *
 * @param drained how long it took from SIGTERM until the process exited, or until it was
 * killed
 * @param killed whether it was still running at the end of the grace period and was
 * killed with SIGKILL
 * @param exitCode the process's exit code; 143 after SIGTERM, 137 after SIGKILL, unless
 * the application chose its own
 */
public record Termination(Duration drained, boolean killed, int exitCode) {

}
