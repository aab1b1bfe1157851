package dev.kubereconciler.benchmarks.startup;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.kubernetes.client.openapi.ApiClient;
import okhttp3.Interceptor;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.stereotype.Component;

/**
 * Marks the moments the informer's first list of ConfigMaps was sent ({@code list-sent})
 * and answered ({@code listed}: the response's headers; its body is read and decoded
 * after), with an interceptor it adds to the client, as an application may.
 */
@Component
public class FirstList implements BeanPostProcessor, Interceptor {

	private final AtomicBoolean sent = new AtomicBoolean();

	private final AtomicBoolean answered = new AtomicBoolean();

	@Override
	public Object postProcessAfterInitialization(Object bean, String beanName) {
		if (bean instanceof ApiClient client) {
			OkHttpClient.Builder builder = client.getHttpClient().newBuilder();
			builder.interceptors().add(this);
			client.setHttpClient(builder.build());
		}
		return bean;
	}

	@Override
	public Response intercept(Chain chain) throws IOException {
		Request request = chain.request();
		boolean list = request.method().equals("GET") && request.url().encodedPath().endsWith("/configmaps")
				&& !"true".equals(request.url().queryParameter("watch"));
		if (list && this.sent.compareAndSet(false, true)) {
			Milestones.reached("list-sent");
		}
		Response response = chain.proceed(request);
		if (list && this.answered.compareAndSet(false, true)) {
			Milestones.reached("listed");
		}
		return response;
	}

}
