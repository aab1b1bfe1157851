package it.gizmo;

import dev.kubereconciler.model.CustomResource;
import dev.kubereconciler.model.ResourceCoordinates;

@ResourceCoordinates(group = "it.kubereconciler.dev", version = "v1", kind = "Gizmo", plural = "gizmos")
public class Gizmo extends CustomResource<Gizmo.Spec, Void> {

	public static class Spec {

		private String size;

		public String getSize() {
			return this.size;
		}

		public void setSize(String size) {
			this.size = size;
		}

	}

}
