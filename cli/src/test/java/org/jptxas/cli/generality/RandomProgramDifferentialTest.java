package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.LongStream;
import org.jptxas.cli.generality.RandomDifferential.Outcome;
import org.jptxas.cli.generality.RandomDifferential.Verdict;
import org.jptxas.cli.generality.RandomProgram.Gap;
import org.jptxas.cli.generality.RandomProgram.Program;
import org.jptxas.cli.generality.ThreeWay.Compiler;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's random-program differential: programs from {@link RandomProgram} (seeds 1 ... N, each on one of sm_75 ...
 * sm_90), compiled by jptxas and ptxas 13 and run three ways. Every program must agree; a mismatch is reduced
 * ({@link Reducer}) and written to {@code cli/target/reports/random-programs/} for a regression case
 * ({@code RandomProgramRegressionTest}). CI runs {@value #CI_PROGRAMS} programs, whose counts are figures;
 * {@code -Djptxas.random.programs=N} (scripts/random-differential) runs more and prints the numbers.
 */
class RandomProgramDifferentialTest {
    static final int CI_PROGRAMS = 300;

    /**
     * Programs whose ptxas cubin differs by the ptxas 13 bfe.s32 fold (a start past the msb gives -1 where the PTX
     * ISA replicates a's sign bit), each reduced to it (RandomSeedReduction): seed, SM, the bfe and what it feeds.
     */
    private static final String[][] BFE_FOLDS = {
            {"11", "sm_80", "bfe.s32 d, a, 34, 16 times a >> 30 (random/seed-11-ptxas-bfe-fold.ptx)"},
            {"17", "sm_86", "bfe.s32 d, a, 59, 36 xored into the output"},
            {"44", "sm_90", "bfe.s32 d, a, 66, 39 ored into a mul.wide.s32 factor"},
            {"116", "sm_80", "bfe.s32 d, a, 39, 42 compared with a (ptxas branches on a == -1)"},
            {"123", "sm_89", "bfe.s32 d, a, 57, b added to the output"},
            {"128", "sm_89", "bfe.s32 d, a, 55, 37 as the output"},
            {"165", "sm_75", "bfe.s32 d, a, 66, 68 anded into a rem.s32 divisor"},
            {"200", "sm_75", "bfe.s32 d, a, 50, 65 compared with a + a"},
            {"224", "sm_90", "bfe.s32 d, a, 65, 11 times a constant"},
            {"227", "sm_86", "bfe.s32 d, a, 68, 15 in a max.s32"},
            {"229", "sm_90", "bfe.s32 d, a, 46, 15 compared, choosing a branch"},
            // runs since the emulator reads IMAD.HI.U32 with a constant-bank c
            {"288", "sm_89", "bfe.s32 d, a, 65, 49 counted by popc (32 in ptxas's cubin, 0 for a >= 0)"},
    };

    /**
     * Programs that do not agree, with why (exact: one that agrees again fails as stale). Seeds beyond the CI run
     * are not listed: the long run reports them.
     */
    static final Map<String, String> KNOWN = known();

    private static Map<String, String> known() {
        Map<String, String> m = new java.util.TreeMap<>();
        m.put("seed 279", "a ptxas 13 finding: it folds bfe.s32 d, a, 56, 54 (start past the msb) to -1 for any a,"
                + " where the PTX ISA fills d with a's replicated sign bit (0 for a >= 0); jptxas's cubin computes"
                + " the interpreter's outputs (random/seed-279-ptxas-bfe-fold.ptx)");
        // the same fold, seen once the emulator could run ptxas's code (PRMT/FCHK/I2F/BREAK forms decoded)
        m.put("seed 169", "the ptxas 13 bfe.s32 fold: bfe.s32 d, a, 44, 69 gives -1 in ptxas's cubin, a's sign bit"
                + " (here 0) in the interpreter and jptxas's cubin; the quotient that follows differs");
        m.put("seed 245", "the ptxas 13 bfe.s32 fold: bfe.s32 d, a, 43, 18 gives -1 in ptxas's cubin, a's sign bit"
                + " (here 0) in the interpreter and jptxas's cubin; max.s32 with it differs");
        for (String[] s : BFE_FOLDS) {
            m.put("seed " + s[0], "the ptxas 13 bfe.s32 fold on " + s[1] + ": " + s[2] + "; the interpreter and"
                    + " jptxas's cubin agree");
        }
        m.put("seed 2", "a ptxas 13 finding on sm_86: lop3.b32 t, x, y, y, 0xba (x | y), then t ^ y ^ imm, becomes"
                + " LOP3.LUT d, y, imm, x, 0xf2 (y | ~y & ~imm & x) where the PTX computes imm ^ (x & ~y); the"
                + " interpreter and jptxas's cubin agree (random/seed-2-ptxas-lop3-fold.ptx)");
        return m;
    }

    /** The gate over outcomes: agreeing programs pass, crashes fail by name, anything else must be listed. */
    static Gate gate(List<Outcome> outcomes, Map<String, String> known) {
        Gate gate = Gate.withKnown("random programs three ways", known);
        for (Outcome o : outcomes) {
            if (o.verdict().agrees) {
                gate.pass();
            } else if (o.verdict() == Verdict.JPTXAS_CRASH) {
                gate.crash("seed " + o.seed(), new AssertionError(o.detail()));
            } else {
                gate.differ("seed " + o.seed(), o.sm() + " " + o.verdict() + ": " + o.detail());
            }
        }
        return gate;
    }

    static List<Outcome> runAll(long from, int n, Compiler jptxas, Compiler ptxas, int parallelism) {
        List<Outcome> out = Collections.synchronizedList(new ArrayList<>());
        ForkJoinPool pool = new ForkJoinPool(parallelism);
        try {
            pool.submit(() -> LongStream.range(from, from + n).parallel()
                    .forEach(s -> out.add(RandomDifferential.run(s, jptxas, ptxas)))).join();
        } finally {
            pool.shutdown();
        }
        List<Outcome> sorted = new ArrayList<>(out);
        sorted.sort((a, b) -> Long.compare(a.seed(), b.seed()));
        return sorted;
    }

    @Test
    @Tag("slow") // about 2 minutes on 2 cores for 300 programs with ptxas's cubins cached
    void randomProgramsAgreeThreeWays() throws IOException {
        Path ptxasPath = Oracles.assumePtxas13();
        int n = Integer.getInteger("jptxas.random.programs", CI_PROGRAMS);
        long from = Long.getLong("jptxas.random.from", 1);
        Compiler ptxas = ThreeWay.ptxas(ptxasPath, Files.createTempDirectory("random"));
        long t0 = System.nanoTime();
        List<Outcome> outcomes = runAll(from, n, ThreeWay.JPTXAS, ptxas, 2);
        Map<Verdict, Integer> tally = new TreeMap<>();
        outcomes.forEach(o -> tally.merge(o.verdict(), 1, Integer::sum));
        System.out.printf("random programs %d..%d: %s (%.0f s)%n", from, from + n - 1, tally,
                (System.nanoTime() - t0) / 1e9);
        report(outcomes, ThreeWay.JPTXAS, ptxas);
        Gate gate = gate(outcomes, n == CI_PROGRAMS && from == 1 ? KNOWN : Map.of());
        System.out.println(gate.summary());
        if (n == CI_PROGRAMS && from == 1) {
            Figures.check("random.programs", outcomes.size());
            // a ptxas mismatch is only judged once jptxas's cubin agreed
            Figures.check("random.agree.jptxas", outcomes.stream().filter(o -> o.verdict().agrees
                    || o.verdict() == Verdict.PTXAS_MISMATCH).count());
            Figures.check("random.agree.three", outcomes.stream().filter(o -> o.verdict() == Verdict.AGREE).count());
        }
        gate.verify(n);
    }

    /** Writes every outcome, and each mismatch reduced, to cli/target/reports/random-programs/. */
    static void report(List<Outcome> outcomes, Compiler jptxas, Compiler ptxas) throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "reports", "random-programs"));
        StringBuilder sb = new StringBuilder();
        int reduced = 0;
        for (Outcome o : outcomes) {
            sb.append(o.seed()).append('\t').append(o.sm()).append('\t').append(o.verdict()).append('\t')
                    .append(o.detail()).append('\n');
            if (!o.verdict().agrees && o.verdict() != Verdict.PTXAS_REJECTS && reduced < 10) {
                reduced++;
                Program p = RandomProgram.generate(o.seed(), o.sm());
                Program small = Reducer.reduce(p, q -> RandomDifferential.stillFails(o, q, jptxas, ptxas), 400);
                Outcome again = RandomDifferential.run(o.seed(), o.sm(), small, jptxas, ptxas);
                Files.writeString(dir.resolve("seed-" + o.seed() + ".ptx"), regressionText(o, again, small),
                        StandardCharsets.UTF_8);
                System.out.printf("seed %d (%s, %s): reduced from %d to %d statements%n", o.seed(), o.sm(),
                        o.verdict(), Reducer.size(p), Reducer.size(small));
            }
        }
        Files.writeString(dir.resolve("outcomes.tsv"), sb.toString(), StandardCharsets.UTF_8);
    }

    /**
     * A reduced program as a regression case: its header says the seed, the SM, the outputs and what happened, to
     * the reduced program ({@code reduced}: its first differing value may not be the whole program's, which
     * {@code found} says; the reducer keeps any program with the same verdict).
     */
    static String regressionText(Outcome found, Outcome reduced, Program p) {
        StringBuilder sb = new StringBuilder();
        sb.append("// random program seed ").append(found.seed()).append(", reduced; found on ").append(found.sm())
                .append(": ").append(found.verdict()).append('\n');
        sb.append("// detail: ").append(reduced.detail().replace('\n', ' ')).append('\n');
        sb.append("// unreduced: ").append(found.detail().replace('\n', ' ')).append('\n');
        sb.append("// seed: ").append(found.seed()).append('\n');
        sb.append("// out:");
        p.vars().forEach(v -> sb.append(' ').append(v.ty().name));
        sb.append('\n');
        sb.append("// expected: jptxas's cubin computes the interpreter's outputs on sm_75, sm_80, sm_86, sm_89, sm_90\n");
        sb.append(RandomProgram.module(p, "sm_75"));
        return sb.toString();
    }

    @Test
    void programsAreDeterministicAndValid() throws Exception {
        for (long seed = 1; seed <= 15; seed++) {
            String sm = RandomDifferential.smOf(seed);
            String a = RandomProgram.module(RandomProgram.generate(seed, sm), sm);
            assertEquals(a, RandomProgram.module(RandomProgram.generate(seed, sm), sm), "seed " + seed);
            TestFrontEnds.of(sm).check("rp.ptx", a);
        }
    }

    /**
     * The gaps the programs avoid are what Gap says: every probe compiles on every SM now (Gap.RESULTS_DIFFER: the
     * programs avoid them for their results), so a probe that stops compiling, or a gap the front end refuses,
     * fails here.
     */
    @Test
    void avoidedGapsAreStillOpen() {
        List<String> notCompiling = new ArrayList<>();
        for (Gap g : Gap.values()) {
            for (String sm : RandomDifferential.SMS) {
                ThreeWay.Compiled c = ThreeWay.JPTXAS.compile("probe.ptx", g.probeModule(sm), sm);
                if (!c.ok()) {
                    notCompiling.add(g + " on " + sm + " (" + FormSuite.compileKind(c) + ")");
                }
            }
        }
        assertEquals(List.of(), notCompiling, "gaps avoided for their results (" + Gap.RESULTS_DIFFER
                + ") that no longer compile");
        assertTrue(Gap.values().length > 0);
    }
}
