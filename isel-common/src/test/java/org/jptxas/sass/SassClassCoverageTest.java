package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.jptxas.sass.oracle.NvdisasmListing;
import org.jptxas.sass.probe.OracleSamples;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/**
 * Issue 4, "each SASS class ptxas can emit for these SMs is either covered or listed": compiles the corpus, the
 * kernel suite and the probe kernels ({@code tools/sass-probe/kernels}, some also with {@code -c}) with ptxas 13 for
 * sm_75 ... sm_90, lists per SM every opcode class in the output and the classes of which some instruction still
 * decodes as UNKNOWN, and fails if such a class is not in {@link #KNOWN_UNKNOWN} with a reason. A listed class that
 * no longer decodes UNKNOWN anywhere fails too, so the list cannot go stale.
 */
@Tag("slow")
class SassClassCoverageTest {
    /** Opcode classes allowed to decode UNKNOWN somewhere in the ptxas 13 output, each with the reason. */
    static final Map<String, String> KNOWN_UNKNOWN = Map.of(); // CALL.ABS.NOINC decodes since the -c call forms

    @Test
    void everyEmittedClassDecodesOrIsListed() {
        Map<String, TreeSet<String>> classesBySm = new TreeMap<>();
        Map<String, TreeMap<String, Integer>> unknownBySm = new TreeMap<>();
        List<String> examples = new ArrayList<>();
        List<String> oracleFailures = new ArrayList<>();
        for (String sm : OracleSamples.SMS) {
            List<OracleSamples.Job> jobs = new ArrayList<>();
            for (OracleSamples.Job j : OracleSamples.corpusJobs()) {
                if (j.sm().equals(sm)) {
                    jobs.add(j);
                }
            }
            for (OracleSamples.Job j : OracleSamples.kernelJobs()) {
                if (j.sm().equals(sm)) {
                    jobs.add(j);
                }
            }
            SassIsa isa = TestTargets.of(sm).isa();
            TreeSet<String> classes = classesBySm.computeIfAbsent(sm, k -> new TreeSet<>());
            TreeMap<String, Integer> unknown = unknownBySm.computeIfAbsent(sm, k -> new TreeMap<>());
            int instructions = 0;
            for (OracleSamples.Result r : OracleSamples.run(jobs)) {
                if (r.listing() == null) {
                    oracleFailures.add(sm + " " + r.job().ptx().getFileName() + ": " + r.error());
                    continue;
                }
                for (NvdisasmListing.Section s : r.listing().sections()) {
                    for (NvdisasmListing.Line l : s.lines()) {
                        instructions++;
                        String cls = SassDifferentialTest.opcodeOf(l.text());
                        classes.add(cls);
                        if (isa.decode(l.lo(), l.hi()) instanceof SassInstruction.Unknown) {
                            if (unknown.merge(cls, 1, Integer::sum) <= 2 && examples.size() < 40) {
                                examples.add(sm + " " + r.job().ptx().getFileName() + (r.job().relocatable() ? " -c" : "")
                                        + ": " + l.text() + " /* " + SassIsa.hex128(l.lo(), l.hi()) + " */");
                            }
                        }
                    }
                }
            }
            System.out.printf("%s: %d jobs, %d instructions, %d opcode classes, %d decoding UNKNOWN somewhere %s%n",
                    sm, jobs.size(), instructions, classes.size(), unknown.size(), unknown);
            System.out.println("  classes: " + String.join(" ", classes));
            assertTrue(instructions > 0, "no instructions for " + sm);
        }
        examples.forEach(e -> System.out.println("  UNKNOWN e.g. " + e));
        // Every job is a file ptxas 13 accepts for an SM its .target allows: a failed compilation or listing would
        // drop its classes silently.
        assertTrue(oracleFailures.isEmpty(), "ptxas 13 or nvdisasm failed on: " + oracleFailures);
        TreeSet<String> unlisted = new TreeSet<>();
        TreeSet<String> everUnknown = new TreeSet<>();
        unknownBySm.values().forEach(m -> everUnknown.addAll(m.keySet()));
        for (String cls : everUnknown) {
            if (!KNOWN_UNKNOWN.containsKey(cls)) {
                unlisted.add(cls);
            }
        }
        TreeSet<String> stale = new TreeSet<>(KNOWN_UNKNOWN.keySet());
        stale.removeAll(everUnknown);
        assertTrue(unlisted.isEmpty(), "classes decoding UNKNOWN without a listed reason: " + unlisted
                + "\n" + String.join("\n", examples));
        assertTrue(stale.isEmpty(), "listed as UNKNOWN but now decode everywhere (remove from KNOWN_UNKNOWN): " + stale);
    }
}
