package org.jptxas.testing.gate;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.testing.RepoRoot;
import org.opentest4j.AssertionFailedError;

/**
 * The figures the README quotes, each held by a test ({@code figures.tsv} beside this class; the README's table of
 * them is rendered from the file and checked against it). A test measures a figure and calls {@link #check}: the
 * measurement, rounded to the figure's recorded precision, must equal it. Worse is a regression; better fails too,
 * so the README never understates or overstates what the tests assert — record it with
 * {@code -Djptxas.figures.update=true}, which rewrites the row in the source tree instead of failing.
 */
public final class Figures {
    private Figures() {}

    static final String RESOURCE = "figures.tsv";
    static final Path SOURCE = Path.of("test-support", "src", "main", "resources", "org", "jptxas", "testing", "gate",
            RESOURCE);

    /** Which direction is an improvement. */
    public enum Better { HIGHER, LOWER, EXACT }

    /** One row: the figure's key, its value (its scale is the precision it is checked at), and what it measures. */
    public record Figure(String key, BigDecimal value, Better better, String test, String what) {
        String row() {
            return String.join("\t", key, value.toPlainString(), better.name().toLowerCase(), test, what);
        }
    }

    private static Map<String, Figure> loaded;

    /** Every figure, in file order. */
    public static synchronized Map<String, Figure> all() {
        if (loaded == null) {
            try (InputStream in = Figures.class.getResourceAsStream(RESOURCE)) {
                if (in == null) {
                    throw new IllegalStateException("no " + RESOURCE + " beside " + Figures.class.getName());
                }
                loaded = parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return loaded;
    }

    static Map<String, Figure> parse(String text) {
        Map<String, Figure> out = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] c = line.split("\t", -1);
            if (c.length != 5) {
                throw new IllegalStateException(RESOURCE + ": expected 5 tab-separated columns: " + line);
            }
            Figure f = new Figure(c[0], new BigDecimal(c[1]), Better.valueOf(c[2].toUpperCase()), c[3], c[4]);
            if (out.put(f.key(), f) != null) {
                throw new IllegalStateException(RESOURCE + ": figure " + f.key() + " twice");
            }
        }
        return out;
    }

    public static Figure get(String key) {
        Figure f = all().get(key);
        if (f == null) {
            throw new AssertionFailedError("no figure '" + key + "' in " + RESOURCE + " (add the row it measures)");
        }
        return f;
    }

    /** Checks a measured count. */
    public static void check(String key, long measured) {
        check(key, BigDecimal.valueOf(measured));
    }

    /** Checks a measured ratio or percentage at the figure's precision. */
    public static void check(String key, double measured) {
        check(key, BigDecimal.valueOf(measured));
    }

    /** Checks {@code part / whole} as a percentage at the figure's precision. */
    public static void checkPercent(String key, long part, long whole) {
        if (whole <= 0) {
            throw new AssertionFailedError(key + ": nothing measured (" + part + " of " + whole + ")");
        }
        check(key, BigDecimal.valueOf(part).multiply(BigDecimal.valueOf(100))
                .divide(BigDecimal.valueOf(whole), 10, RoundingMode.HALF_UP));
    }

    static void check(String key, BigDecimal measured) {
        check(key, measured, Boolean.getBoolean("jptxas.figures.update"));
    }

    static void check(String key, BigDecimal measured, boolean update) {
        Figure f = get(key);
        BigDecimal m = measured.setScale(f.value().scale(), RoundingMode.HALF_UP);
        int cmp = m.compareTo(f.value());
        System.out.println("figure " + key + ": measured " + m.toPlainString() + ", recorded " + f.value().toPlainString());
        if (cmp == 0) {
            return;
        }
        boolean better = f.better() == Better.HIGHER ? cmp > 0 : f.better() == Better.LOWER && cmp < 0;
        if (better && update) {
            record(f, m);
            return;
        }
        throw new AssertionFailedError(better
                ? key + " improved to " + m.toPlainString() + " from " + f.value().toPlainString() + " (" + f.what()
                        + "): record it in " + RESOURCE + " and the README (-Djptxas.figures.update=true)"
                : key + " regressed to " + m.toPlainString() + " from " + f.value().toPlainString() + " (" + f.what()
                        + ")");
    }

    /** Rewrites the figure's row in the source tree (update mode). */
    private static synchronized void record(Figure f, BigDecimal measured) {
        Path file = RepoRoot.find().orElseThrow(() -> new AssertionFailedError("repository root not found"))
                .resolve(SOURCE);
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
            Figure updated = new Figure(f.key(), measured, f.better(), f.test(), f.what());
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).startsWith(f.key() + "\t")) {
                    lines.set(i, updated.row());
                }
            }
            Files.write(file, lines, StandardCharsets.UTF_8);
            all().put(f.key(), updated);
            System.out.println("figure " + f.key() + " recorded: " + measured.toPlainString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The README's table of figures. */
    public static String markdownTable() {
        StringBuilder sb = new StringBuilder("| figure | value | held by |\n|---|---|---|\n");
        for (Figure f : all().values()) {
            sb.append("| ").append(f.what()).append(" | ").append(f.value().toPlainString())
                    .append(f.better() == Better.HIGHER ? " (floor)" : f.better() == Better.LOWER ? " (ceiling)" : "")
                    .append(" | `").append(f.test()).append("` |\n");
        }
        return sb.toString();
    }
}
