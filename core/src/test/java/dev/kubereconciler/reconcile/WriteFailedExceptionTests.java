package dev.kubereconciler.reconcile;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import io.kubernetes.client.openapi.ApiException;
import org.junit.jupiter.api.Test;

import dev.kubereconciler.controller.ReconcileOutcome;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WriteFailedException}: the write, the object and the server's
 * {@code Status} in one line, and the client's exception in all else.
 */
class WriteFailedExceptionTests {

	private static final String INVALID = """
			{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure",
			 "message":"ConfigMap \\"b\\" is invalid: metadata.finalizers: Invalid value","reason":"Invalid","code":422}
			""";

	@Test
	void messageSaysTheWriteTheObjectAndTheServersStatus() {
		ApiException client = new ApiException(422, Map.of("audit-id", List.of("1")), INVALID);
		WriteFailedException failed = WriteFailedException.of("status update", "ConfigMap a/b", client);
		assertThat(failed).hasMessage(
				"status update of ConfigMap a/b failed: 422 Invalid: ConfigMap \"b\" is invalid: metadata.finalizers: "
						+ "Invalid value")
			.hasCause(client);
		assertThat(failed.reason()).isEqualTo("Invalid");
		assertThat(failed.getCode()).isEqualTo(422);
		assertThat(failed.getResponseBody()).isEqualTo(INVALID);
		assertThat(failed.getResponseHeaders()).isEqualTo(client.getResponseHeaders());
		assertThat(failed.toString()).startsWith(WriteFailedException.class.getName() + ": status update of");
	}

	@Test
	void aWriteCanBeRenamedAndSaidToBeADependents() {
		WriteFailedException failed = WriteFailedException.of("merge patch", "Widget a/b",
				new ApiException(422, Map.of(), INVALID));
		assertThat(failed.as("finalizer removal"))
			.hasMessageStartingWith("finalizer removal of Widget a/b failed: 422 Invalid: ");
		assertThat(failed.ofDependent("web").as("apply"))
			.hasMessageStartingWith("apply of Widget a/b (dependent 'web') failed: 422 Invalid: ");
		assertThat(failed.as("finalizer removal").getStackTrace()).isEqualTo(failed.getStackTrace());
		IllegalStateException suppressed = new IllegalStateException("the condition write failed too");
		failed.addSuppressed(suppressed);
		assertThat(failed.ofDependent("web").getSuppressed()).containsExactly(suppressed);
	}

	@Test
	void aConflictStaysAConflict() {
		WriteFailedException failed = WriteFailedException.of("update", "Widget a/b",
				new ApiException(409, Map.of(), """
						{"kind":"Status","message":"the object has been modified","reason":"Conflict","code":409}"""));
		assertThat(ReconcileOutcome.isConflict(failed)).isTrue();
		assertThat(failed).hasMessage("update of Widget a/b failed: 409 Conflict: the object has been modified");
	}

	@Test
	void noStatusSaysWhatFailedInstead() {
		WriteFailedException unreachable = WriteFailedException.of("apply", "Deployment a/web",
				new ApiException(new IOException("connection refused")));
		assertThat(unreachable).hasMessage("apply of Deployment a/web failed: java.io.IOException: connection refused");
		WriteFailedException html = WriteFailedException.of("apply", "Deployment a/web",
				new ApiException(502, Map.of(), "<html>bad gateway</html>"));
		assertThat(html).hasMessage("apply of Deployment a/web failed: 502 the answer carried no Kubernetes Status");
	}

}
