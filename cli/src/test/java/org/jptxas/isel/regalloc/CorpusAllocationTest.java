package org.jptxas.isel.regalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every ptxas-accepted corpus file the front end lowers goes through the -O3 passes and register allocation with the
 * verifier on (sm_80); register counts are compared with ptxas 13's.
 */
@Tag("slow")
class CorpusAllocationTest {
    @Test
    void corpusAllocatesAndVerifies() {
        Oracles.assumePtxas13();
        List<Corpus.Entry> entries = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).toList();
        List<PtxAllocation.Row> rows = Collections.synchronizedList(new ArrayList<>());
        List<String> unsupported = Collections.synchronizedList(new ArrayList<>());
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        long t0 = System.nanoTime();
        entries.parallelStream().forEach(e -> {
            try {
                rows.addAll(PtxAllocation.run(e.file(), Target.of("sm_80"), unsupported, true, true));
            } catch (Throwable t) {
                failures.add(e.file().getFileName() + ": " + t.getMessage());
            }
        });
        long ms = (System.nanoTime() - t0) / 1_000_000;
        List<PtxAllocation.Row> sorted = new ArrayList<>(rows);
        sorted.sort(java.util.Comparator.comparing(PtxAllocation.Row::file).thenComparing(PtxAllocation.Row::function));
        System.out.print(PtxAllocation.table(sorted));
        long spilled = sorted.stream().filter(r -> r.spillBytes() > 0).count();
        System.out.printf("corpus sm_80: %d files, %d functions allocated and verified (%d with spills), %d files not "
                + "lowered, %d failures, %d ms; register geomean ours/ptxas = %.3f%n", entries.size(), sorted.size(),
                spilled, unsupported.size(), failures.size(), ms, PtxAllocation.geomeanRatio(sorted));
        failures.forEach(System.out::println);
        assertEquals(List.of(), failures);
    }

    /** The same files under {@code --maxrregcount 24}: the large kernels spill, and every spill verifies. */
    @Test
    void corpusAllocatesUnderTheMinimumLimit() {
        List<Corpus.Entry> entries = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).toList();
        List<PtxAllocation.Row> rows = Collections.synchronizedList(new ArrayList<>());
        List<String> unsupported = Collections.synchronizedList(new ArrayList<>());
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        entries.parallelStream().forEach(e -> {
            try {
                rows.addAll(PtxAllocation.run(e.file(), Target.of("sm_80"), unsupported, false, true,
                        java.util.OptionalInt.of(24)));
            } catch (Throwable t) {
                failures.add(e.file().getFileName() + ": " + t.getMessage());
            }
        });
        long spilled = rows.stream().filter(r -> r.spillBytes() > 0).count();
        long bytes = rows.stream().mapToLong(PtxAllocation.Row::spillBytes).sum();
        System.out.printf("corpus sm_80 --maxrregcount 24: %d functions allocated and verified, %d spill "
                + "(%d bytes of spill slots in all), %d failures%n", rows.size(), spilled, bytes, failures.size());
        failures.forEach(System.out::println);
        assertEquals(List.of(), failures);
        for (PtxAllocation.Row r : rows) {
            org.junit.jupiter.api.Assertions.assertTrue(r.ours() <= 24, r.toString());
        }
    }
}
