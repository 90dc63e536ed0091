package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * VIMNMX3 (sm_90), ptxas 13's fold of two chained min or max into one instruction: PT selects the minimum, !PT the
 * maximum; no type is .S32. The instructions are the ones ptxas 13 -arch=sm_90 printed (nvdisasm 12.5) for
 * {@code min.u32 t, a, b; min.u32 d, t, c} and its max, s32, immediate, relu and 16x2 variants, e.g.
 * {@code VIMNMX3.U32 R9, R0, R5, R7, PT} (0x000000050009720f), {@code VIMNMX3 R15, R0, 0xfffffffb, R5, !PT}
 * (0xfffffffb000f780f), {@code VIMNMX3.RELU R5, R0, R5, R4, !PT} and {@code VIMNMX3.S16x2 R7, R0, R5, R4, PT}.
 */
class ThreeInputMinMaxTest {
    private static final int A = 0x8000_0005, B = 7, C = 0xffff_fff0;

    @Test
    void minAndMaxOfThreeByType() throws Exception {
        String[] forms = {
            "VIMNMX3.U32 R9, R0, R5, R7, PT",
            "VIMNMX3.U32 R9, R0, R5, R7, !PT",
            "VIMNMX3 R9, R0, R5, R7, PT",
            "VIMNMX3 R9, R0, R5, R7, !PT",
            "VIMNMX3.U32 R9, R0, 0x3e8, R7, PT",
            "VIMNMX3 R9, R0, 0xfffffffb, R5, !PT",
            "VIMNMX3.RELU R9, R0, R5, R7, PT",
            "VIMNMX3.RELU R9, R0, R5, R7, !PT",
            "VIMNMX3.S16x2 R9, R0, R5, R7, PT",
            "VIMNMX3.U16x2 R9, R0, R5, R7, !PT",
        };
        int[] expected = {
            B, // unsigned: 7 < 0x80000005 < 0xfffffff0
            C,
            A, // signed: 0x80000005 is the most negative
            B,
            1000, // min(0x80000005, 1000, 0xfffffff0) unsigned
            B, // max(0x80000005, -5, 7) signed
            0, // relu of the negative minimum
            B,
            // per half, signed: low halves 5, 7, -16 → -16; high halves -32768, 0, -1 → -32768
            0x8000_fff0,
            // per half, unsigned: low 5, 7, 0xfff0 → 0xfff0; high 0x8000, 0, 0xffff → 0xffff
            0xffff_fff0,
        };
        assertArrayEquals(expected, run(forms));
    }

    /**
     * ptxas 13's own cubin: {@code max.u32 t, a, 1000; max.u32 d, t, c} becomes
     * {@code VIMNMX3.U32 R7, R0, 0x3e8, R7, !PT} (the form of random program seed 294), run on four (a, c) pairs.
     */
    @Test
    void ptxasCubinOfAChainedUnsignedMax(@TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("vimnmx3_max.ptx");
        Files.writeString(ptx, String.join("\n",
                ".version 8.0", ".target sm_90", ".address_size 64",
                ".visible .entry vimnmx3_max(.param .u64 in, .param .u64 out)", "{",
                "  .reg .u32 %r<8>; .reg .u64 %rd<8>;",
                "  ld.param.u64 %rd1, [in]; ld.param.u64 %rd2, [out];",
                "  cvta.to.global.u64 %rd1, %rd1; cvta.to.global.u64 %rd2, %rd2;",
                "  mov.u32 %r1, %tid.x;",
                "  mul.wide.u32 %rd3, %r1, 8; add.u64 %rd4, %rd1, %rd3;",
                "  ld.global.u32 %r2, [%rd4]; ld.global.u32 %r3, [%rd4+4];",
                "  max.u32 %r4, %r2, 1000;",
                "  max.u32 %r5, %r4, %r3;",
                "  mul.wide.u32 %rd5, %r1, 4; add.u64 %rd6, %rd2, %rd5;",
                "  st.global.u32 [%rd6], %r5;",
                "  ret;", "}", ""));
        int[][] pairs = {{5, 7}, {0x8000_0000, 3}, {2000, 0xffff_fff0}, {999, 1001}};
        ByteBuffer in = ByteBuffer.allocate(8 * pairs.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int[] p : pairs) {
            in.putInt(p[0]).putInt(p[1]);
        }
        Files.write(dir.resolve("in.bin"), in.array());
        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, "sm_90");
        assertTrue(c.ok(), c.diagnostics());
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of("sm_90"), Files.readAllBytes(c.cubin().orElseThrow()));
        Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.parse("spec.json", "{\"entry\":"
                + "\"vimnmx3_max\",\"grid\":[1,1,1],\"block\":[" + pairs.length + ",1,1],\"params\":["
                + "{\"type\":\"ptr\",\"bytes\":" + 8 * pairs.length + ",\"in\":\"in.bin\"},"
                + "{\"type\":\"ptr\",\"bytes\":" + 4 * pairs.length + "}]}", dir));
        LaunchResult r = emu.execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertTrue(emu.classesExecuted().stream().anyMatch(k -> k.startsWith("VIMNMX3")),
                "ptxas no longer writes VIMNMX3 here: " + emu.classesExecuted());
        ByteBuffer out = ByteBuffer.wrap(launch.arguments().get(1).buffer().orElseThrow().bytes())
                .order(ByteOrder.LITTLE_ENDIAN);
        int[] got = new int[pairs.length];
        for (int i = 0; i < pairs.length; i++) {
            got[i] = out.getInt(4 * i);
        }
        assertArrayEquals(new int[] {1000, 0x8000_0000, 0xffff_fff0, 1001}, got);
    }

    /** Each form reads R0 = A, R5 = B, R7 = C and stores R9 to the next output word. */
    private static int[] run(String[] forms) throws Exception {
        String sm = "sm_90";
        int params = ConstantBank0Layout.of(Target.of(sm)).paramBase();
        List<String> text = new ArrayList<>(List.of(
                SassTextRun.pointer(sm, 0, 0),
                String.format("MOV R0, 0x%x", A),
                String.format("MOV R5, 0x%x", B),
                String.format("MOV R7, 0x%x", C)));
        for (int k = 0; k < forms.length; k++) {
            text.add(forms[k]);
            text.add("STG.E " + SassTextRun.global(sm) + (k == 0 ? "[R2.64], R9" : String.format("[R2.64+0x%x], R9", 4 * k)));
        }
        text.add("EXIT");
        return SassTextRun.run(sm, text, forms.length);
    }
}
