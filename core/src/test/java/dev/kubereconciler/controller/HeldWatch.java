package dev.kubereconciler.controller;

import java.io.IOException;
import java.util.Iterator;
import java.util.concurrent.CountDownLatch;

import io.kubernetes.client.common.KubernetesListObject;
import io.kubernetes.client.common.KubernetesObject;
import io.kubernetes.client.informer.ListerWatcher;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.util.CallGeneratorParams;
import io.kubernetes.client.util.Watch;
import io.kubernetes.client.util.Watchable;

/**
 * A lister-watcher that can hold back watch events on their way to the informer, so that
 * a test sees what a reconcile reads while its own write has not come back through the
 * watch yet.
 *
 * @param <T> the model type
 * @param <L> the list type
 */
final class HeldWatch<T extends KubernetesObject, L extends KubernetesListObject> implements ListerWatcher<T, L> {

	private final ListerWatcher<T, L> delegate;

	private volatile CountDownLatch released = new CountDownLatch(0);

	HeldWatch(ListerWatcher<T, L> delegate) {
		this.delegate = delegate;
	}

	/**
	 * Hold every watch event that arrives from now on, until {@link #release()}.
	 */
	void hold() {
		this.released = new CountDownLatch(1);
	}

	void release() {
		this.released.countDown();
	}

	@Override
	public L list(CallGeneratorParams params) throws ApiException {
		return this.delegate.list(params);
	}

	@Override
	public Watchable<T> watch(CallGeneratorParams params) throws ApiException {
		Watchable<T> watch = this.delegate.watch(params);
		return new Watchable<>() {

			@Override
			public boolean hasNext() {
				return watch.hasNext();
			}

			@Override
			public Watch.Response<T> next() {
				Watch.Response<T> response = watch.next();
				try {
					HeldWatch.this.released.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
				return response;
			}

			@Override
			public Iterator<Watch.Response<T>> iterator() {
				return this;
			}

			@Override
			public void close() throws IOException {
				HeldWatch.this.release();
				watch.close();
			}

		};
	}

}
