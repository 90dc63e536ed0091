package org.jptxas.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.spi.BackendRegistry;

/**
 * Where {@link JptxasCommand} gets its backends for a plugin path. A process that runs one invocation discovers
 * them afresh ({@link #fresh()}); the compile server keeps them ({@link #shared()}), keyed by the plugin folders and
 * the name, size and modification time of every jar in them, so that a changed plugin folder is discovered again.
 */
interface Registries {
    BackendRegistry get(PluginPath path) throws IOException;

    static Registries fresh() {
        return path -> discover(path);
    }

    static Registries shared() {
        return new Shared();
    }

    private static BackendRegistry discover(PluginPath path) throws IOException {
        ClassLoader base = JptxasCommand.class.getClassLoader();
        return BackendRegistry.discover(base, path.classLoaders(base));
    }

    /** A small cache of registries; backends and their descriptions are safe to share between threads. */
    final class Shared implements Registries {
        private static final int KEEP = 4;
        private final Map<List<String>, BackendRegistry> cache = new LinkedHashMap<>(8, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<List<String>, BackendRegistry> eldest) {
                return size() > KEEP;
            }
        };

        @Override
        public BackendRegistry get(PluginPath path) throws IOException {
            List<String> key = new ArrayList<>();
            for (Path folder : path.folders()) {
                key.add("folder " + folder.toAbsolutePath().normalize());
            }
            for (Path jar : path.jars()) {
                key.add(jar.toAbsolutePath().normalize() + " " + Files.size(jar) + " "
                        + Files.getLastModifiedTime(jar).toMillis());
            }
            synchronized (this) {
                BackendRegistry r = cache.get(key);
                if (r == null) {
                    r = discover(path);
                    cache.put(key, r);
                }
                return r;
            }
        }
    }
}
