package org.jptxas.cli.generality;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jptxas.cli.generality.RandomDifferential.Outcome;
import org.jptxas.cli.generality.RandomProgram.Program;
import org.jptxas.cli.generality.ThreeWay.Compiled;
import org.jptxas.cli.generality.ThreeWay.Compiler;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Diagnosis aid for chosen random programs ({@code -Djptxas.random.seeds=2,11,...}): runs each three ways, reduces a
 * mismatch and writes the reduced PTX with ptxas's and jptxas's cubins for it to
 * {@code cli/target/reports/random-seeds/} (compare them with nvdisasm). A tool, not a check.
 */
class RandomSeedReduction {
    @Test
    @Tag("tool")
    void reduceChosenSeeds() throws Exception {
        Path ptxasPath = Oracles.assumePtxas13();
        Compiler ptxas = ThreeWay.ptxas(ptxasPath, Files.createTempDirectory("random"));
        Path dir = Files.createDirectories(Path.of("target", "reports", "random-seeds"));
        int budget = Integer.getInteger("jptxas.random.reduce", 300);
        for (String s : System.getProperty("jptxas.random.seeds", "").split(",")) {
            if (s.isBlank()) {
                continue;
            }
            long seed = Long.parseLong(s.trim());
            Outcome o = RandomDifferential.run(seed, ThreeWay.JPTXAS, ptxas);
            System.out.printf("seed %d %s %s: %s%n", seed, o.sm(), o.verdict(), o.detail().replace('\n', ' '));
            if (o.verdict().agrees || budget == 0) {
                continue;
            }
            Program p = RandomProgram.generate(seed, o.sm());
            Program small = Reducer.reduce(p, q -> RandomDifferential.stillFails(o, q, ThreeWay.JPTXAS, ptxas),
                    budget);
            Outcome again = RandomDifferential.run(seed, o.sm(), small, ThreeWay.JPTXAS, ptxas);
            String text = RandomProgramDifferentialTest.regressionText(o, again, small);
            Files.writeString(dir.resolve("seed-" + seed + ".ptx"), text, StandardCharsets.UTF_8);
            String module = RandomProgram.module(small, o.sm());
            Compiled theirs = ptxas.compile("rp.ptx", module, o.sm());
            Compiled ours = ThreeWay.JPTXAS.compile("rp.ptx", module, o.sm());
            if (theirs.ok()) {
                Files.write(dir.resolve("seed-" + seed + ".ptxas.cubin"), theirs.cubin());
            }
            if (ours.ok()) {
                Files.write(dir.resolve("seed-" + seed + ".jptxas.cubin"), ours.cubin());
            }
            System.out.printf("seed %d reduced %d -> %d statements: %s%n", seed, Reducer.size(p), Reducer.size(small),
                    again.detail().replace('\n', ' '));
        }
    }
}
