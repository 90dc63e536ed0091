package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.jptxas.cli.generality.FormKernels.Buffer;
import org.jptxas.cli.generality.FormKernels.Kernel;
import org.jptxas.simulator.numeric.SmallFloats;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code wgmma.mma_async} beyond the shapes and types the corpus uses, three ways on sm_90a: one kernel per form (a
 * warpgroup copies 16 KB of input to shared memory, one multiply from descriptors or with A in registers, every
 * accumulator register to the output), run by the PTX interpreter and by the SASS emulator on jptxas's and on ptxas
 * 13's cubins; the three outputs must be equal bit for bit. The forms cover every accumulator kind (f32, packed f16,
 * s32 wrapping and saturating, b1 AND.POPC), N values the corpus never used, the descriptor flags (negate, transpose),
 * A in registers, and a false scale-d. The arithmetic itself is shared by both simulators
 * ({@code WarpgroupMma}); this test proves the lowering and the encodings, {@code WarpgroupMmaTest} the arithmetic.
 */
@Tag("slow")
class WgmmaFormsThreeWayTest {
    private static final String SM = "sm_90a";

    /**
     * One form: PTX types after the shape, N, K, accumulator registers per thread, the operands after scale-d,
     * scale-d, whether A is in registers, and the element type the input is filled with.
     */
    record Form(String types, int n, int k, int accumulators, String immediates, String scaleD, boolean registerA,
                String element) {
        String name() {
            return ("w_" + types + "_n" + n + (registerA ? "_ra" : "") + ("0".equals(scaleD) ? "_z" : "")
                    + immediates.replaceAll("[^0-9-]", "").replace('-', 'm')).replace('.', '_');
        }
    }

    static final List<Form> FORMS = List.of(
            new Form("f32.f16.f16", 8, 16, 4, ", 1, 1, 0, 0", "1", false, "f16"),
            new Form("f32.f16.f16", 64, 16, 32, ", -1, 1, 0, 1", "1", false, "f16"),
            new Form("f32.f16.f16", 200, 16, 100, ", 1, 1, 0, 0", "1", false, "f16"),
            new Form("f16.f16.f16", 64, 16, 16, ", 1, 1, 0, 0", "1", false, "f16"),
            new Form("f16.f16.f16", 16, 16, 4, ", 1, 1, 0, 0", "0", false, "f16"),
            new Form("f32.bf16.bf16", 64, 16, 32, ", -1, 1, 1", "1", true, "bf16"),
            new Form("f32.bf16.bf16", 96, 16, 48, ", 1, 1, 0, 0", "1", false, "bf16"),
            new Form("f32.tf32.tf32", 24, 8, 12, ", 1, 1", "1", false, "tf32"),
            new Form("f32.e4m3.e5m2", 40, 32, 20, ", 1, -1", "1", false, "e4m3"),
            new Form("s32.s8.u8", 32, 32, 16, "", "1", false, "s8"),
            new Form("s32.u8.u8.satfinite", 16, 32, 8, "", "1", false, "s8"),
            new Form("s32.s8.s8", 64, 32, 32, "", "1", true, "s8"),
            new Form("s32.b1.b1.and.popc", 24, 256, 12, "", "1", false, "b1"));

