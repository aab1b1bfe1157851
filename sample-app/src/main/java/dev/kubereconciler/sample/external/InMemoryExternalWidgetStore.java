package dev.kubereconciler.sample.external;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

import dev.kubereconciler.sample.external.ExternalWidgetApi.ExternalWidget;

/**
 * The widgets in this process's memory, lost when it stops, as an external system can
 * lose what a controller created.
 */
public class InMemoryExternalWidgetStore implements ExternalWidgetStore {

	private final Map<String, ExternalWidget> byKey = new ConcurrentHashMap<>();

	@Override
	public ExternalWidget provision(String key, String color, int size) {
		return this.byKey.computeIfAbsent(key, (k) -> new ExternalWidget("ext-" + UUID.randomUUID(), k, color, size));
	}

	@Override
	public boolean update(String id, String color, int size) {
		ExternalWidget existing = find(id).orElse(null);
		return existing != null && this.byKey.computeIfPresent(existing.key(),
				(key, widget) -> new ExternalWidget(id, key, color, size)) != null;
	}

	@Override
	public Optional<ExternalWidget> find(String id) {
		return this.byKey.values().stream().filter((widget) -> widget.id().equals(id)).findFirst();
	}

	@Override
	public Optional<ExternalWidget> findByKey(String key) {
		return Optional.ofNullable(this.byKey.get(key));
	}

	@Override
	public void remove(String id) {
		find(id).ifPresent((widget) -> this.byKey.remove(widget.key()));
	}

	@Override
	public List<ExternalWidget> widgets() {
		return List.copyOf(this.byKey.values());
	}

}
