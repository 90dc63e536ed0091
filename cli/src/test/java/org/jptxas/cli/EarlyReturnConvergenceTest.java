package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A subroutine that returns early on some lanes ({@code @P0 RET}, as ptxas 13 writes it) and late on others, after a
 * loop, followed in the caller by a shuffle over the whole warp: under Volta's strict convergence the lanes must be
 * joined again before the SHFL (jptxas wraps such a call in its own BSSY/BSYNC, as ptxas does), or the emulator
 * faults. The buffer is checked against its value computed here.
 */
class EarlyReturnConvergenceTest {
    private static final String PTX = """
            .version 8.3
            .target %s
            .address_size 64
            .func f(.param .b64 f_p0, .param .b32 f_p1)
            {
            .reg .pred %%p<4>; .reg .b32 %%r<16>; .reg .b64 %%rd<4>;
            ld.param.u64 %%rd1, [f_p0];
            ld.param.u32 %%r1, [f_p1];
            mul.wide.u32 %%rd2, %%r1, 4;
            add.s64 %%rd3, %%rd1, %%rd2;
            and.b32 %%r2, %%r1, 1;
            setp.ne.s32 %%p1, %%r2, 0;
            @%%p1 bra $A;
            st.u32 [%%rd3], 7;
            ret;
            $A:
            mov.u32 %%r10, 0;
            mov.u32 %%r11, 0;
            $L:
            add.s32 %%r11, %%r11, %%r10;
            add.s32 %%r10, %%r10, 1;
            setp.lt.u32 %%p2, %%r10, %%r1;
            @%%p2 bra $L;
            setp.gt.u32 %%p3, %%r1, 20;
            @%%p3 bra $END;
            st.u32 [%%rd3], %%r11;
            $END:
            ret;
            }
            .visible .entry k(.param .u64 k_p)
            {
            .reg .b32 %%r<4>; .reg .b64 %%rd<4>;
            ld.param.u64 %%rd1, [k_p];
            cvta.to.global.u64 %%rd1, %%rd1;
            mov.u32 %%r1, %%tid.x;
            {
            .param .b64 param0;
            .param .b32 param1;
            st.param.b64 [param0+0], %%rd1;
            st.param.b32 [param1+0], %%r1;
            call.uni f, (param0, param1);
            }
            shfl.sync.idx.b32 %%r2, %%r1, 3, 31, -1;
            mul.wide.u32 %%rd2, %%r1, 4;
            add.s64 %%rd3, %%rd1, %%rd2;
            st.global.u32 [%%rd3+128], %%r2;
            ret;
            }
            """;

    private static final String SPEC = """
            {"entry": "k", "grid": [1,1,1], "block": [32,1,1], "dynamic_shared_bytes": 0,
             "params": [{"type": "ptr", "bytes": 256, "out": "out.bin"}]}
            """;

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void lanesReturningApartAreJoinedBeforeTheShuffle(String arch, @TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("k.ptx"), PTX.formatted(arch));
        Files.writeString(dir.resolve("launch.json"), SPEC);
        CliRun compiled = CliRun.run(dir, "-arch=" + arch, "k.ptx", "-o", "k.cubin");
        assertEquals(0, compiled.exitCode(), compiled.err());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new JptxasRunCommand(new PrintWriter(out), new PrintWriter(err), dir).run(new String[] {"--arch", arch,
                "k.cubin", "--spec", "launch.json", "--strict-convergence"});
        assertEquals(0, rc, out + "\n" + err);
        assertFalse(out.toString().contains("FAULT"), out.toString());
        ByteBuffer expected = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
        for (int lane = 0; lane < 32; lane++) {
            int value = lane % 2 == 0 ? 7 : lane > 20 ? 0 : lane * (lane - 1) / 2;
            expected.putInt(4 * lane, value);
            expected.putInt(128 + 4 * lane, 3);
        }
        assertArrayEquals(expected.array(), Files.readAllBytes(dir.resolve("out.bin")));
    }
}
