package org.jptxas.isel.sass;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.isel.sass.oracle.NvdisasmListing;
import org.jptxas.isel.sass.oracle.OracleListings;
import org.jptxas.isel.sass.probe.FormLearner;
import org.jptxas.isel.sass.probe.OracleSamples;
import org.jptxas.isel.sass.probe.Sample;
import org.jptxas.testing.OracleCubins;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Generalization check: the tables were derived from ptxas 13 output; here every 4th corpus file is compiled with
 * ptxas 12.5 instead (different instruction selection, registers, offsets) and decoded. Reports how many
 * instructions decode to nvdisasm's exact text, how many are explicitly UNKNOWN (a form the tables have not seen),
 * and asserts there are no silent wrong answers: a decoded, known instruction must print exactly as nvdisasm.
 */
@Tag("slow")
class SassHeldOutTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_90"})
    void ptxas125OutputDecodesExactlyOrAsUnknown(String sm) {
        List<OracleSamples.Job> jobs = new ArrayList<>();
        List<OracleSamples.Job> all = OracleSamples.corpusJobs();
        for (int i = 0; i < all.size(); i++) {
            if (all.get(i).sm().equals(sm) && i % 4 == 0) {
                jobs.add(all.get(i));
            }
        }
        SassIsa isa = SassIsa.forSm(sm);
        int checked = 0, exact = 0, unknown = 0;
        Map<String, Integer> unknownOps = new TreeMap<>();
        List<String> wrong = new ArrayList<>();
        List<String> unknownSamples = new ArrayList<>();
        for (OracleSamples.Job j : jobs) {
            OracleCubins.Compiled c = OracleCubins.ptxas125(j.ptx(), j.arch());
            if (!c.ok()) {
                continue;
            }
            NvdisasmListing listing;
            try {
                listing = OracleListings.cubin(c.cubin().orElseThrow());
            } catch (RuntimeException e) {
                continue;
            }
            for (NvdisasmListing.Section s : listing.sections()) {
                for (NvdisasmListing.Line l : s.lines()) {
                    if (FormLearner.needsRelocation(new Sample(l.lo(), l.hi(), l.address(), l.text(), s.labels()))) {
                        continue;
                    }
                    checked++;
                    SassInstruction inst = isa.decode(l.lo(), l.hi());
                    String text = SassPrinter.text(inst, l.address(), a -> FormLearner.labelAt(s.labels(), a));
                    if (text.equals(l.text())) {
                        exact++;
                    } else if (inst instanceof SassInstruction.Unknown) {
                        unknown++;
                        if (unknownOps.merge(SassDifferentialTest.opcodeOf(l.text()), 1, Integer::sum) <= 3) {
                            unknownSamples.add(l.text() + String.format(" /* %016x%016x */", l.hi(), l.lo()));
                        }
                    } else if (wrong.size() < 30) {
                        wrong.add("want '" + l.text() + "' got '" + text + "'" + String.format(" /* %016x%016x */", l.hi(), l.lo()));
                    }
                }
            }
        }
        int silent = checked - exact - unknown;
        System.out.printf("%s held-out (ptxas 12.5, %d files): %d instructions, %d exact (%.2f%%), %d UNKNOWN, %d wrong%n",
                sm, jobs.size(), checked, exact, 100.0 * exact / Math.max(1, checked), unknown, silent);
        System.out.println("  UNKNOWN by opcode: " + unknownOps);
        unknownSamples.forEach(u -> System.out.println("  UNKNOWN e.g. " + u));
        wrong.forEach(w -> System.out.println("  WRONG " + w));
        assertTrue(checked > 0);
        assertTrue(silent == 0, silent + " silently wrong decodes:\n" + String.join("\n", wrong));
    }
}
