package ${package};

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An operator that keeps a ConfigMap for each {@link ${kind}} and reports it in the
 * ${kind}'s status.
 */
@SpringBootApplication
public class ${kind}OperatorApplication {

	public static void main(String[] args) {
		SpringApplication.run(${kind}OperatorApplication.class, args);
	}

}
