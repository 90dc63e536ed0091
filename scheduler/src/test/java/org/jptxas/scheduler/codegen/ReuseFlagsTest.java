package org.jptxas.scheduler.codegen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.SimpleInstr;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.scheduler.sass.DecodedListing;
import org.jptxas.scheduler.sass.SassLine;
import org.jptxas.scheduler.sass.SassReader;
import org.jptxas.scheduler.sass.SassShape;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Test;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassOp;
import org.jptxas.spi.TestTargets;

class ReuseFlagsTest {
    private static ReuseFlags.Slots slots(String text) {
        return ReuseFlags.slots(SassShape.of(text));
    }

    private static int[] gprs(String text) {
        return slots(text).gpr();
    }

    /** The skeleton of {@code text}'s sm_80 form with {@code .reuse} after the operands of the slots in {@code mask}. */
    private static String withReuse(String text, int mask) {
        SassOp op = new SassAssembler(TestTargets.of("sm_80").isa()).select(text, 0, null);
        ReuseFlags.Slots slots = ReuseFlags.slots(SassShape.of(op.form(), op.values()));
        return String.join("{}", ReuseFlags.reusePieces(op.form(), slots, mask));
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
        assertEquals("FSETP.NEU.FTZ.AND {}, {}, |{}|.reuse, {}, {}",
                withReuse("FSETP.NEU.FTZ.AND P2, PT, |R8|, +INF , PT", 1));
        assertEquals("@!{} FFMA {}, -{}.reuse, {}, {}.reuse", withReuse("@!P1 FFMA R0, -R2, R3, R4", 0b101));
        assertEquals("MOV {}, {}.reuse", withReuse("MOV R1, R2", 0b010));
        assertEquals("MOV {}, {}", withReuse("MOV R1, R2", 0));
    }

    @Test
    void sameRegisterSameSlotWithinTwoCyclesIsReused() {
        LatencyModel m = LatencyModel.of(TestTargets.of("sm_80"));
        List<String> texts = List.of("IMAD R9, R7, -0x61c88647, R2", "IMAD.WIDE.U32 R6, R7, 0x7f4a7c15, R4",
                "IADD3 R9, R7, R9, RZ", "FADD R1, R9, R3", "FADD R1, R9, R3");
        int[] stalls = {2, 2, 5, 2, 1};
        assertArrayEquals(new int[] {1, 0, 0, 3, 0}, masks(m, texts, stalls),
                "R7 is reused into the IMAD.WIDE; the IADD3's stall of 5 ends the cache's life; both FADD sources repeat");
        List<String> rewritten = List.of("FADD R9, R9, R3", "FADD R1, R3, R9");
        assertArrayEquals(new int[] {0, 0}, masks(m, rewritten, new int[] {1, 1}), "R9 is rewritten, R3 changes slot");
    }

