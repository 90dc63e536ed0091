package org.jptxas.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The shared PTX corpus ({@code ../shared/corpus} beside the repository, or {@code JPTXAS_CORPUS}), read through its
 * {@code INDEX.tsv}. It is never copied into the project; tests that use it skip when it is absent, and fail under CI
 * ({@link Prerequisites}).
 */
public final class Corpus {
    private Corpus() {}

    /** One row of {@code INDEX.tsv}; {@code columns} holds every column by header name. */
    public record Entry(Path file, Map<String, String> columns) {
        public String get(String column) {
            return columns.getOrDefault(column, "");
        }

        /** Whether ptxas 13 accepts the file (column {@code ptxas}). */
        public boolean ptxasAccepts() {
            String v = get("ptxas").toLowerCase();
            return v.equals("ok") || v.equals("yes") || v.equals("accept") || v.equals("accepted") || v.equals("pass");
        }

        /** The {@code -arch} to compile the file with (column {@code ptxas_arch}). */
        public String arch() {
            return get("ptxas_arch");
        }
    }

    public static Optional<Path> dir() {
        String env = System.getenv("JPTXAS_CORPUS");
        if (env != null && !env.isBlank()) {
            Path p = Path.of(env);
            return Files.isRegularFile(p.resolve("INDEX.tsv")) ? Optional.of(p) : Optional.empty();
        }
        return RepoRoot.find().map(r -> r.resolveSibling("shared").resolve("corpus"))
                .filter(p -> Files.isRegularFile(p.resolve("INDEX.tsv")));
    }

    public static Path assumeDir() {
        Optional<Path> d = dir();
        Prerequisites.require(d.isPresent(), "shared corpus not found (../shared/corpus or JPTXAS_CORPUS)");
        return d.get();
    }

    /** Every row of the index; skips the calling test when the corpus is absent. */
    public static List<Entry> assumeEntries() {
        Path dir = assumeDir();
        try {
            List<String> lines = Files.readAllLines(dir.resolve("INDEX.tsv"), StandardCharsets.UTF_8);
            String[] header = lines.get(0).split("\t", -1);
            List<Entry> entries = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                if (line.isBlank()) {
                    continue;
                }
                String[] cells = line.split("\t", -1);
                Map<String, String> cols = new LinkedHashMap<>();
                for (int i = 0; i < header.length && i < cells.length; i++) {
                    cols.put(header[i], cells[i]);
                }
                String path = cols.getOrDefault("path", cols.getOrDefault("file", cells[0]));
                entries.add(new Entry(dir.resolve(path), cols));
            }
            return entries;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
