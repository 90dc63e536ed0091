package org.jptxas.scheduler.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.MemSpace;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SimpleInstr;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

class SassReaderTest {
    private final SassReader parser = new SassReader(LatencyModel.of(TestTargets.of("sm_80")), true);

    private SimpleInstr parse(String text) {
        return parser.parse(new SassLine("f", 0, text, 0x0000000604027981L, 0, null)).instr();
    }

    @Test
    void destinationsComeFirstAndWidthsFollowModifiers() {
        SimpleInstr wide = parse("IMAD.WIDE R4, R0, R5, c[0x0][0x168]");
        assertEquals("imadWide", wide.latencyClass());
        assertEquals(List.of(new RegRange(RegFile.R, 4, 2)), wide.defs());
        assertEquals(List.of(RegRange.of(RegFile.R, 0), RegRange.of(RegFile.R, 5)), wide.uses());
        SimpleInstr carry = parse("IADD3 R6, P6, R6, R4, RZ");
        assertEquals(List.of(RegRange.of(RegFile.R, 6), RegRange.of(RegFile.P, 6)), carry.defs());
        SimpleInstr setp = parse("ISETP.GE.AND P0, PT, R0, c[0x0][0x170], PT");
        assertEquals(2, setp.defs().size());
        assertEquals(List.of(RegRange.of(RegFile.R, 0), RegRange.of(RegFile.P, 7)), setp.uses());
    }

    @Test
    void memoryOperandsAndHiddenDescriptor() {
        SimpleInstr ldg = parse("LDG.E.64 R2, [R4.64+0x10]");
        assertEquals(List.of(new RegRange(RegFile.R, 2, 2)), ldg.defs());
        assertTrue(ldg.uses().contains(new RegRange(RegFile.R, 4, 2)));
        assertTrue(ldg.uses().contains(new RegRange(RegFile.UR, 6, 2)), "descriptor UR6 from bits [37:32]");
        assertEquals(MemSpace.GLOBAL, ldg.memSpace());
        SimpleInstr stg = parse("STG.E.128 [R2.64], R8");
        assertTrue(stg.defs().isEmpty());
        assertTrue(stg.uses().contains(new RegRange(RegFile.R, 8, 4)));
        SimpleInstr sts = parse("STS [R3+0x4], R2");
        assertEquals(MemSpace.SHARED, sts.memSpace());
        // ATOMG's bits [39:32] name its data register (here R6), not a descriptor pair
        SimpleInstr atom = parse("ATOMG.E.EXCH.STRONG.GPU PT, R2, [R4.64+0x8], R6");
        assertTrue(atom.uses().stream().noneMatch(r -> r.file() == RegFile.UR), atom.uses().toString());
        assertTrue(atom.uses().contains(RegRange.of(RegFile.R, 6)));
    }

    @Test
    void mbarrierInitReadsItsWholeUniformValue() {
        // SYNCS.EXCH.64 stores a 64-bit initial value from a uniform pair: read as UR4 alone, the post-allocation
        // scheduler moved the UMOV of UR5 below the store (the barrier started with a wrong pending count)
        SassReader sm90 = new SassReader(LatencyModel.of(TestTargets.of("sm_90")), true);
        SimpleInstr init = sm90.parse(new SassLine("f", 0, "SYNCS.EXCH.64 URZ, [UR6], UR4", 0, 0, null)).instr();
        assertTrue(init.uses().contains(new RegRange(RegFile.UR, 4, 2)), init.uses().toString());
        assertTrue(init.uses().contains(RegRange.of(RegFile.UR, 6)), init.uses().toString());
    }

