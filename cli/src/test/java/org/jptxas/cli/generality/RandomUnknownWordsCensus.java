package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jptxas.cli.TextWords;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassInstruction;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every word of ptxas's cubins for the random programs (seeds 1 ... {@code jptxas.random.programs}) that jptxas's
 * decoder does not know, not only the first one a run stops on: {@code target/reports/random-unknown-words.tsv} (seed,
 * SM, word) shows which forms would let the most programs run on ptxas's code. A generator, run when asked
 * ({@code -DexcludedTestGroups=none -Dtest=RandomUnknownWordsCensus}).
 */
class RandomUnknownWordsCensus {
    @Test
    @Tag("tool")
    void listUnknownWords() throws IOException {
        Path ptxas = Oracles.assumePtxas13();
        int n = Integer.getInteger("jptxas.random.programs", RandomProgramDifferentialTest.CI_PROGRAMS);
        Path dir = Files.createTempDirectory("census");
        StringBuilder sb = new StringBuilder();
        int programs = 0;
        for (long seed = 1; seed <= n; seed++) {
            String sm = RandomDifferential.smOf(seed);
            Path ptx = dir.resolve("seed-" + seed + ".ptx");
            Files.writeString(ptx, RandomProgram.module(RandomProgram.generate(seed, sm), sm));
            OracleCubins.Compiled c = OracleCubins.compile(ptxas, ptx, sm);
            if (!c.ok()) {
                continue;
            }
            programs++;
            SassIsa isa = TestTargets.of(sm).isa();
            for (TextWords.Word w : TextWords.of(Files.readAllBytes(c.cubin().get()))) {
                if (!(isa.decodeForExecution(w.lo(), w.hi()) instanceof SassInstruction.Known)) {
                    sb.append(seed).append('\t').append(sm).append('\t').append(SassIsa.hex128(w.lo(), w.hi()))
                            .append('\n');
                }
            }
        }
        Path out = Files.createDirectories(Path.of("target", "reports")).resolve("random-unknown-words.tsv");
        Files.writeString(out, sb.toString(), StandardCharsets.UTF_8);
        System.out.println("census: " + programs + " programs, unknown words in " + out.toAbsolutePath());
        assertTrue(programs > 0);
    }
}