    private static int[] masks(LatencyModel m, List<String> texts, int[] stalls) {
        SassReader parser = new SassReader(m, true);
        List<SimpleInstr> instrs = new ArrayList<>();
        List<ControlWord> words = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            instrs.add(parser.parse(new SassLine("", 16 * i, texts.get(i), 63L << 32, 0, null)).instr());
            words.add(new ControlWord(stalls[i], true, 7, 7, 0, 0));
        }
        return ReuseFlags.masks(texts.stream().map(ReuseFlagsTest::slots).toList(), instrs, words, new boolean[texts.size()], m);
    }

    /** Flags counted against ptxas's: set by both, by ptxas only, by jptxas only. */
    record Agreement(int both, int onlyPtxas, int onlyOurs) {
        Agreement plus(Agreement o) {
            return new Agreement(both + o.both, onlyPtxas + o.onlyPtxas, onlyOurs + o.onlyOurs);
        }
    }

    /**
     * The gate's core: for each kernel, ptxas's cubin (empty when ptxas failed: an oracle failure) decoded, and the
     * rule's flags for ptxas's order and stalls counted against ptxas's own.
     */
    static Agreement agreement(String arch, List<String> kernels, Function<String, Optional<byte[]>> ptxasCubin,
                               Gate gate) {
        LatencyModel model = LatencyModel.of(TestTargets.of(arch));
        SassReader parser = new SassReader(model, ControlAgreement.urInAddressBits(TestTargets.of(arch)));
        Agreement total = new Agreement(0, 0, 0);
        for (String k : kernels) {
            Optional<byte[]> cubin = ptxasCubin.apply(k);
            if (cubin.isEmpty()) {
                gate.oracleFailed(k + "@" + arch, "ptxas failed");
                continue;
            }
            for (Map.Entry<String, List<SassLine>> f : DecodedListing.fromCubin(cubin.get(), TestTargets.of(arch).isa()).entrySet()) {
                total = total.plus(agreement(f.getValue(), parser, model));
            }
            gate.pass();
        }
        return total;
    }

    private static Agreement agreement(List<SassLine> lines, SassReader parser, LatencyModel model) {
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
        int[] ours = ReuseFlags.masks(texts.stream().map(ReuseFlagsTest::slots).toList(), instrs, words, start, model);
        int both = 0;
        int onlyPtxas = 0;
        int onlyOurs = 0;
        for (int i = 0; i < lines.size(); i++) {
            int theirs = lines.get(i).text().contains(".reuse") ? (int) (lines.get(i).hi() >>> 58 & 15) : 0;
            both += Integer.bitCount(ours[i] & theirs);
            onlyPtxas += Integer.bitCount(theirs & ~ours[i]);
            onlyOurs += Integer.bitCount(ours[i] & ~theirs);
        }
        return new Agreement(both, onlyPtxas, onlyOurs);
    }

    /**
     * The rule against ptxas 13's own flags on the kernel suite, with ptxas's order and stalls: the share of the
     * flags ptxas sets that the rule predicts (recall) and of the predicted flags that ptxas sets (precision), per
     * SM, held as figures.
     */
    @Test
    void agreesWithPtxasOnTheKernelSuite() {
        Oracles.assumePtxas13();
        for (String arch : List.of("sm_75", "sm_80", "sm_90")) {
            Gate gate = Gate.named("reuse flags against ptxas on " + arch);
            List<String> kernels = KernelSuite.all().stream().filter(k -> k.supports(Integer.parseInt(arch.substring(3))))
                    .map(KernelCase::name).toList();
            Agreement a = agreement(arch, kernels, name -> ptxasCubin(name, arch), gate);
            System.out.printf("%s reuse flags: %d agreed, %d only ptxas, %d only jptxas%n", arch, a.both(),
                    a.onlyPtxas(), a.onlyOurs());
            gate.verify(kernels.size());
            Figures.checkPercent("scheduler.reuse.recall." + arch, a.both(), a.both() + a.onlyPtxas());
            Figures.checkPercent("scheduler.reuse.precision." + arch, a.both(), a.both() + a.onlyOurs());
        }
    }

    private static Optional<byte[]> ptxasCubin(String kernel, String arch) {
        OracleCubins.Compiled c = OracleCubins.ptxas13(KernelSuite.byName(kernel).orElseThrow().ptx(), arch);
        try {
            return c.ok() ? Optional.of(Files.readAllBytes(c.cubin().orElseThrow())) : Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theGateFailsOnNoKernelsAndOnPtxasFailures() {
        Gate empty = Gate.named("no kernels");
        agreement("sm_80", List.of(), k -> Optional.empty(), empty);
        assertFalse(empty.passes(1), "nothing compared");
        Gate failed = Gate.named("ptxas fails");
        agreement("sm_80", List.of("saxpy"), k -> Optional.empty(), failed);
        assertEquals(1, failed.oracleFailures().size());
        assertFalse(failed.passes(1));
    }
}