    @Test
    void imadHiReadsItsAddendAsAPair() {
        // IMAD.HI adds a 64-bit C: read as R32 alone, the post-allocation scheduler moved a MOV R33 above the
        // IMAD.HI that still read it (64-bit remainders wrong in the random-program differential)
        SimpleInstr carry = parse("IMAD.HI.U32 R25, P0, R26, R3, R32");
        assertEquals(List.of(RegRange.of(RegFile.R, 25), RegRange.of(RegFile.P, 0)), carry.defs());
        assertEquals(List.of(RegRange.of(RegFile.R, 26), RegRange.of(RegFile.R, 3), new RegRange(RegFile.R, 32, 2)),
                carry.uses());
        assertEquals(List.of(RegRange.of(RegFile.R, 5), new RegRange(RegFile.R, 6, 2)),
                parse("IMAD.HI.U32 R4, R5, 0x3, R6").uses());
        assertEquals(List.of(RegRange.of(RegFile.R, 4)), parse("IMAD.HI.U32 R4, R5, R7, RZ").defs());
    }

    @Test
    void redgReadsItsWholeDataTuple() {
        // sm_90's REDG read as one register: the post-allocation scheduler put the PRMT that packs R11 after the
        // REDG of R10..R11 (red.global.min.v4.f16 wrong in the instruction-form suite)
        assertTrue(parse("REDG.E.MIN.F16x4.RN.STRONG.SM desc[UR2][R4.64], R10").uses()
                .contains(new RegRange(RegFile.R, 10, 2)));
        assertTrue(parse("REDG.E.ADD.F32x4.FTZ.RN.STRONG.GPU desc[UR4][R2.64], R8").uses()
                .contains(new RegRange(RegFile.R, 8, 4)));
        assertTrue(parse("REDG.E.ADD.64.STRONG.GPU desc[UR4][R2.64], R6").uses()
                .contains(new RegRange(RegFile.R, 6, 2)));
    }

    @Test
    void ldsmWritesOneRegisterPerMatrix() {
        // LDSM.16.M88.4 R4 writes R4..R7: a narrower def let a copy of R5 move above it (ldmatrix_frag on sm_80)
        assertEquals(List.of(new RegRange(RegFile.R, 4, 4)), parse("LDSM.16.M88.4 R4, [R2]").defs());
        assertEquals(List.of(new RegRange(RegFile.R, 8, 2)), parse("LDSM.16.MT88.2 R8, [R2+0x10]").defs());
        assertEquals(List.of(RegRange.of(RegFile.R, 3)), parse("LDSM.16.M88 R3, [R2]").defs());
        assertEquals(MemSpace.SHARED, parse("LDSM.16.M88.4 R4, [R2]").memSpace());
    }

    @Test
    void guardsFlagsAndReuseSlots() {
        SimpleInstr exit = parse("@!P0 EXIT");
        assertEquals(RegRange.of(RegFile.P, 0), exit.guard());
        assertTrue(exit.has(SchedFlag.EXIT));
        SimpleInstr mov = parse("IMAD.MOV.U32 R13, RZ, RZ, R6.reuse");
        assertEquals(3, mov.reuseSlots().size());
        assertTrue(mov.reuseSlots().get(0) == null || mov.reuseSlots().get(0).isZero(), "RZ never reuses");
        assertEquals(RegRange.of(RegFile.R, 6), mov.reuseSlots().get(2));
        assertEquals("nop", parse("@!PT LDS RZ, [RZ]").latencyClass(), "never-executed padding");
        SimpleInstr shfl = parse("SHFL.BFLY PT, R3, R2, 0x1, 0x1f");
        assertEquals(List.of(RegRange.of(RegFile.P, 7), RegRange.of(RegFile.R, 3)), shfl.defs());
    }

    @Test
    void parsesAListing() {
        String text = """
                //--------------------- .text.k --------------------------
                	.section	.text.k,"ax",@progbits
                k:
                        /*0000*/                   IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28] ;   /* 0x00000a00ff017624 */
                                                                                           /* 0x000fe400078e00ff */
                .L_x_0:
                        /*0010*/                   EXIT ;                                    /* 0x000000000000794d */
                                                                                           /* 0x000fea0003800000 */
                """;
        var fns = NvdisasmListing.parse(text);
        assertEquals(List.of("k"), List.copyOf(fns.keySet()));
        assertEquals(2, fns.get("k").size());
        assertEquals(".L_x_0", fns.get("k").get(1).label());
        assertEquals(0x000fea0003800000L, fns.get("k").get(1).hi());
    }
}
