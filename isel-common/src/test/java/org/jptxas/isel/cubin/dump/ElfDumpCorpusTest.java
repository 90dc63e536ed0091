package org.jptxas.isel.cubin.dump;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jptxas.isel.cubin.Cubin;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ElfDump} against CUDA 12.5 {@code cuobjdump -elf} on the ptxas 13 corpus cubins for sm_75 (executable) and
 * sm_90 ({@code -c}), block by block as in {@link ElfDumpOracleTest}. Reports how many dumps agree in every block.
 */
@Tag("slow")
class ElfDumpCorpusTest {
    @Test
    void blocksEqualCuobjdumpOnTheCorpus() throws Exception {
        Path cuobjdump = Oracles.assumeCuobjdump();
        List<Path> cubins = new ArrayList<>();
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            if (!e.ptxasAccepts()) {
                continue;
            }
            // Two shapes within the CI budget: pre-Hopper executables and Hopper relocatable objects.
            OracleCubins.ptxas13(e.file(), "sm_75").cubin().ifPresent(cubins::add);
            OracleCubins.ptxas13(e.file(), "sm_90", "-c").cubin().ifPresent(cubins::add);
        }
        AtomicInteger equal = new AtomicInteger();
        ConcurrentLinkedQueue<String> diffs = new ConcurrentLinkedQueue<>();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (Path p : cubins) {
                futures.add(pool.submit(() -> {
                    Processes.Result r = Processes.run(List.of(cuobjdump.toString(), "-elf", p.toString()), p.getParent());
                    if (r.exitCode() != 0) {
                        return;
                    }
                    Map<String, String> expected = ElfDumpOracleTest.blocks(r.stdout());
                    Map<String, String> actual;
                    try {
                        actual = ElfDumpOracleTest.blocks(ElfDump.print(Cubin.read(Files.readAllBytes(p))));
                    } catch (Exception e) {
                        diffs.add(p.getFileName() + ": " + e);
                        return;
                    }
                    for (String key : expected.keySet()) {
                        if (!expected.get(key).equals(actual.get(key))) {
                            diffs.add(p.getFileName() + " block " + key + "\n" + firstDifference(expected.get(key), actual.get(key)));
                            return;
                        }
                    }
                    if (!expected.keySet().equals(actual.keySet())) {
                        diffs.add(p.getFileName() + " blocks " + expected.keySet() + " vs " + actual.keySet());
                        return;
                    }
                    equal.incrementAndGet();
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        System.out.printf("-elf dump: %d of %d corpus cubins equal to cuobjdump 12.5 in every block%n", equal.get(),
                equal.get() + diffs.size());
        diffs.stream().limit(12).forEach(System.out::println);
        assertTrue(equal.get() >= (equal.get() + diffs.size()) * 9 / 10, equal.get() + " equal");
    }

    private static String firstDifference(String expected, String actual) {
        if (actual == null) {
            return "  (block missing)";
        }
        String[] e = expected.split("\n");
        String[] a = actual.split("\n");
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String x = i < e.length ? e[i] : "(end)";
            String y = i < a.length ? a[i] : "(end)";
            if (!x.equals(y)) {
                return "  line " + i + "\n  cuobjdump: " + abbreviate(x) + "\n  jptxas:    " + abbreviate(y);
            }
        }
        return "  (equal?)";
    }

    private static String abbreviate(String s) {
        if (s == null) {
            return "(missing)";
        }
        return s.length() > 600 ? s.substring(0, 600) + "..." : s;
    }
}
