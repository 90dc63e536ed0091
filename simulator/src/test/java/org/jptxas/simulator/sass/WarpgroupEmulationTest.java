package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.exec.WarpgroupMma;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.Region;
import org.junit.jupiter.api.Test;

/**
 * {@link WarpgroupOps}: a warpgroup multiply's result lands at the WARPGROUP.DEPBAR that retires its group; writing
 * its accumulator before then, or exiting without the wait, is a fault; reading it early reads the poison; chained
 * multiplies on one accumulator see each other's results; and the descriptors' layouts (no swizzle and 128-byte
 * swizzle, K-major) put each element where the PTX ISA's description does.
 */
class WarpgroupEmulationTest {
    private static final float ONE = 1f;

    /** One warp (warp 0 of its group) multiplies zero matrices onto C = 1.0, with {@code between} before the wait. */
    private static List<String> program(List<String> between, boolean wait) {
        List<String> t = new ArrayList<>(List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer("sm_90", 0, 0x14),
                "MOV R8, 0x3f800000", "MOV R9, 0x3f800000", "MOV R10, 0x3f800000", "MOV R11, 0x3f800000",
                "MOV R12, RZ",
                "UMOV UR4, 0x40", "UMOV UR5, 0x10", "UMOV UR6, 0x40", "UMOV UR7, 0x10", // 0x400: shared, zeros
                "WARPGROUP.ARRIVE",
                "HGMMA.64x8x16.F32 R8, gdesc[UR4], R8",
                "HGMMA.64x8x16.F32 R8, gdesc[UR4], R8, gsb0"));
        t.addAll(between);
        if (wait) {
            t.add("WARPGROUP.DEPBAR.LE gsb0, 0x0");
        }
        t.addAll(List.of("STG.E " + SassTextRun.global("sm_90") + "[R2.64], R8", "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0x4], R9", "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0x8], R10",
                "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0xc], R11", "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0x10], R12", "EXIT"));
        return t;
    }

    private static final int SHARED = 4096;

    private static int[] out() {
        return new int[5 * 32];
    }

    @Test
    void resultsLandAtTheWaitAndChainsSeeEachOther() throws Exception {
        int[] out = out();
        LaunchResult r = SassTextRun.launchAsWritten("sm_90", program(List.of(), true), out, SHARED);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        for (int i = 0; i < 32; i++) {
            for (int k = 0; k < 4; k++) {
                assertEquals(ONE, Float.intBitsToFloat(out[5 * i + k]), "lane " + i + " register " + k);
            }
        }
    }

    @Test
    void aMissingWaitIsAFault() throws Exception {
        LaunchResult r = SassTextRun.launchAsWritten("sm_90", program(List.of(), false), out(), SHARED);
        assertFalse(r.completed());
        assertTrue(r.fault().orElseThrow().describe().contains("no WARPGROUP.DEPBAR"),
                () -> r.fault().orElseThrow().describe());
    }

    @Test
    void writingAnAccumulatorBeforeTheWaitIsAFault() throws Exception {
        LaunchResult r = SassTextRun.launchAsWritten("sm_90", program(List.of("MOV R9, RZ"), true), out(), SHARED);
        assertFalse(r.completed());
        assertTrue(r.fault().orElseThrow().describe().contains("was written before the WARPGROUP.DEPBAR"),
                () -> r.fault().orElseThrow().describe());
    }

    @Test
    void readingAnAccumulatorBeforeTheWaitReadsThePoison() throws Exception {
        int[] out = out();
        LaunchResult r = SassTextRun.launchAsWritten("sm_90", program(List.of("MOV R12, R10"), true), out, SHARED);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertEquals(WarpgroupOps.POISON, out[4]);
        assertEquals(ONE, Float.intBitsToFloat(out[2]));
    }

    @Test
    void aMultiplyReadingAnOutstandingAccumulatorItDoesNotChainIsAFault() throws Exception {
        List<String> between = List.of("WARPGROUP.DEPBAR.LE gsb0, 0x1", "HGMMA.64x8x16.F32 R12, gdesc[UR4], R12, gsb0",
                "WARPGROUP.DEPBAR.LE gsb0, 0x0", "MOV R13, R8");
        // R12 is no accumulator of the outstanding chain (R8..R11): fine; now make one partly overlap it
        List<String> overlap = List.of("HGMMA.64x8x16.F32 R10, gdesc[UR4], R10, gsb0", "WARPGROUP.DEPBAR.LE gsb0, 0x0");
        LaunchResult ok = SassTextRun.launchAsWritten("sm_90", program(between, true), out(), SHARED);
        assertTrue(ok.completed(), () -> ok.fault().orElseThrow().describe());
        LaunchResult bad = SassTextRun.launchAsWritten("sm_90", program(overlap, true), out(), SHARED);
        assertFalse(bad.completed());
        assertTrue(bad.fault().orElseThrow().describe().contains("overlaps the outstanding one"),
                () -> bad.fault().orElseThrow().describe());
    }

    /**
     * QGMMA reads A and B as bytes, each with its own fp8 type: A's bytes 0x3c (1.0 as E5M2, 1.5 as E4M3) and B's 0x48
     * (4.0 as E4M3, 8.0 as E5M2), 32 products per element onto C = 1.0.
     */
    @Test
    void fp8MultipliesReadEachOperandInItsOwnType() throws Exception {
        assertEquals(129f, fp8Result("E5M2.E4M3"), "32 x 1.0 x 4.0 + 1");
        assertEquals(385f, fp8Result("E4M3.E5M2"), "32 x 1.5 x 8.0 + 1");
        assertEquals(257f, fp8Result("E5M2.E5M2"), "32 x 1.0 x 8.0 + 1");
    }

    private static float fp8Result(String types) throws Exception {
        List<String> t = new ArrayList<>(List.of(
                "S2R R0, SR_TID.X",
                SassTextRun.pointer("sm_90", 0, 0x14),
                "IMAD.SHL.U32 R4, R0, 0x10, RZ",
                "MOV R12, 0x3c3c3c3c", "MOV R13, 0x3c3c3c3c", "MOV R14, 0x3c3c3c3c", "MOV R15, 0x3c3c3c3c",
                "MOV R16, 0x48484848", "MOV R17, 0x48484848", "MOV R18, 0x48484848", "MOV R19, 0x48484848"));
        for (int off = 0; off < 0x800; off += 0x200) {
            t.add("STS.128 [R4+0x" + Integer.toHexString(0x400 + off) + "], R12"); // A: 0x400..0xc00
            t.add("STS.128 [R4+0x" + Integer.toHexString(0x1400 + off) + "], R16"); // B: 0x1400..0x1c00
        }
        t.addAll(List.of(
                "MOV R8, 0x3f800000", "MOV R9, 0x3f800000", "MOV R10, 0x3f800000", "MOV R11, 0x3f800000",
                "MOV R12, RZ",
                // descriptors: LBO 0x80, SBO 0x100; A at 0x400, B at 0x1400 (shared starts at 0x400)
                "UMOV UR4, 0x80040", "UMOV UR5, 0x10", "UMOV UR6, 0x80140", "UMOV UR7, 0x10",
                "WARPGROUP.ARRIVE",
                "QGMMA.64x8x32.F32." + types + " R8, gdesc[UR4], R8, gsb0",
                "WARPGROUP.DEPBAR.LE gsb0, 0x0",
                "STG.E " + SassTextRun.global("sm_90") + "[R2.64], R8", "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0x4], R9", "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0x8], R10",
                "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0xc], R11", "STG.E " + SassTextRun.global("sm_90") + "[R2.64+0x10], R12", "EXIT"));
        int[] out = out();
        LaunchResult r = SassTextRun.launchAsWritten("sm_90", t, out, 0x2000);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        for (int i = 0; i < 32 * 5; i++) {
            if (i % 5 != 4) {
                assertEquals(out[0], out[i], "every element the same, word " + i);
            }
        }
        return Float.intBitsToFloat(out[0]);
    }

    /** Element (i, k) of a K-major f16 operand, computed as the ISA describes it, against {@link WarpgroupMma#element}. */
    @Test
    void descriptorLayoutsWithoutSwizzleAndWith128ByteSwizzle() {
        Region shared = new Region("shared memory", AddressSpace.SHARED, 0, 1 << 16);
        for (int a = 0; a < 1 << 16; a += 2) {
            shared.store16(a, a / 2 & 0xffff); // each 16-bit element holds its own index
        }
        long start = 0x2000, lbo = 128, sbo = 256;
        long plain = start >> 4 | (lbo >> 4) << 16 | (sbo >> 4) << 32;
        long sbo128 = 1024;
        long swizzled = start >> 4 | (sbo128 >> 4) << 32 | 1L << 62;
        for (int i = 0; i < 64; i++) {
            for (int k = 0; k < 16; k++) {
                // no swizzle: core matrices of 8 rows x 16 bytes; K halves LBO apart, 8-row groups SBO apart
                long p = start + (i / 8) * sbo + (k / 8) * lbo + (i % 8) * 16 + (k % 8) * 2;
                assertEquals(p / 2, WarpgroupMma.element(shared, plain, i, k, 2, false), "plain " + i + "," + k);
                // 128-byte swizzle: 128-byte rows, the 16-byte chunk index XOR the row within its 8-row atom
                long chunk = (k * 2 / 16) ^ (i % 8);
                long s = start + (i / 8) * sbo128 + (i % 8) * 128 + chunk * 16 + (k * 2) % 16;
                assertEquals(s / 2, WarpgroupMma.element(shared, swizzled, i, k, 2, false), "swizzled " + i + "," + k);
            }
        }
    }
}
