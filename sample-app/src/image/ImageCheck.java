import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Checks that an image tar from Jib's buildTar is a valid Docker image archive: a
 * manifest.json naming a config and layers that are all in the tar, a config whose entrypoint
 * runs java with the application's main class, and a user that is not root. JDK only:
 * {@code java ImageCheck.java target/jib-image.tar dev.kubereconciler.sample.SampleApplication}.
 */
public final class ImageCheck {

	private ImageCheck() {
	}

	public static void main(String[] args) throws IOException {
		Map<String, byte[]> entries = read(Path.of(args[0]));
		String mainClass = args[1];
		String manifest = text(entries, "manifest.json");
		String config = text(entries, first(manifest, "\"Config\"\\s*:\\s*\"([^\"]+)\""));
		List<String> layers = all(first(manifest, "\"Layers\"\\s*:\\s*\\[([^\\]]*)\\]"), "\"([^\"]+)\"");
		require(!layers.isEmpty(), "the manifest lists no layers");
		for (String layer : layers) {
			require(entries.containsKey(layer), "the manifest names layer " + layer + ", which the tar lacks");
		}
		String entrypoint = first(config, "\"Entrypoint\"\\s*:\\s*\\[([^\\]]*)\\]");
		require(entrypoint.contains("\"java\""), "the entrypoint does not run java: " + entrypoint);
		require(entrypoint.contains(mainClass), "the entrypoint does not start " + mainClass + ": " + entrypoint);
		String user = first(config, "\"User\"\\s*:\\s*\"([^\"]*)\"");
		require(!user.isEmpty() && !user.equals("root") && !user.equals("0") && !user.startsWith("0:")
				&& !user.startsWith("root:"), "the image runs as root (User '" + user + "')");
		require(config.contains("\"os\":\"linux\"") || config.contains("\"os\": \"linux\""), "the config has no os linux");
		System.out.println("image ok: " + layers.size() + " layers, user " + user + ", entrypoint [" + entrypoint + "]");
	}

	private static Map<String, byte[]> read(Path tar) throws IOException {
		Map<String, byte[]> entries = new HashMap<>();
		try (InputStream in = Files.newInputStream(tar)) {
			byte[] header = new byte[512];
			while (in.readNBytes(header, 0, 512) == 512 && header[0] != 0) {
				String name = cString(header, 0, 100);
				String size = cString(header, 124, 12).trim();
				long length = size.isEmpty() ? 0 : Long.parseLong(size, 8);
				byte[] content = in.readNBytes((int) length);
				entries.put(name, content);
				in.skipNBytes((512 - (length % 512)) % 512);
			}
		}
		require(!entries.isEmpty(), tar + " is not a tar archive");
		return entries;
	}

	private static String text(Map<String, byte[]> entries, String name) {
		byte[] content = entries.get(name);
		require(content != null, "the tar has no " + name);
		return new String(content, StandardCharsets.UTF_8);
	}

	private static String first(String text, String regex) {
		Matcher matcher = Pattern.compile(regex).matcher(text);
		require(matcher.find(), "no match for " + regex + " in " + text);
		return matcher.group(1);
	}

	private static List<String> all(String text, String regex) {
		return Pattern.compile(regex).matcher(text).results().map((result) -> result.group(1)).toList();
	}

	private static String cString(byte[] bytes, int offset, int length) {
		int end = offset;
		while (end < offset + length && bytes[end] != 0) {
			end++;
		}
		return new String(bytes, offset, end - offset, StandardCharsets.US_ASCII);
	}

	private static void require(boolean condition, String message) {
		if (!condition) {
			System.err.println("image check failed: " + message);
			System.exit(1);
		}
	}

}
