package org.jptxas.testing.gate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jptxas.testing.Prerequisites;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** The figures file, its README table, and the ratchet semantics of {@link Figures#check}. */
class FiguresTest {
    static final String BEGIN = "<!-- figures:begin (rendered from figures.tsv; FiguresTest checks it) -->";
    static final String END = "<!-- figures:end -->";

    @Test
    void theReadmeTableIsRenderedFromTheFiguresFile() throws IOException {
        Path root = RepoRoot.find().orElse(null);
        Prerequisites.require(root != null, "repository root not found");
        Path readme = root.resolve("README.md");
        String text = Files.readString(readme, StandardCharsets.UTF_8);
        int b = text.indexOf(BEGIN);
        int e = text.indexOf(END);
        assertTrue(b >= 0 && e > b, "README.md has no figures block (" + BEGIN + " ... " + END + ")");
        String rendered = Figures.markdownTable();
        String current = text.substring(b + BEGIN.length(), e).strip() + "\n";
        if (!current.equals(rendered) && Boolean.getBoolean("jptxas.figures.update")) {
            Files.writeString(readme, text.substring(0, b + BEGIN.length()) + "\n" + rendered + text.substring(e),
                    StandardCharsets.UTF_8);
            return;
        }
        assertEquals(rendered, current, "README's figures table differs from figures.tsv (-Djptxas.figures.update=true"
                + " rewrites it)");
    }

    @Test
    void everyFigureIsCheckedByTheTestItNames() throws IOException {
        Path root = RepoRoot.find().orElse(null);
        Prerequisites.require(root != null, "repository root not found");
        List<String> unchecked = new ArrayList<>();
        List<String> sources = new ArrayList<>();
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.filter(p -> p.toString().endsWith(".java") && p.toString().contains("/src/test/")).toList()) {
                sources.add(p.getFileName().toString().replace(".java", "") + "\n" + Files.readString(p));
            }
        }
        for (Figures.Figure f : Figures.all().values()) {
            String cls = f.test().contains("#") ? f.test().substring(0, f.test().indexOf('#')) : f.test();
            boolean found = sources.stream().anyMatch(src -> src.startsWith(cls + "\n")
                    && (src.contains("\"" + f.key() + "\"") || containsPrefixOf(src, f.key())));
            if (!found) {
                unchecked.add(f.key() + " (" + f.test() + ")");
            }
        }
        assertTrue(unchecked.isEmpty(), "figures no test checks under the key's name: " + unchecked);
    }

    /** A test may build keys as {@code "prefix." + sm}: its source then holds the key's prefix in quotes. */
    private static boolean containsPrefixOf(String src, String key) {
        int dot = key.lastIndexOf('.');
        while (dot > 0) {
            if (src.contains("\"" + key.substring(0, dot + 1) + "\"")) {
                return true;
            }
            dot = key.lastIndexOf('.', dot - 1);
        }
        return false;
    }

    @Test
    void aFigureHoldsAtItsPrecisionAndFailsBothWays() {
        var figures = Figures.parse("x.rate\t95.1\thigher\tT\tthe rate\ny.ratio\t1.03\tlower\tT\tthe ratio\n");
        Figures.Figure rate = figures.get("x.rate");
        assertEquals(new BigDecimal("95.1"), rate.value());
        assertEquals(Figures.Better.LOWER, figures.get("y.ratio").better());
        assertThrows(IllegalStateException.class, () -> Figures.parse("a\t1\thigher\tT\n"));
        assertThrows(IllegalStateException.class, () -> Figures.parse("a\t1\thigher\tT\tw\na\t2\thigher\tT\tw\n"));
    }

    @Test
    void checkComparesAtTheRecordedPrecision() {
        Figures.all().put("test.only.rate", new Figures.Figure("test.only.rate", new BigDecimal("95.1"),
                Figures.Better.HIGHER, "FiguresTest", "a rate"));
        try {
            Figures.check("test.only.rate", new BigDecimal("95.14"), false);
            Figures.check("test.only.rate", new BigDecimal("95.1000"), false);
            AssertionFailedError down = assertThrows(AssertionFailedError.class,
                    () -> Figures.check("test.only.rate", new BigDecimal("95.04"), false));
            assertTrue(down.getMessage().contains("regressed"), down.getMessage());
            AssertionFailedError up = assertThrows(AssertionFailedError.class,
                    () -> Figures.check("test.only.rate", new BigDecimal("95.16"), false));
            assertTrue(up.getMessage().contains("improved"), up.getMessage());
            assertThrows(AssertionFailedError.class, () -> Figures.checkPercent("test.only.rate", 0, 0));
            assertThrows(AssertionFailedError.class, () -> Figures.check("no.such.figure", 1));
        } finally {
            Figures.all().remove("test.only.rate");
        }
    }
}