    @Test
    void everyFormAgreesThreeWays(@TempDir Path dir) throws IOException {
        Path ptxas = Oracles.assumePtxas13();
        ThreeWay.Compiler theirs = ThreeWay.ptxas(ptxas, dir);
        List<String> problems = new ArrayList<>();
        for (Form f : FORMS) {
            String ptx = module(f);
            Kernel k = kernel(f);
            ThreeWay.LegResult reference = ThreeWay.run(ThreeWay.interpreter(f.name() + ".ptx", ptx), SM, k);
            if (reference.status() != ThreeWay.LegResult.Status.COMPLETED) {
                problems.add(f.name() + ": interpreter " + reference.status() + " " + reference.detail());
                continue;
            }
            for (var leg : List.of(java.util.Map.entry("jptxas", ThreeWay.JPTXAS), java.util.Map.entry("ptxas", theirs))) {
                ThreeWay.Compiled c = leg.getValue().compile(f.name() + ".ptx", ptx, SM);
                if (c.cubin() == null) {
                    problems.add(f.name() + ": " + leg.getKey() + " does not compile it: " + c.error() + " " + c.crash());
                    continue;
                }
                ThreeWay.LegResult r = ThreeWay.run(ThreeWay.emulator(SM, c.cubin()), SM, k);
                if (r.status() != ThreeWay.LegResult.Status.COMPLETED) {
                    problems.add(f.name() + ": " + leg.getKey() + "'s cubin " + r.status() + " " + r.detail());
                } else if (!Arrays.equals(reference.out(), r.out())) {
                    problems.add(f.name() + ": " + leg.getKey() + "'s cubin differs from the interpreter");
                } else if (!r.hazards().isEmpty()) {
                    problems.add(f.name() + ": " + leg.getKey() + "'s cubin has hazards " + r.hazards());
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    static Kernel kernel(Form f) {
        return new Kernel(f.name(), "", entry(f), 1, 128, List.of(new Buffer(input(f.element(), f.name().hashCode())),
                new Buffer(new byte[128 * f.accumulators() * 4])), 1, f.accumulators() * 4, List.of());
    }

    static String module(Form f) {
        return ".version 8.5\n.target sm_90a\n.address_size 64\n\n" + entry(f);
    }

    /** The entry: copy, descriptors (K-major, no swizzle: LBO 128, SBO 256; A at 0, B at 4096), multiply, stores. */
    static String entry(Form f) {
        int acc = f.accumulators();
        StringBuilder s = new StringBuilder();
        s.append(".visible .entry ").append(f.name()).append("(.param .u64 pin, .param .u64 pout)\n{\n");
        s.append("  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n  .reg .pred %p<2>;\n  .reg .b32 %d<").append(acc)
                .append(">;\n  .shared .align 1024 .b8 smem[16384];\n");
        s.append("""
                  ld.param.u64 %rd1, [pin];
                  ld.param.u64 %rd2, [pout];
                  cvta.to.global.u64 %rd1, %rd1;
                  cvta.to.global.u64 %rd2, %rd2;
                  mov.u32 %r1, %tid.x;
                  mov.u32 %r2, smem;
                  mov.u32 %r3, 0;
                $copy:
                  mad.lo.u32 %r4, %r1, 32, %r3;
                  mul.wide.u32 %rd3, %r4, 4;
                  add.s64 %rd4, %rd1, %rd3;
                  ld.global.u32 %r5, [%rd4];
                  shl.b32 %r6, %r4, 2;
                  add.u32 %r7, %r2, %r6;
                  st.shared.u32 [%r7], %r5;
                  add.u32 %r3, %r3, 1;
                  setp.lt.u32 %p1, %r3, 32;
                  @%p1 bra $copy;
                  bar.sync 0;
                  fence.proxy.async.shared::cta;
                  shr.u32 %r8, %r2, 4;
                  and.b32 %r8, %r8, 16383;
                  cvt.u64.u32 %rd5, %r8;
                  or.b64 %rd5, %rd5, 68719476736;
                  or.b64 %rd5, %rd5, 524288;
                  add.u32 %r9, %r2, 4096;
                  shr.u32 %r9, %r9, 4;
                  and.b32 %r9, %r9, 16383;
                  cvt.u64.u32 %rd6, %r9;
                  or.b64 %rd6, %rd6, 68719476736;
                  or.b64 %rd6, %rd6, 524288;
                  mul.wide.u32 %rd9, %r1, 16;
                  add.s64 %rd10, %rd1, %rd9;
                  ld.global.v4.u32 {%r10, %r11, %r12, %r13}, [%rd10];
                """);
        for (int i = 0; i < acc; i++) {
            s.append("  mov.b32 %d").append(i).append(", ").append(initial(f, i)).append(";\n");
        }
        List<String> d = new ArrayList<>();
        for (int i = 0; i < acc; i++) {
            d.add("%d" + i);
        }
        s.append("  wgmma.fence.sync.aligned;\n");
        s.append("  wgmma.mma_async.sync.aligned.m64n").append(f.n()).append('k').append(f.k()).append('.')
                .append(f.types()).append(" {").append(String.join(", ", d)).append("}, ")
                .append(f.registerA() ? "{%r10, %r11, %r12, %r13}" : "%rd5").append(", %rd6, ").append(f.scaleD())
                .append(f.immediates()).append(";\n");
        s.append("  wgmma.commit_group.sync.aligned;\n  wgmma.wait_group.sync.aligned 0;\n");
        s.append("  mul.lo.u32 %r14, %r1, ").append(acc * 4).append(";\n  cvt.u64.u32 %rd7, %r14;\n")
                .append("  add.s64 %rd8, %rd2, %rd7;\n");
        for (int i = 0; i < acc; i++) {
            s.append("  st.global.b32 [%rd8+").append(4 * i).append("], %d").append(i).append(";\n");
        }
        return s.append("  ret;\n}\n").toString();
    }

    /** Accumulator register i's starting bits: small values of the accumulator's type. */
    private static String initial(Form f, int i) {
        if (f.types().startsWith("f32")) {
            return "0f" + String.format("%08X", Float.floatToRawIntBits(0.25f * (i % 9 - 4)));
        }
        if (f.types().startsWith("f16")) {
            int h = SmallFloats.toHalf(0.5 * (i % 7 - 3));
            return String.valueOf(h | h << 16);
        }
        return String.valueOf(i % 2 == 0 ? 2_147_483_000 - 1000 * i : -37 * i);
    }

    /** 16 KB of elements of {@code type}: small exact values (no NaN or infinity), random bits for integers and b1. */
    static byte[] input(String type, long seed) {
        Random rnd = new Random(seed);
        byte[] b = new byte[16384];
        switch (type) {
            case "f16", "bf16" -> {
                for (int i = 0; i < b.length; i += 2) {
                    double v = (rnd.nextInt(17) - 8) / 4.0;
                    int h = type.equals("f16") ? SmallFloats.toHalf(v) : SmallFloats.toBf16(v);
                    b[i] = (byte) h;
                    b[i + 1] = (byte) (h >>> 8);
                }
            }
            case "tf32" -> {
                for (int i = 0; i < b.length; i += 4) {
                    int w = Float.floatToRawIntBits((rnd.nextInt(33) - 16) / 8.0f) & 0xffffe000;
                    for (int q = 0; q < 4; q++) {
                        b[i + q] = (byte) (w >>> 8 * q);
                    }
                }
            }
            case "e4m3" -> {
                for (int i = 0; i < b.length; i++) {
                    b[i] = (byte) (rnd.nextInt(0x70) | (rnd.nextBoolean() ? 0x80 : 0)); // exponents below the top
                }
            }
            default -> rnd.nextBytes(b);
        }
        return b;
    }
}
