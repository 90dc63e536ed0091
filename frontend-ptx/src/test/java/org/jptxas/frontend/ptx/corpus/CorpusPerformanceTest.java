package org.jptxas.frontend.ptx.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.jptxas.frontend.ptx.TestFrontEnds;

/**
 * Acceptance: parse+check of the whole shared corpus in one JVM takes less time than ptxas needs to compile the
 * corpus's five largest files. Both are timed by the wall clock in the same test, so a loaded machine slows both.
 */
@Tag("slow")
class CorpusPerformanceTest {
    @Test
    void wholeCorpusParsesAndChecksFasterThanPtxasCompilesItsFiveLargestFiles() {
        Path ptxas = Oracles.assumePtxas13();
        List<Corpus.Entry> accepted = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).toList();
        List<String> texts = accepted.stream().map(e -> CorpusFrontEndTest.read(e.file())).toList();

        long start = System.nanoTime();
        int rejected = 0;
        for (int i = 0; i < accepted.size(); i++) {
            Corpus.Entry e = accepted.get(i);
            try {
                TestFrontEnds.of(Target.of(e.arch())).check(e.file().getFileName().toString(), texts.get(i));
            } catch (CompilationException ex) {
                rejected++;
            }
        }
        long ours = System.nanoTime() - start;
        assertEquals(0, rejected);

        List<Corpus.Entry> largest = accepted.stream()
                .sorted(Comparator.comparingLong((Corpus.Entry e) -> e.file().toFile().length()).reversed()).limit(5).toList();
        long ptxasStart = System.nanoTime();
        for (Corpus.Entry e : largest) {
            Processes.Result r = Processes.run(List.of(ptxas.toString(), "-arch=" + e.arch(), e.file().toString(), "-o",
                    "/dev/null"), e.file().getParent());
            assertEquals(0, r.exitCode(), r.stderr());
        }
        long theirs = System.nanoTime() - ptxasStart;
        System.out.printf("parse+check of %d corpus files: %d ms; ptxas on the 5 largest: %d ms%n", accepted.size(),
                ours / 1_000_000, theirs / 1_000_000);
        assertTrue(ours < theirs, "front end " + ours / 1_000_000 + " ms vs ptxas " + theirs / 1_000_000 + " ms");
    }
}
