package dev.kubereconciler.crd;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import dev.kubereconciler.model.ResourceCoordinates;

/**
 * Finds CustomResourceDefinitions on the class path: by location (a file, or a {@code *}
 * pattern in a folder's file names) or by the model class they define. It lists
 * {@code file:} and {@code jar:} folders itself, so that it needs no Spring.
 */
public final class CrdFiles {

	/**
	 * Where generated CRDs live, one file per CRD named {@code <plural>.<group>.yaml}.
	 */
	public static final String FOLDER = "META-INF/kubernetes/crds/";

	/** The CRDs found when no location or class is named. */
	public static final String DEFAULT_LOCATION = FOLDER + "*.yaml";

	private static final String CLASSPATH_PREFIX = "classpath:";

	private final ClassLoader classLoader;

	/**
	 * Create a finder.
	 * @param classLoader the class loader whose class path is searched
	 */
	public CrdFiles(ClassLoader classLoader) {
		this.classLoader = classLoader;
	}

	/**
	 * Find the CRDs of the given locations and model classes, or of
	 * {@link #DEFAULT_LOCATION} when both are empty.
	 * @param locations classpath locations, each a file or a {@code *} pattern
	 * @param customResources model classes annotated with {@link ResourceCoordinates}
	 * @return the CRDs by name, in the order found
	 * @throws IllegalStateException if a named file, or a class's CRD, is missing
	 */
	public List<Crd> find(List<String> locations, List<Class<?>> customResources) {
		Map<String, Crd> crds = new LinkedHashMap<>();
		if (locations.isEmpty() && customResources.isEmpty()) {
			locations = List.of(DEFAULT_LOCATION);
		}
		for (String location : locations) {
			for (URL url : resolve(location)) {
				read(url).forEach((crd) -> crds.putIfAbsent(crd.name(), crd));
			}
		}
		for (Class<?> customResource : customResources) {
			URL url = this.classLoader.getResource(location(customResource));
			if (url == null) {
				throw new IllegalStateException("No CRD for " + customResource.getName() + ": expected "
						+ location(customResource) + " on the class path");
			}
			read(url).forEach((crd) -> crds.putIfAbsent(crd.name(), crd));
		}
		return List.copyOf(crds.values());
	}

	/**
	 * Return where the CRD of a model class is expected.
	 * @param customResource a class annotated with {@link ResourceCoordinates}
	 * @return {@code META-INF/kubernetes/crds/<plural>.<group>.yaml}
	 */
	public static String location(Class<?> customResource) {
		ResourceCoordinates resource = customResource.getAnnotation(ResourceCoordinates.class);
		if (resource == null) {
			throw new IllegalArgumentException(customResource.getName() + " is not annotated with @"
					+ ResourceCoordinates.class.getSimpleName() + ", so its CRD cannot be found");
		}
		return FOLDER + resource.plural() + "." + resource.group() + ".yaml";
	}

	private List<URL> resolve(String location) {
		String path = location.startsWith(CLASSPATH_PREFIX) ? location.substring(CLASSPATH_PREFIX.length()) : location;
		path = path.startsWith("/") ? path.substring(1) : path;
		int slash = path.lastIndexOf('/');
		String folder = path.substring(0, slash + 1);
		String name = path.substring(slash + 1);
		if (!name.contains("*")) {
			URL url = this.classLoader.getResource(path);
			if (url == null) {
				throw new IllegalStateException("No CRD file " + location + " on the class path");
			}
			return List.of(url);
		}
		// a pattern may match nothing: an application without CRDs is fine
		Pattern pattern = Pattern.compile(Pattern.quote(name).replace("*", "\\E[^/]*\\Q"));
		Set<URL> urls = new LinkedHashSet<>();
		try {
			TreeSet<String> names = new TreeSet<>();
			for (URL root : Collections.list(this.classLoader.getResources(folder))) {
				names.addAll(list(root, folder));
			}
			for (String file : names) {
				if (pattern.matcher(file).matches()) {
					// every copy: two jars may each bring a CRD file of the same name
					urls.addAll(Collections.list(this.classLoader.getResources(folder + file)));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not list " + folder + " on the class path", ex);
		}
		return List.copyOf(urls);
	}

	// the names of the files directly in the folder
	private static List<String> list(URL root, String folder) throws IOException {
		if ("file".equals(root.getProtocol())) {
			try (Stream<Path> files = Files.list(Path.of(toUri(root)))) {
				return files.filter(Files::isRegularFile).map((file) -> file.getFileName().toString()).toList();
			}
		}
		if ("jar".equals(root.getProtocol())) {
			URLConnection connection = root.openConnection();
			// a cached jar would be shared with, and closed under, the class loader
			connection.setUseCaches(false);
			try (JarFile jar = ((JarURLConnection) connection).getJarFile()) {
				return jar.stream()
					.map(JarEntry::getName)
					.filter((entry) -> entry.startsWith(folder) && entry.length() > folder.length())
					.map((entry) -> entry.substring(folder.length()))
					.filter((file) -> !file.contains("/"))
					.toList();
			}
		}
		return List.of();
	}

	private static URI toUri(URL url) {
		try {
			return url.toURI();
		}
		catch (URISyntaxException ex) {
			throw new IllegalArgumentException("Not a valid folder URL: " + url, ex);
		}
	}

	private static List<Crd> read(URL url) {
		String source = url.toString();
		List<Crd> crds = new ArrayList<>();
		try (InputStream in = url.openStream()) {
			// several documents may share a file, as kubectl allows
			for (Object document : new Yaml(new SafeConstructor(new LoaderOptions())).loadAll(in)) {
				if (document != null) {
					crds.add(Crd.of(new Gson().toJsonTree(document).getAsJsonObject(), source));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not read the CRD file " + source, ex);
		}
		catch (RuntimeException ex) {
			throw new IllegalStateException("Could not read the CRD file " + source + ": " + ex.getMessage(), ex);
		}
		return crds;
	}

	/**
	 * One CustomResourceDefinition, as its own JSON, and where it came from.
	 *
	 * @param name the CRD's name, {@code <plural>.<group>}
	 * @param group the API group
	 * @param version a served version: the stored one if it is served, else the first
	 * served
	 * @param plural the plural resource name
	 * @param json the CRD as JSON, for server-side apply
	 * @param source the file it came from
	 */
	public record Crd(String name, String group, String version, String plural, String json, String source) {

		static Crd of(JsonObject object, String source) {
			String kind = object.has("kind") ? object.get("kind").getAsString() : "";
			if (!"CustomResourceDefinition".equals(kind)) {
				throw new IllegalArgumentException("a CustomResourceDefinition was expected, not kind '" + kind + "'");
			}
			JsonObject spec = object.getAsJsonObject("spec");
			// the stored version when it is served, as the API server needs it to serve
			// any; else the first served
			String version = spec.getAsJsonArray("versions")
				.asList()
				.stream()
				.map((element) -> element.getAsJsonObject())
				.filter((element) -> element.get("served").getAsBoolean())
				.sorted(Comparator.comparing((element) -> !isStorage(element)))
				.map((element) -> element.get("name").getAsString())
				.findFirst()
				.orElseThrow(() -> new IllegalArgumentException("the CRD serves no version"));
			return new Crd(object.getAsJsonObject("metadata").get("name").getAsString(),
					spec.get("group").getAsString(), version, spec.getAsJsonObject("names").get("plural").getAsString(),
					object.toString(), source);
		}

		private static boolean isStorage(JsonObject version) {
			return version.has("storage") && version.get("storage").getAsBoolean();
		}

	}

}
