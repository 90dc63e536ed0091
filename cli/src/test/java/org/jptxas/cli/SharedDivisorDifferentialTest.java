package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Divisions sharing one divisor (div.full, div.approx, div.full.ftz: one range test and MUFU.RCP, each dividend
 * scaled on its own) give ptxas's results bit for bit and the interpreter's within 1e-6 relative (its reciprocal
 * is not MUFU's), divisors near 2^±126, zeros, infinities and subnormals included: jptxas-run --differential on
 * sm_80 and sm_90.
 */
class SharedDivisorDifferentialTest {
    private static final int THREADS = 128;
    private static final String PTX = """
            .version 8.0
            .target sm_80
            .address_size 64
            .visible .entry sharediv(.param .u64 pin, .param .u64 pout)
            {
            .reg .b32 %r<16>; .reg .b64 %rd<8>;
            ld.param.u64 %rd1, [pin];
            ld.param.u64 %rd2, [pout];
            mov.u32 %r1, %tid.x;
            mul.wide.u32 %rd3, %r1, 12;
            add.s64 %rd4, %rd1, %rd3;
            ld.global.f32 %r2, [%rd4];
            ld.global.f32 %r3, [%rd4+4];
            ld.global.f32 %r4, [%rd4+8];
            div.full.f32 %r5, %r2, %r4;
            div.full.f32 %r6, %r3, %r4;
            div.approx.f32 %r7, %r2, %r4;
            div.approx.f32 %r8, %r3, %r4;
            div.full.ftz.f32 %r9, %r3, %r4;
            div.full.ftz.f32 %r10, %r2, %r4;
            mul.wide.u32 %rd5, %r1, 24;
            add.s64 %rd6, %rd2, %rd5;
            st.global.v2.f32 [%rd6], {%r5, %r6};
            st.global.v2.f32 [%rd6+8], {%r7, %r8};
            st.global.v2.f32 [%rd6+16], {%r9, %r10};
            ret;
            }
            """;
    private static final String SPEC = """
            {"entry": "sharediv", "grid": [1,1,1], "block": [128,1,1], "dynamic_shared_bytes": 0,
             "params": [{"type": "ptr", "bytes": 1536, "in": "in.bin"},
                        {"type": "ptr", "bytes": 3072, "in": "out.bin", "out": "out.res.bin"}]}
            """;

    @Test
    void sharedReciprocalsAgreeWithTheInterpreterAndPtxas(@TempDir Path dir) throws Exception {
        Path ptxas = org.jptxas.testing.Oracles.assumePtxas13();
        float[] divisors = {3f, 1e38f, 2e38f, -3e38f, 1e-39f, -5e-40f, 1e-30f, 7.5f, -0f, 0f, Float.POSITIVE_INFINITY,
            1.2e-38f, 0x1.8p126f, 0x1p-126f, Float.NaN};
        float[] dividends = {1f, -2.5f, 3e38f, 1e-40f, 7e-39f, 123.456f, Float.POSITIVE_INFINITY, 0f};
        Random rnd = new Random(3);
        ByteBuffer in = ByteBuffer.allocate(THREADS * 12).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < THREADS; i++) {
            float b = i < 3 * divisors.length ? divisors[i % divisors.length]
                    : (rnd.nextFloat() - 0.5f) * 20f * (float) Math.pow(10, 37 * (rnd.nextInt(3) - 1));
            in.putFloat(dividends[i % dividends.length]);
            in.putFloat((rnd.nextFloat() - 0.5f) * 2e3f * (float) Math.pow(10, 33 * (rnd.nextInt(3) - 1)));
            in.putFloat(b);
        }
        Files.write(dir.resolve("in.bin"), in.array());
        Files.write(dir.resolve("out.bin"), new byte[THREADS * 24]);
        Files.writeString(dir.resolve("sharediv.ptx"), PTX);
        Files.writeString(dir.resolve("launch.json"), SPEC);
        for (String arch : new String[] {"sm_80", "sm_90"}) {
            // bit for bit against ptxas's cubin (same MUFU.RCP, same scaling)
            JptxasRunCommandTest.Run exact = JptxasRunCommandTest.run(dir, "--arch", arch, "sharediv.ptx", "--spec",
                    "launch.json", "--differential", "--ptxas", ptxas.toString());
            assertTrue(exact.out().contains("(b) vs (c): every buffer agrees"), arch + "\n" + exact.out() + exact.err());
            // the interpreter's reciprocal is not MUFU's: within a few units in the last place of it
            JptxasRunCommandTest.Run close = JptxasRunCommandTest.run(dir, "--arch", arch, "sharediv.ptx", "--spec",
                    "launch.json", "--differential", "--ptxas", ptxas.toString(), "--tolerance", "1=f32:0:0.000001");
            assertEquals(0, close.rc(), arch + "\n" + close.out() + close.err());
        }
    }
}
