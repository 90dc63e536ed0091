package org.jptxas.spi;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetCatalog;
import org.jptxas.ori.target.TargetInfo;

/**
 * The backends visible to one class loader, indexed by target. Immutable once built; build one per plugin
 * configuration rather than sharing a global.
 */
public final class BackendRegistry {
    private final List<Backend> backends;
    private final List<String> loadProblems;
    private final Map<Target, List<Backend>> byTarget = new TreeMap<>();

    private BackendRegistry(List<Backend> backends, List<String> loadProblems) {
        List<Backend> sorted = new ArrayList<>(backends);
        sorted.sort(Comparator.comparing(Backend::id));
        this.backends = List.copyOf(sorted);
        this.loadProblems = List.copyOf(loadProblems);
        for (Backend b : this.backends) {
            for (Target t : b.targets()) {
                byTarget.computeIfAbsent(t, k -> new ArrayList<>()).add(b);
            }
        }
    }

    /** Discovers backends with {@link ServiceLoader}; a provider that fails to load is recorded, not fatal. */
    public static BackendRegistry discover(ClassLoader loader) {
        return discover(loader, List.of());
    }

    /**
     * Discovers the backends on {@code base} and, separately, in each plugin loader (one per plugin jar, each a child
     * of {@code base}). Loading every jar on its own keeps two jars with the same provider class apart, so that a
     * target they both claim is reported instead of one jar silently winning.
     */
    public static BackendRegistry discover(ClassLoader base, List<ClassLoader> pluginLoaders) {
        List<Backend> found = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        load(base, null, found, problems);
        for (ClassLoader plugin : pluginLoaders) {
            load(plugin, plugin, found, problems);
        }
        return new BackendRegistry(found, problems);
    }

    /** Adds the providers visible to {@code loader}; with {@code owner} set, only those defined by it. */
    private static void load(ClassLoader loader, ClassLoader owner, List<Backend> found, List<String> problems) {
        var it = ServiceLoader.load(Backend.class, loader).stream().iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                ServiceLoader.Provider<Backend> provider = it.next();
                if (owner == null || provider.type().getClassLoader() == owner) {
                    found.add(provider.get());
                }
            } catch (ServiceConfigurationError e) {
                problems.add(e.getMessage());
            }
        }
    }

    public static BackendRegistry of(List<Backend> backends) {
        return new BackendRegistry(backends, List.of());
    }

    public List<Backend> backends() {
        return backends;
    }

    /** Providers that were registered but could not be instantiated. */
    public List<String> loadProblems() {
        return loadProblems;
    }

    /** Every served target with the backends that claim it, in target order. */
    public Map<Target, List<Backend>> targets() {
        Map<Target, List<Backend>> copy = new TreeMap<>();
        byTarget.forEach((t, bs) -> copy.put(t, List.copyOf(bs)));
        return copy;
    }

    /** The single backend serving {@code target}. */
    public Backend forTarget(Target target) throws BackendSelectionException {
        List<Backend> candidates = byTarget.getOrDefault(target, List.of());
        if (candidates.isEmpty()) {
            throw new BackendSelectionException("No installed backend serves target '" + target.name() + "'"
                    + (backends.isEmpty() ? " (no backends are installed)" : ""));
        }
        if (candidates.size() > 1) {
            throw new BackendSelectionException("Target '" + target.name() + "' is served by more than one backend: "
                    + candidates.stream().map(b -> b.id() + " (" + origin(b) + ")").collect(Collectors.joining(", ")));
        }
        return candidates.get(0);
    }

    /**
     * The targets the installed backends describe, as the front end knows them ({@code .target} directives may name
     * these), with {@code defaultTarget} for compilations that name none.
     */
    public TargetCatalog catalog(Target defaultTarget) {
        List<TargetInfo> infos = new ArrayList<>();
        for (Map.Entry<Target, List<Backend>> e : byTarget.entrySet()) {
            e.getValue().get(0).description(e.getKey()).ifPresent(d -> infos.add(d.info()));
        }
        return new TargetCatalog(defaultTarget, infos);
    }

    /** The description of {@code target} from the one backend serving it; empty when none or several do. */
    public Optional<TargetDescription> describe(Target target) {
        List<Backend> candidates = byTarget.getOrDefault(target, List.of());
        return candidates.size() == 1 ? candidates.get(0).description(target) : Optional.empty();
    }

    /** Where a backend's classes come from: its jar or class folder, or {@code <unknown>}. */
    public static String origin(Backend backend) {
        CodeSource source = backend.getClass().getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return "<unknown>";
        }
        try {
            return Optional.ofNullable(Path.of(source.getLocation().toURI()).getFileName())
                    .map(Path::toString).orElse(source.getLocation().toString());
        } catch (URISyntaxException | IllegalArgumentException e) {
            return source.getLocation().toString();
        }
    }
}
