package it.gizmo;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

@SpringBootApplication
public class GizmoApplication {

	public static void main(String[] args) {
		SpringApplication.run(GizmoApplication.class, args);
	}

}
