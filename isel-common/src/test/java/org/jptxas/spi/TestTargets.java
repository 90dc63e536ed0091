package org.jptxas.spi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetCatalog;
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.ori.target.TargetProfile;
import org.jptxas.tables.TableSource;
import org.jptxas.testing.RepoRoot;

/**
 * The target descriptions of the repository's backends, for tests of modules that come before the backends in the
 * build: each {@code backend-*} module's {@code backend.json} and tables are read from its resource folder in the
 * source tree, through a class loader of their own, exactly as the backend's jar would give them.
 */
public final class TestTargets {
    private TestTargets() {}

    private static final class Holder {
        static final Map<String, Path> FOLDERS = new LinkedHashMap<>();
        static final Map<String, TargetDescription> BY_NAME = load(FOLDERS);
    }

    private static Map<String, TargetDescription> load(Map<String, Path> folders) {
        Path root = RepoRoot.find().orElseThrow(() -> new IllegalStateException("repository root not found"));
        Map<String, TargetDescription> out = new LinkedHashMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(p -> p.getFileName().toString().startsWith("backend-")).sorted().toList()) {
                Path resources = module.resolve("src/main/resources");
                Path backends = resources.resolve("org/jptxas/backend");
                if (!Files.isDirectory(backends)) {
                    continue;
                }
                ClassLoader loader = new URLClassLoader("test-" + module.getFileName(),
                        new URL[] {resources.toUri().toURL()}, TestTargets.class.getClassLoader());
                try (Stream<Path> ids = Files.list(backends)) {
                    for (Path id : ids.filter(p -> Files.isRegularFile(p.resolve("backend.json"))).sorted().toList()) {
                        TableSource source = new TableSource(loader, "/org/jptxas/backend/" + id.getFileName() + "/");
                        for (TargetDescription d : BackendDescriptions.read(source).targets()) {
                            out.put(d.target().name(), d);
                            folders.put(d.target().name(), id);
                        }
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out;
    }

    /** The description of {@code target} ({@code sm_80}, {@code sm_90a}, ...). */
    public static TargetDescription of(String target) {
        TargetDescription d = Holder.BY_NAME.get(target);
        if (d == null) {
            throw new IllegalArgumentException("no backend of the repository describes " + target);
        }
        return d;
    }

    /**
     * The resource folder of the backend that describes {@code target}, in the source tree
     * ({@code backend-sm80/src/main/resources/org/jptxas/backend/sm80}): where the table probe writes its tables.
     */
    public static Path resourceFolder(String target) {
        of(target);
        return Holder.FOLDERS.get(target);
    }

    /** The ABI facts and features of a target with code generation. */
    public static TargetProfile profile(String target) {
        return of(target).profile();
    }

    /** Every described target, with ptxas's default sm_75. */
    public static TargetCatalog catalog() {
        List<TargetInfo> infos = new ArrayList<>();
        Holder.BY_NAME.values().forEach(d -> infos.add(d.info()));
        return new TargetCatalog(Target.of("sm_75"), infos);
    }

    /** Every described target's name, in backend order. */
    public static List<String> names() {
        return List.copyOf(Holder.BY_NAME.keySet());
    }
}
