package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Instr;
import org.junit.jupiter.api.Test;

/** {@link MmaLowerer}: which SASS each mma.sync form becomes, and the tuples around it. */
class MmaLowererTest {
    private static String kernel(String target, String body) {
        return ".version 8.5\n.target " + target + "\n.address_size 64\n"
                + ".visible .entry k()\n{\n .reg .b32 %r<40>;\n .reg .f32 %f<20>;\n .reg .b64 %rd<4>;\n" + body + "\n}\n";
    }

    private static List<String> lower(String sm, String body) throws CompilationException {
        return SyncTestContext.lower(kernel(sm, body), sm, new InstructionLowerer[] {new MmaLowerer()}).body().blocks()
                .stream().flatMap(b -> b.instrs().stream()).map(Instr::toString).toList();
    }

    private static List<String> words(String name) {
        return List.of(name.split("\\.")).subList(1, name.split("\\.").length);
    }

    @Test
    void formsAreTheSassPtxasWrites() {
        assertEquals(new MmaLowerer.Form("HMMA", List.of("16816", "F32"), 4, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")));
        assertEquals(new MmaLowerer.Form("HMMA", List.of("16816", "F16"), 4, 2, 2, 2),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16")));
        assertEquals(new MmaLowerer.Form("HMMA", List.of("16816", "F32", "BF16"), 4, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32")));
        assertEquals(new MmaLowerer.Form("HMMA", List.of("1688", "F32"), 2, 1, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32")));
        assertEquals(new MmaLowerer.Form("HMMA", List.of("1688", "F16"), 2, 1, 2, 2),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16")));
        assertEquals(new MmaLowerer.Form("DMMA", List.of("884"), 2, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64")));
        assertEquals(new MmaLowerer.Form("HMMA", List.of("1688", "F32", "TF32"), 4, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")));
        assertEquals(new MmaLowerer.Form("HMMA", List.of("1684", "F32", "TF32"), 2, 1, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32")));
        assertEquals(new MmaLowerer.Form("IMMA", List.of("16832", "S8", "S8"), 4, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32")));
        assertEquals(new MmaLowerer.Form("IMMA", List.of("16816", "U8", "U8", "SAT"), 2, 1, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.satfinite.s32.u8.u8.s32")));
        assertEquals(new MmaLowerer.Form("IMMA", List.of("8816", "S8", "S8"), 1, 1, 2, 2),
                MmaLowerer.form(words("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32")));
        // 4-bit inputs: twice the 8-bit K in the same registers
        assertEquals(new MmaLowerer.Form("IMMA", List.of("16864", "S4", "S4"), 4, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32")));
        assertEquals(new MmaLowerer.Form("IMMA", List.of("16832", "U4", "U4", "SAT"), 2, 1, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u4.u4.s32")));
        assertEquals(new MmaLowerer.Form("IMMA", List.of("8832", "S4", "S4"), 1, 1, 2, 2),
                MmaLowerer.form(words("mma.sync.aligned.m8n8k32.row.col.s32.s4.s4.s32")));
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.s32.s4.s4.s32")), "no 4-bit k16");
        // 1-bit inputs: BMMA with the bit operation and POPC
        assertEquals(new MmaLowerer.Form("BMMA", List.of("168256", "AND", "POPC"), 4, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc")));
        assertEquals(new MmaLowerer.Form("BMMA", List.of("168128", "XOR", "POPC"), 2, 1, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc")));
        assertEquals(new MmaLowerer.Form("BMMA", List.of("88128", "AND", "POPC"), 1, 1, 2, 2),
                MmaLowerer.form(words("mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.and.popc")));
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32")), "b1 needs op.popc");
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32.and.popc")));
        // the quad-pair m8n8k4 with f16 inputs is no single form: QuadPairMma expands it
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32")));
        // A and B of one width may differ in sign: IMMA names A's type, then B's
        assertEquals(new MmaLowerer.Form("IMMA", List.of("16832", "S8", "U8"), 4, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k32.row.col.s32.s8.u8.s32")));
        assertEquals(new MmaLowerer.Form("IMMA", List.of("8832", "U4", "S4", "SAT"), 1, 1, 2, 2),
                MmaLowerer.form(words("mma.sync.aligned.m8n8k32.row.col.satfinite.s32.u4.s4.s32")));
        // not in width; tf32 with k16, satfinite on floats: refused
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m16n8k32.row.col.s32.s8.u4.s32")));
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32")));
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.satfinite.f32.f16.f16.f32")));
        // mixed accumulators are not lowered (yet): refused by name, never guessed
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f16")));
    }

    @Test
    void operandsAreCopiedIntoTuplesAndOut() throws CompilationException {
        List<String> l = lower("sm_80", "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%f1, %f2, %f3, %f4}, "
                + "{%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8};");
        List<String> mma = l.stream().filter(s -> s.startsWith("HMMA")).toList();
        assertEquals(1, mma.size(), String.join("\n", l));
        assertTrue(mma.get(0).matches("HMMA\\.16816\\.F32 %r\\d+\\.128, %r\\d+\\.128, %r\\d+\\.64, %r\\d+\\.128"), mma.get(0));
        assertEquals(10 + 4, l.stream().filter(s -> s.startsWith("MOV")).count(), String.join("\n", l));
    }

    @Test
    void fourBitInputsBecomeTwoEightBitImmasWhereTheTargetHasNoFourBitImma() throws CompilationException {
        String mma = "mma.sync.aligned.m16n8k64.row.col.s32.s4.s4.s32 {%r11, %r12, %r13, %r14}, {%r1, %r2, %r3, %r4}, "
                + "{%r5, %r6}, {%r7, %r8, %r9, %r10};";
        assertTrue(lower("sm_80", mma).stream().anyMatch(s -> s.startsWith("IMMA.16864.S4.S4 ")));
        List<String> l = lower("sm_90", mma);
        assertEquals(2, l.stream().filter(s -> s.startsWith("IMMA.16832.S8.S8 ")).count(), String.join("\n", l));
        assertTrue(l.stream().noneMatch(s -> s.contains("S4")), String.join("\n", l));
        String xor = "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.xor.popc {%r11, %r12}, {%r1}, {%r5}, {%r7, %r8};";
        assertTrue(lower("sm_89", xor).stream().anyMatch(s -> s.startsWith("BMMA.88128.XOR.POPC ")));
        List<String> x = lower("sm_90", xor);
        assertEquals(2, x.stream().filter(s -> s.startsWith("BMMA.88128.AND.POPC ")).count(), String.join("\n", x));
    }

    @Test
    void fp8InputsBecomeQmmaOnAdaAndUnpackedHmmaOnHopper() throws CompilationException {
        assertEquals(new MmaLowerer.Form("QMMA", List.of("16832", "F32", "E4M3", "E5M2"), 4, 2, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32")));
        assertEquals(new MmaLowerer.Form("QMMA", List.of("16832", "F16", "E5M2", "E4M3"), 4, 2, 2, 2),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k32.row.col.f16.e5m2.e4m3.f16")));
        assertNull(MmaLowerer.form(words("mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f16")), "mixed C and D");
        assertEquals(new MmaLowerer.Form("QMMA", List.of("16816", "F32", "E4M3", "E4M3"), 2, 1, 4, 4),
                MmaLowerer.form(words("mma.sync.aligned.m16n8k16.row.col.f32.e4m3.e4m3.f32")), "k16: QMMA.16816");
        String mma = "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e5m2.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, "
                + "{%r5, %r6}, {%f5, %f6, %f7, %f8};";
        List<String> l = lower("sm_89", mma);
        assertTrue(l.stream().anyMatch(s -> s.matches(
                "QMMA\\.16832\\.F32\\.E4M3\\.E5M2 %r\\d+\\.128, %r\\d+\\.128, %r\\d+\\.64, %r\\d+\\.128")),
                String.join("\n", l));
        List<String> h = lower("sm_90", mma);
        assertEquals(2, h.stream().filter(s -> s.startsWith("HMMA.16816.F32 ")).count(), String.join("\n", h));
        assertEquals(12, h.stream().filter(s -> s.startsWith("F2FP.F16.")).count(), String.join("\n", h));
        assertTrue(h.stream().noneMatch(s -> s.startsWith("QMMA")), String.join("\n", h));
    }

    @Test
    void otherFormsAreRefusedByName() {
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> lower("sm_80",
                "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f32 {%r11, %r12, %r13, %r14}, {%r1, %r2}, "
                        + "{%r5, %r6}, {%f1, %f2, %f3, %f4, %f5, %f6, %f7, %f8};"));
        assertTrue(e.getMessage().contains("not yet supported"), e.getMessage());
    }
}
