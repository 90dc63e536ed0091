package org.jptxas.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Shared code asks a backend's target description what a target has ({@code TargetFeature}) instead of comparing SM
 * numbers. This scan counts the numeric SM comparisons ({@code sm() >= 90}, {@code sm < 80}, {@code 90 <= sm}) left
 * in the main sources of every module except those where the number is the rule itself: the front end's checker
 * ({@code frontend-ptx/.../check}, the PTX ISA's "Target ISA notes"), the simulator (it models each chip) and the
 * backends (each describes its own targets). A comparison may stay only where {@link #EXPLAINED} says why.
 */
class SmComparisonsTest {
    /** A numeric comparison of an SM number, either way round. */
    static final Pattern COMPARISON = Pattern.compile(
            "(?:\\bsm|\\.sm\\(\\)) *(?:>=|<=|<|>|==|!=) *\\d{2,3}\\b"
                    + "|\\b\\d{2,3} *(?:>=|<=|<|>|==|!=) *(?:[\\w.()]*\\.)?(?:sm\\(\\)|sm\\b)");

    /** The comparisons allowed to stay, by file (from the repository root): how many, and why. */
    static final Map<String, Explained> EXPLAINED = Map.of(
            "cli/src/main/java/org/jptxas/cli/OptionMessages.java", new Explained(1,
                    "ptxas's note on -g-tmem-access-check depends on the SM number of the module's .target (tensor"
                            + " memory from sm_100 on), a PTX-level fact of a target no backend may describe"));

    record Explained(int count, String why) {}

    @Test
    void patternFindsComparisonsEitherWayRound() {
        assertEquals(1, count("if (cx.target().sm() < 90) {"));
        assertEquals(1, count("boolean hopper = sm >= 90;"));
        assertEquals(1, count("if (90 <= target.sm()) {"));
        assertEquals(2, count("sm == 75 || sm != 80"));
        assertEquals(0, count("if (g.minSm() > target.sm()) {"));
        assertEquals(0, count("return \"sm_\" + sm;"));
        assertEquals(0, count("if (asm >= 100) {"));
    }

    @Test
    void sharedCodeComparesNoSmNumbersBeyondTheExplainedOnes() throws IOException {
        Optional<Path> root = RepoRoot.find();
        assumeTrue(root.isPresent(), "repository root not found");
        Map<String, Integer> found = scan(root.get());
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, Integer> e : found.entrySet()) {
            Explained allowed = EXPLAINED.get(e.getKey());
            int limit = allowed == null ? 0 : allowed.count();
            if (e.getValue() > limit) {
                problems.add(e.getKey() + ": " + e.getValue() + " numeric SM comparison(s), " + limit
                        + " explained; ask the target description (TargetFeature) or gate it in the checker");
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
        assertTrue(found.values().stream().mapToInt(Integer::intValue).sum()
                <= EXPLAINED.values().stream().mapToInt(Explained::count).sum());
        assertTrue(found.size() > 0 || EXPLAINED.isEmpty(), "the scan found no explained comparison: is it reading?");
    }

    /** Numeric SM comparisons per main source file of the shared modules, by path from {@code root}. */
    static Map<String, Integer> scan(Path root) throws IOException {
        Map<String, Integer> out = new TreeMap<>();
        try (Stream<Path> modules = Files.list(root)) {
            for (Path module : modules.filter(SmComparisonsTest::shared).sorted().toList()) {
                Path sources = module.resolve("src/main/java");
                if (!Files.isDirectory(sources)) {
                    continue;
                }
                try (Stream<Path> files = Files.walk(sources)) {
                    for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                        String name = root.relativize(f).toString().replace('\\', '/');
                        if (name.startsWith("frontend-ptx/src/main/java/org/jptxas/frontend/ptx/check/")) {
                            continue;
                        }
                        int n = count(read(f));
                        if (n > 0) {
                            out.put(name, n);
                        }
                    }
                }
            }
        }
        return out;
    }

    private static boolean shared(Path module) {
        String name = module.getFileName().toString();
        return Files.isDirectory(module) && !name.startsWith(".") && !name.startsWith("backend-")
                && !name.equals("simulator");
    }

    static int count(String text) {
        Matcher m = COMPARISON.matcher(text);
        int n = 0;
        while (m.find()) {
            n++;
        }
        return n;
    }

    private static String read(Path f) {
        try {
            return Files.readString(f);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
