package org.jptxas.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TargetDescription;
import org.jptxas.ori.target.Target;

/**
 * The backends a tool sees, found as {@code jptxas} finds them: on the class path and in the plugin folders
 * ({@code <jptxas.home>/plugins}, {@code JPTXAS_PLUGIN_PATH}). The disassembler, the dumper and the simulator read a
 * target's SASS tables and latency model from its backend's description.
 */
final class InstalledBackends {
    private InstalledBackends() {}

    static BackendRegistry discover(String home, String env, List<Path> extraFolders) throws IOException {
        ClassLoader base = InstalledBackends.class.getClassLoader();
        return BackendRegistry.discover(base, PluginPath.of(home, env, extraFolders).classLoaders(base));
    }

    /** The registry of this process's installation ({@code jptxas.home}, {@code JPTXAS_PLUGIN_PATH}). */
    static BackendRegistry ofEnvironment() {
        try {
            return discover(System.getProperty("jptxas.home"), System.getenv(PluginPath.ENV), List.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The description of {@code sm} (e.g. {@code sm_86}) when an installed backend has its SASS tables. */
    static Optional<TargetDescription> withTables(BackendRegistry registry, String sm) {
        return Target.parse(sm).flatMap(registry::describe).filter(TargetDescription::hasTables);
    }

    /** The targets whose SASS an installed backend can read, for messages ({@code sm_75, sm_80, ...}). */
    static String readable(BackendRegistry registry) {
        return String.join(", ", registry.targets().keySet().stream().filter(t -> t.suffix().isEmpty())
                .filter(t -> registry.describe(t).filter(TargetDescription::hasTables).isPresent())
                .map(Target::name).toList());
    }
}
