package dev.kubereconciler.sample.widget;

import java.util.Objects;

import com.google.gson.annotations.SerializedName;

/**
 * What a widget should be: its size and color, which the external API provisions.
 */
public class WidgetSpec {

	@SerializedName("size")
	private Integer size;

	@SerializedName("color")
	private String color;

	public Integer getSize() {
		return this.size;
	}

	public void setSize(Integer size) {
		this.size = size;
	}

	public WidgetSpec size(Integer size) {
		this.size = size;
		return this;
	}

	public String getColor() {
		return this.color;
	}

	public void setColor(String color) {
		this.color = color;
	}

	public WidgetSpec color(String color) {
		this.color = color;
		return this;
	}

	@Override
	public boolean equals(Object obj) {
		return (obj instanceof WidgetSpec other) && Objects.equals(this.size, other.size)
				&& Objects.equals(this.color, other.color);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.size, this.color);
	}

	@Override
	public String toString() {
		return "{size=" + this.size + ", color=" + this.color + "}";
	}

}
