package dev.kubereconciler.webhook;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * A Secret volume on disk, laid out and updated as the kubelet's {@code AtomicWriter}
 * does: the files live in a hidden folder of their own, {@code ..data} links to it, and
 * each key is a link through {@code ..data}. An update writes a new folder and swaps
 * {@code ..data} with one rename, so that a reader sees all old or all new files.
 */
final class MountedSecret {

	private static final String DATA = "..data";

	private final Path directory;

	private int generation;

	private Path current;

	private MountedSecret(Path directory, Map<String, String> files) {
		this.directory = directory;
		this.current = write(files);
		try {
			Files.createSymbolicLink(directory.resolve(DATA), this.current.getFileName());
			for (String key : files.keySet()) {
				Files.createSymbolicLink(directory.resolve(key), Path.of(DATA, key));
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Mount the files, by key, in the given empty folder.
	 */
	static MountedSecret mount(Path directory, Map<String, String> files) {
		return new MountedSecret(directory, files);
	}

	/**
	 * Return the path a container reads a key at.
	 */
	Path file(String key) {
		return this.directory.resolve(key);
	}

	/**
	 * Replace every file at once, with the same keys.
	 */
	void update(Map<String, String> files) {
		Path previous = this.current;
		this.current = write(files);
		try {
			Path link = this.directory.resolve(DATA + "_tmp");
			Files.createSymbolicLink(link, this.current.getFileName());
			Files.move(link, this.directory.resolve(DATA), StandardCopyOption.ATOMIC_MOVE);
			for (String key : files.keySet()) {
				Files.delete(previous.resolve(key));
			}
			Files.delete(previous);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private Path write(Map<String, String> files) {
		try {
			Path folder = Files.createDirectory(this.directory.resolve("..generation_" + (++this.generation)));
			for (Map.Entry<String, String> file : files.entrySet()) {
				Files.writeString(folder.resolve(file.getKey()), file.getValue(), StandardCharsets.US_ASCII);
			}
			return folder;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

}
