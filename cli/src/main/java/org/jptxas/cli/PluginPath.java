package org.jptxas.cli;

import java.io.File;
import java.io.IOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The folders searched for backend jars: {@code <home>/plugins}, then each folder of {@code JPTXAS_PLUGIN_PATH}
 * (separated by the platform's path separator), then {@code --plugin-path} folders. Jars are taken in name order
 * within each folder so that discovery is deterministic.
 */
record PluginPath(List<Path> folders) {
    static final String ENV = "JPTXAS_PLUGIN_PATH";

    static PluginPath of(String home, String env, List<Path> extra) {
        List<Path> folders = new ArrayList<>();
        if (home != null && !home.isBlank()) {
            folders.add(Path.of(home, "plugins"));
        }
        if (env != null) {
            for (String part : env.split(File.pathSeparator)) {
                if (!part.isBlank()) {
                    folders.add(Path.of(part));
                }
            }
        }
        folders.addAll(extra);
        return new PluginPath(List.copyOf(folders));
    }

    /** Every {@code .jar} in the folders; a folder that does not exist is skipped. */
    List<Path> jars() throws IOException {
        List<Path> jars = new ArrayList<>();
        for (Path folder : folders) {
            if (!Files.isDirectory(folder)) {
                continue;
            }
            try (Stream<Path> files = Files.list(folder)) {
                files.filter(p -> p.getFileName().toString().endsWith(".jar") && Files.isRegularFile(p))
                        .sorted()
                        .forEach(jars::add);
            }
        }
        return jars;
    }

    /** One class loader per plugin jar, each delegating to {@code parent} for jptxas's own classes. */
    List<ClassLoader> classLoaders(ClassLoader parent) throws IOException {
        List<ClassLoader> loaders = new ArrayList<>();
        for (Path jar : jars()) {
            URL url;
            try {
                url = jar.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new IOException("bad plugin path " + jar, e);
            }
            loaders.add(new URLClassLoader("jptxas-plugin:" + jar.getFileName(), new URL[] {url}, parent));
        }
        return loaders;
    }
}
