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
 * cvt.pack takes registers wider than its types, as ptxas 13 does: 64-bit sources give their low words, a 64-bit
 * destination gets the packed word zero-extended (its high word was all ones before). jptxas-run --differential on
 * sm_80 and sm_90: the interpreter, ptxas's cubin and jptxas's cubin agree bit for bit.
 */
class CvtPackWideRegisterDifferentialTest {
    private static final int THREADS = 64;
    private static final String PTX = """
            .version 8.0
            .target sm_80
            .address_size 64
            .visible .entry cvtpackwide(.param .u64 pin, .param .u64 pout)
            {
            .reg .b32 %r<8>; .reg .b64 %rd<8>; .reg .s64 %s<8>; .reg .f64 %fd<2>; .reg .u64 %u<4>;
            ld.param.u64 %rd1, [pin];
            ld.param.u64 %rd2, [pout];
            mov.u32 %r1, %tid.x;
            mul.wide.u32 %rd3, %r1, 24;
            add.s64 %rd4, %rd1, %rd3;
            ld.global.s64 %s1, [%rd4];
            ld.global.s64 %s2, [%rd4+8];
            ld.global.f64 %fd1, [%rd4+16];
            ld.global.u32 %r2, [%rd4+16];
            mov.b64 %s3, -1;
            cvt.pack.sat.u16.s32 %s3, %s1, %s2;
            mov.b64 %s4, -1;
            cvt.pack.sat.s8.s32.b32 %s4, %s1, %r2, %fd1;
            mov.b64 %u1, -1;
            cvt.pack.sat.u8.s32.b32 %u1, %s2, %s1, %r2;
            cvt.pack.sat.s4.s32.b32 %r3, %s1, %s2, %s1;
            mul.wide.u32 %rd5, %r1, 32;
            add.s64 %rd6, %rd2, %rd5;
            st.global.v2.u64 [%rd6], {%s3, %s4};
            cvt.u64.u32 %u2, %r3;
            st.global.v2.u64 [%rd6+16], {%u1, %u2};
            ret;
            }
            """;
    private static final String SPEC = """
            {"entry": "cvtpackwide", "grid": [1,1,1], "block": [64,1,1], "dynamic_shared_bytes": 0,
             "params": [{"type": "ptr", "bytes": 1536, "in": "in.bin"},
                        {"type": "ptr", "bytes": 2048, "in": "out.bin", "out": "out.res.bin"}]}
            """;

    @Test
    void wideRegistersAgreeWithTheInterpreterAndPtxas(@TempDir Path dir) throws Exception {
        Path ptxas = org.jptxas.testing.Oracles.assumePtxas13();
        Random rnd = new Random(5);
        long[] edges = {0, -1, 255, 256, -129, 70000, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x1_0000_0005L,
            0x7fff_ffff_0000_0080L};
        ByteBuffer in = ByteBuffer.allocate(THREADS * 24).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < THREADS; i++) {
            // high words that differ from the low word's sign: the result must not depend on them
            in.putLong(i < edges.length ? edges[i] : rnd.nextLong() >> rnd.nextInt(48));
            in.putLong(i < edges.length ? edges[edges.length - 1 - i] : rnd.nextLong() >> rnd.nextInt(48));
            in.putLong(rnd.nextLong());
        }
        Files.write(dir.resolve("in.bin"), in.array());
        Files.write(dir.resolve("out.bin"), new byte[THREADS * 32]);
        Files.writeString(dir.resolve("cvtpackwide.ptx"), PTX);
        Files.writeString(dir.resolve("launch.json"), SPEC);
        for (String arch : new String[] {"sm_80", "sm_90"}) {
            JptxasRunCommandTest.Run r = JptxasRunCommandTest.run(dir, "--arch", arch, "cvtpackwide.ptx", "--spec",
                    "launch.json", "--differential", "--ptxas", ptxas.toString());
            assertEquals(0, r.rc(), arch + "\n" + r.out() + r.err());
            assertTrue(r.out().contains("(b) vs (c): every buffer agrees"), arch + "\n" + r.out() + r.err());
        }
    }
}
