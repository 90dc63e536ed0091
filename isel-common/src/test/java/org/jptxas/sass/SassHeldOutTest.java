package org.jptxas.sass;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.jptxas.sass.probe.OracleSamples;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SASS tables' score: they were learned from ptxas 13 -O3 output of the corpus, the probe kernels and the kernel
 * suite ({@code tools/sass-probe}); here they decode output they were not learned from, and nvdisasm 12.5 judges:
 * ptxas 12.5 on every corpus file (another compiler: instruction selection, registers, offsets), and ptxas 13 at
 * -O1 (another instruction mix). Per SM: instructions, exact text, explicit UNKNOWN (a form the tables have not
 * seen) and wrong decodes, which fail the test: a decoded, known instruction must print exactly as nvdisasm. The
 * exact-text percentage and the UNKNOWN count are figures. Text nvdisasm takes from relocations is not counted. The
 * UNKNOWN words themselves go to {@code target/reports/heldout-unknown-SM-ptxas125.txt} / {@code -ptxas13-O1.txt}
 * (one line per distinct word: times seen, word hi..lo, nvdisasm's text), the input of
 * {@code tools/sass-probe/random-word-forms.py}.
 */
@Tag("slow")
class SassHeldOutTest {
    /** ptxas 12.5 refuses PTX newer than it knows and targets it does not have: such files are not compared. */
    static final List<String> PTXAS125_REFUSALS = List.of("Unsupported .version", "is not defined for option 'gpu-name'");

    /** Every accepted corpus file for {@code sm}, as {@code compile} writes it. */
    static List<SassOracleGate.Job> corpusJobs(String sm, String compiler, boolean ptxas125, String... options) {
        List<SassOracleGate.Job> jobs = new ArrayList<>();
        for (OracleSamples.Job j : OracleSamples.corpusJobs()) {
            if (j.sm().equals(sm)) {
                jobs.add(new SassOracleGate.Job(j.ptx().getFileName() + " " + j.arch() + " " + compiler, j.ptx(), j.arch(),
                        () -> ptxas125 ? OracleCubins.ptxas125(j.ptx(), j.arch(), options)
                                : OracleCubins.ptxas13(j.ptx(), j.arch(), options)));
            }
        }
        return jobs;
    }

    /** Scores {@code jobs}; returns the counts after checking the gate (no wrong decode, no oracle failure). */
    static SassOracleGate.Counts score(String sm, String what, List<SassOracleGate.Job> jobs, List<String> refusals)
            throws IOException {
        Gate gate = Gate.withKnown("SASS held-out " + sm + " (" + what + ")", java.util.Map.of());
        SassOracleGate.Counts n = SassOracleGate.check(jobs, gate, SassOracleGate.NVDISASM, refusals,
                SassOracleGate.Codec.of(sm), false, SassOracleGate.UnknownIs.COUNTED);
        int scored = n.instructions().get() - n.relocated().get();
        System.out.printf("%s held-out (%s, %d of %d files): %d instructions, %d exact (%.2f%%), %d UNKNOWN, %d wrong%n",
                sm, what, n.cubins().get(), jobs.size(), scored, n.exactText().get(),
                100.0 * n.exactText().get() / Math.max(1, scored), n.unknown().get(), gate.differences().size()
                        - n.relocated().get());
        System.out.println("  UNKNOWN by opcode: " + new TreeMap<>(n.unknownByOpcode()));
        List<String> words = new ArrayList<>();
        new TreeMap<>(n.unknownWords()).forEach((w, k) -> words.add(k + "\t" + w));
        Path reports = Files.createDirectories(Path.of("target", "reports"));
        Files.write(reports.resolve("heldout-unknown-" + sm + "-" + what.replace(" ", "").replace(".", "") + ".txt"),
                words);
        System.out.println("  " + gate.summary());
        // Relocation-dependent text is the one exception, by opcode as in SassDifferentialTest.
        Gate wrong = Gate.named(gate.name());
        gate.oracleFailures().forEach(f -> wrong.oracleFailed(f, ""));
        gate.crashes().forEach(c -> wrong.crash(c, new AssertionError("see above")));
        gate.differences().stream().filter(d -> !d.startsWith("relocation-dependent text: "))
                .forEach(d -> wrong.differ(d, "wrong decode"));
        wrong.pass(scored);
        wrong.verify(1);
        return n;
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void ptxas125OutputDecodesExactlyOrAsUnknown(String sm) throws IOException {
        SassOracleGate.Counts n = score(sm, "ptxas 12.5", corpusJobs(sm, "ptxas 12.5", true), PTXAS125_REFUSALS);
        int scored = n.instructions().get() - n.relocated().get();
        Figures.check("sass.heldout.instructions." + sm, scored);
        Figures.checkPercent("sass.heldout.exact." + sm, n.exactText().get(), scored);
        Figures.check("sass.heldout.unknown." + sm, n.unknown().get());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void ptxas13O1OutputDecodesExactlyOrAsUnknown(String sm) throws IOException {
        SassOracleGate.Counts n = score(sm, "ptxas 13 -O1", corpusJobs(sm, "ptxas 13 -O1", false, "-O1"),
                List.of("Optimized debugging not supported")); // -O1 refuses debug-information PTX (it needs -O0)
        int scored = n.instructions().get() - n.relocated().get();
        Figures.check("sass.heldout.o1.instructions." + sm, scored);
        Figures.checkPercent("sass.heldout.o1.exact." + sm, n.exactText().get(), scored);
        Figures.check("sass.heldout.o1.unknown." + sm, n.unknown().get());
    }
}
