package dev.kubereconciler.benchmarks;

/**
 * The load of a {@link WebhookLatency} run.
 *
 * @param rate the creates per second
 * @param seconds how long each round creates
 * @param rounds how many rounds of each mode, alternating, without the webhook first
 * @param size the bytes of each ConfigMap's data, as JSON
 * @param warmUp how long each mode runs before the rounds, the webhook first and reported
 * as its first seconds after ready, the baseline unreported (0: none)
 * @param clients the threads that send creates
 * @param selfCheck whether the webhook is registered only once its server has served its
 * self-check, as a ready replica's
 */
record WebhookLoad(int rate, int seconds, int rounds, int size, int warmUp, int clients, boolean selfCheck) {

	static WebhookLoad parse(String... args) {
		int rate = 200;
		int seconds = 30;
		int rounds = 3;
		int size = 4096;
		int warmUp = 5;
		int clients = 64;
		boolean selfCheck = true;
		for (int i = 0; i + 1 < args.length; i += 2) {
			int value = Integer.parseInt(args[i + 1]);
			switch (args[i]) {
				case "rate" -> rate = value;
				case "seconds" -> seconds = value;
				case "rounds" -> rounds = value;
				case "size" -> size = value;
				case "warmup" -> warmUp = value;
				case "clients" -> clients = value;
				case "selfcheck" -> selfCheck = value != 0;
				default -> throw new IllegalArgumentException("unknown setting " + args[i]
						+ "; expected rate, seconds, rounds, size, warmup, clients or selfcheck");
			}
		}
		return new WebhookLoad(rate, seconds, rounds, size, warmUp, clients, selfCheck);
	}

}
