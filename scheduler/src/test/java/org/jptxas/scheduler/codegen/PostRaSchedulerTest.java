package org.jptxas.scheduler.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.CodeLine;
import org.jptxas.sass.SassAssembler;
import org.jptxas.scheduler.latency.LatencyModel;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

class PostRaSchedulerTest {
    private static final LatencyModel SM80 = LatencyModel.of(TestTargets.of("sm_80"));

    /** The sm_80 line of {@code text}, typed as selection makes it. */
    private static CodeLine typed(String text) {
        return typed(new SassAssembler(TestTargets.of("sm_80").isa()), text);
    }

    private static CodeLine typed(SassAssembler asm, String text) {
        return new CodeLine(null, text, text, null, null, 0, asm.select(text, 0, label -> 0));
    }

    private static List<CodeLine> lines(String... texts) {
        return linesOf("sm_80", texts);
    }

    private static List<CodeLine> linesOf(String sm, String... texts) {
        SassAssembler asm = new SassAssembler(TestTargets.of(sm).isa());
        List<CodeLine> out = new ArrayList<>();
        for (String t : texts) {
            out.add(typed(asm, t));
        }
        return out;
    }

    private static List<String> texts(List<CodeLine> code) {
        return code.stream().map(CodeLine::text).toList();
    }

    @Test
    void aLoadMovesUpButNotAboveTheDescriptorOrItsAddress() {
        List<CodeLine> code = lines("ULDC.64 UR4, c[0x0][0x118]", "IMAD.WIDE.U32 R2, R0, R5, c[0x0][0x168]",
                "FADD R7, R8, R9", "FADD R7, R7, R9", "FADD R7, R7, R9", "LDG.E R4, [R2.64]", "FADD R4, R4, R7",
                "STG.E [R2.64], R4", "EXIT");
        List<String> out = texts(new PostRaScheduler(SM80, new SassView(TestTargets.of("sm_80"))).schedule(code));
        assertEquals(code.size(), out.size());
        int load = out.indexOf("LDG.E R4, [R2.64]");
        assertTrue(load < out.indexOf("FADD R7, R7, R9"), () -> "the load starts before the FADD chain: " + out);
        assertTrue(load > out.indexOf("ULDC.64 UR4, c[0x0][0x118]") && load > out.indexOf(
                "IMAD.WIDE.U32 R2, R0, R5, c[0x0][0x168]"), () -> out.toString());
        assertEquals("EXIT", out.get(out.size() - 1));
    }

    @Test
    void physicalRegisterReuseOrdersReaderBeforeTheNextWriter() {
        // R2 is read by the first FADD and then rewritten (WAR); the second R2 value feeds the last FADD (WAW, RAW).
        List<CodeLine> code = lines("FADD R3, R2, R2", "MOV R2, 0x1", "FADD R4, R2, R2", "FADD R5, R3, R4", "EXIT");
        List<String> out = texts(new PostRaScheduler(SM80, new SassView(TestTargets.of("sm_80"))).schedule(code));
        assertTrue(out.indexOf("FADD R3, R2, R2") < out.indexOf("MOV R2, 0x1"));
        assertTrue(out.indexOf("MOV R2, 0x1") < out.indexOf("FADD R4, R2, R2"));
    }

    @Test
    void theLabelStaysOnTheBlocksFirstInstructionAndNothingCrossesIt() {
        List<CodeLine> code = new ArrayList<>(lines("FADD R1, R1, R1", "MOV R9, 0x2"));
        code.add(typed("FADD R7, R8, R9").withLabel(".L_x_1"));
        code.addAll(lines("FADD R7, R7, R9", "FADD R7, R7, R9", "S2R R6, SR_TID.X", "@P0 BRA `(.L_x_1)", "EXIT"));
        List<CodeLine> out = new PostRaScheduler(SM80, new SassView(TestTargets.of("sm_80"))).schedule(code);
        List<String> t = texts(out);
        assertTrue(t.indexOf("S2R R6, SR_TID.X") > 1, "the S2R stays in its block: " + t);
        assertEquals(".L_x_1", out.get(2).label(), t::toString);
        for (int i = 0; i < out.size(); i++) {
            if (i != 2) {
                assertNull(out.get(i).label(), t::toString);
            }
        }
        assertEquals("@P0 BRA `(.L_x_1)", t.get(6));
    }

    @Test
    void shufflesAndBarriersKeepTheirOrder() {
        List<CodeLine> code = lines("STS [R2], R3", "SHFL.BFLY PT, R4, R5, 0x1, 0x1f", "LDS R6, [R2]",
                "BAR.SYNC.DEFER_BLOCKING 0x0", "LDS R7, [R8]", "EXIT");
        List<String> out = texts(new PostRaScheduler(SM80, new SassView(TestTargets.of("sm_80"))).schedule(code));
        assertEquals(texts(code), out);
    }

    /**
     * An mbarrier arrival publishes the stores before it (and a remote one follows its release fence); a phase check
     * comes before the loads it guards: SYNCS keeps its place among memory accesses and fences.
     */
    @Test
    void mbarrierOperationsKeepTheirPlaceAmongMemoryAccessesAndFences() {
        LatencyModel sm90 = LatencyModel.of(TestTargets.of("sm_90"));
        List<CodeLine> code = linesOf("sm_90", "STS [R2], R3", "MEMBAR.ALL.CTA", "MEMBAR.ALL.GPU", "ERRBAR", "CGAERRBAR",
                "SYNCS.ARRIVE.TRANS64.RED.A1T0 RZ, [R4+URZ], RZ", "SYNCS.PHASECHK.TRANS64.TRYWAIT P0, [R5+URZ], R6",
                "LDS R7, [R8]", "EXIT");
        List<String> out = texts(new PostRaScheduler(sm90, new SassView(TestTargets.of("sm_90"))).schedule(code));
        assertEquals(texts(code), out);
    }
}
