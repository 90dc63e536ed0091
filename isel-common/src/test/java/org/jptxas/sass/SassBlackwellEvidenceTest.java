package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.sass.probe.OracleSamples;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.testing.OracleCubins;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;

/**
 * Evidence for decode-only sm_100 / sm_120 (no disassembler oracle exists for them here): every 8th corpus file is
 * compiled by ptxas 13 for sm_90 and for the Blackwell target; a class counts as <em>confirmed</em> when ptxas wrote
 * the very same 128-bit word (control bits aside) for both targets and the sm_90 table decodes it. The test prints
 * the confirmed classes and how many Blackwell words the sm_90 table decodes at all; it asserts only that the
 * evidence exists, since identical bits do not prove identical meaning for words that differ.
 */
@Tag("slow")
class SassBlackwellEvidenceTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_100", "sm_120"})
    void sm90FormsCarryOver(String target) throws IOException {
        SassIsa sm90 = TestTargets.of("sm_90").isa();
        Map<String, Integer> confirmed = new TreeMap<>();
        int words = 0, decodable = 0, files = 0;
        List<OracleSamples.Job> jobs = OracleSamples.corpusJobs().stream().filter(j -> j.arch().equals("sm_90")).toList();
        for (int i = 0; i < jobs.size(); i += 8) {
            OracleCubins.Compiled a = OracleCubins.ptxas13(jobs.get(i).ptx(), "sm_90");
            OracleCubins.Compiled b = OracleCubins.ptxas13(jobs.get(i).ptx(), target);
            assertTrue(a.ok(), jobs.get(i).ptx() + " sm_90: " + a.diagnostics());
            if (!b.ok()) {
                // ptxas refuses Hopper-only instructions (wgmma) for Blackwell; any other failure is the oracle's.
                assertTrue(CorpusCubin.refused(b.diagnostics()), jobs.get(i).ptx() + " " + target + ": " + b.diagnostics());
                continue;
            }
            files++;
            Set<List<Long>> sm90Words = new HashSet<>();
            for (Section s : Cubin.read(Files.readAllBytes(a.cubin().orElseThrow())).textSections()) {
                byte[] d = s.data();
                for (int p = 0; p + 16 <= d.length; p += 16) {
                    sm90Words.add(List.of(SassIsa.le64(d, p), SassIsa.le64(d, p + 8) & ~(Control.HI_MASK | Control.OPEX_MASK)));
                }
            }
            for (Section s : Cubin.read(Files.readAllBytes(b.cubin().orElseThrow())).textSections()) {
                byte[] d = s.data();
                for (int p = 0; p + 16 <= d.length; p += 16) {
                    long lo = SassIsa.le64(d, p), hi = SassIsa.le64(d, p + 8);
                    words++;
                    SassInstruction inst = sm90.decode(lo, hi);
                    if (inst instanceof SassInstruction.Known k) {
                        decodable++;
                        if (sm90Words.contains(List.of(lo, hi & ~(Control.HI_MASK | Control.OPEX_MASK)))) {
                            String op = k.mnemonic();
                            int dot = op.indexOf('.');
                            confirmed.merge(dot < 0 ? op : op.substring(0, dot), 1, Integer::sum);
                        }
                    }
                }
            }
        }
        System.out.printf("%s: %d files, %d words, %d decodable with the sm_90 table (%.1f%%), confirmed classes"
                + " (identical words in sm_90 output): %s%n", target, files, words, decodable,
                100.0 * decodable / Math.max(1, words), confirmed);
        // Every 8th sm_90 corpus file ptxas compiles for the target (measured: 23).
        assertTrue(files >= 23 && !confirmed.isEmpty(), "too little evidence for " + target + ": " + files + " files");
    }
}
