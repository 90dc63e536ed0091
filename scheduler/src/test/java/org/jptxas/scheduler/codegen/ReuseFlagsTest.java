package org.jptxas.scheduler.codegen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.SimpleInstr;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.scheduler.sass.DecodedListing;
import org.jptxas.scheduler.sass.SassLine;
import org.jptxas.scheduler.sass.SassText;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;

class ReuseFlagsTest {
    private static int[] gprs(String text) {
        return ReuseFlags.slots(text).gpr();
    }

    @Test
    void slotsFollowTheSourceOperands() {
        assertArrayEquals(new int[] {7, -1, 2}, gprs("IMAD R9, R7, -0x61c88647, R2"));
        assertArrayEquals(new int[] {4, 9, -1}, gprs("@P0 IADD3 R9, -R4, R9, RZ"));
        assertArrayEquals(new int[] {6, -1, -1}, gprs("LOP3.LUT P0, RZ, R6, 0x1, RZ, 0xc0, !PT"));
        assertArrayEquals(new int[] {8, -1, -1}, gprs("FSETP.NEU.FTZ.AND P2, PT, |R8|, +INF , PT"));
        assertArrayEquals(new int[] {-1, 2, -1}, gprs("MOV R1, R2"), "a lone source sits in slot B");
        assertArrayEquals(new int[] {-1, 4, -1}, gprs("STG.E [R2.64], R4"), "an address is not a cached operand");
        assertArrayEquals(new int[] {-1, -1, -1}, gprs("IMAD.WIDE.U32 R2, R4.64, 0x4, RZ"), "tuples are not cached");
    }

    @Test
    void flagsGoRightAfterTheirOperandsAndNothingElseMoves() {
        assertEquals("FSETP.NEU.FTZ.AND P2, PT, |R8|.reuse, +INF , PT",
                ReuseFlags.withReuse("FSETP.NEU.FTZ.AND P2, PT, |R8|, +INF , PT", 1));
        assertEquals("@!P1 FFMA R0, -R2.reuse, R3, R4.reuse", ReuseFlags.withReuse("@!P1 FFMA R0, -R2, R3, R4", 0b101));
        assertEquals("MOV R1, R2.reuse", ReuseFlags.withReuse("MOV R1, R2", 0b010));
        assertEquals("MOV R1, R2", ReuseFlags.withReuse("MOV R1, R2", 0));
    }

    @Test
    void sameRegisterSameSlotWithinTwoCyclesIsReused() {
        LatencyModel m = LatencyModel.forTarget("sm_80").orElseThrow();
        List<String> texts = List.of("IMAD R9, R7, -0x61c88647, R2", "IMAD.WIDE.U32 R6, R7, 0x7f4a7c15, R4",
                "IADD3 R9, R7, R9, RZ", "FADD R1, R9, R3", "FADD R1, R9, R3");
        int[] stalls = {2, 2, 5, 2, 1};
        assertArrayEquals(new int[] {1, 0, 0, 3, 0}, masks(m, texts, stalls),
                "R7 is reused into the IMAD.WIDE; the IADD3's stall of 5 ends the cache's life; both FADD sources repeat");
        List<String> rewritten = List.of("FADD R9, R9, R3", "FADD R1, R3, R9");
        assertArrayEquals(new int[] {0, 0}, masks(m, rewritten, new int[] {1, 1}), "R9 is rewritten, R3 changes slot");
    }

    private static int[] masks(LatencyModel m, List<String> texts, int[] stalls) {
        SassText parser = new SassText(m, 80);
        List<SimpleInstr> instrs = new ArrayList<>();
        List<ControlWord> words = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            instrs.add(parser.parse(new SassLine("", 16 * i, texts.get(i), 63L << 32, 0, null)).instr());
            words.add(new ControlWord(stalls[i], true, 7, 7, 0, 0));
        }
        return ReuseFlags.masks(texts, instrs, words, new boolean[texts.size()], m);
    }

    /**
     * The rule against ptxas 13's own flags on the kernel suite, with ptxas's order and stalls: most flags it sets
     * are predicted, and most predicted flags are ones it sets (measured: about 85 % both ways on sm_80).
     */
    @Test
    void agreesWithPtxasOnTheKernelSuite() throws Exception {
        Oracles.assumePtxas13();
        for (String arch : List.of("sm_75", "sm_80", "sm_90")) {
            LatencyModel model = LatencyModel.forTarget(arch).orElseThrow();
            int sm = Integer.parseInt(arch.substring(3));
            SassText parser = new SassText(model, sm);
            int both = 0;
            int onlyPtxas = 0;
            int onlyOurs = 0;
            for (KernelCase k : KernelSuite.all()) {
                OracleCubins.Compiled c = OracleCubins.ptxas13(k.ptx(), arch);
                if (!c.ok()) {
                    continue;
                }
                byte[] cubin = Files.readAllBytes(c.cubin().orElseThrow());
                for (Map.Entry<String, List<SassLine>> f : DecodedListing.fromCubin(cubin, arch).entrySet()) {
                    List<SassLine> lines = f.getValue();
                    List<String> texts = new ArrayList<>();
                    List<SimpleInstr> instrs = new ArrayList<>();
                    List<ControlWord> words = new ArrayList<>();
                    for (SassLine l : lines) {
                        texts.add(l.text().replace(".reuse", ""));
                        instrs.add(parser.parse(l).instr());
                        words.add(ControlWord.fromHighQword(l.hi()));
                    }
                    ControlFlow flow = ControlAgreement.controlFlow(lines);
                    boolean[] start = new boolean[lines.size()];
                    for (int i = 0; i < start.length; i++) {
                        start[i] = lines.get(i).label() != null || flow.isJoin(i);
                    }
                    int[] ours = ReuseFlags.masks(texts, instrs, words, start, model);
                    for (int i = 0; i < lines.size(); i++) {
                        int theirs = lines.get(i).text().contains(".reuse") ? (int) (lines.get(i).hi() >>> 58 & 15) : 0;
                        both += Integer.bitCount(ours[i] & theirs);
                        onlyPtxas += Integer.bitCount(theirs & ~ours[i]);
                        onlyOurs += Integer.bitCount(ours[i] & ~theirs);
                    }
                }
            }
            double recall = both / (double) Math.max(1, both + onlyPtxas);
            double precision = both / (double) Math.max(1, both + onlyOurs);
            System.out.printf("%s reuse flags: %d agreed, %d only ptxas, %d only jptxas (recall %.2f, precision %.2f)%n",
                    arch, both, onlyPtxas, onlyOurs, recall, precision);
            assertTrue(recall >= 0.75 && precision >= 0.75, arch + ": recall " + recall + ", precision " + precision);
        }
    }
}
