package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.simulator.suite.SuiteRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code cvta.param}: a kernel reads its parameters through their generic addresses (as Triton's warp-specialized
 * kernels read their tensor maps), in the PTX interpreter, on jptxas's cubins and on ptxas 13's: the emulator gives
 * constant bank 0 a generic window and fills the pointer ptxas's code adds the parameter offset to.
 */
class ParamGenericAddressTest {
    private static final String PTX = """
            .version 8.0
            .target sm_75
            .address_size 64
            .visible .entry cvp(.param .u64 out, .param .u32 n, .param .u32 m)
            {
              .reg .b64 %rd<6>;
              .reg .b32 %r<4>;
              mov.b64 %rd1, m;
              cvta.param.u64 %rd2, %rd1;
              ld.param.u64 %rd3, [out];
              cvta.to.global.u64 %rd4, %rd3;
              ld.u32 %r1, [%rd2];
              ld.u32 %r2, [%rd2+-4];
              st.global.u32 [%rd4], %r1;
              st.global.u32 [%rd4+4], %r2;
              ret;
            }
            """;

    @Test
    void parametersReadThroughGenericAddresses(@TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("cvp.ptx");
        Files.writeString(ptx, PTX);
        List<String> problems = new ArrayList<>();
        for (String arch : SuiteRun.ARCHES) {
            Launch l = launch(arch);
            check(arch + " interpreter", l, PtxInterpreter.load("cvp.ptx", PTX).execute(l, ExecutionLimits.DEFAULT),
                    problems);
        }
        problems.addAll(SuiteArchCubins.jptxas(ptx, ParamGenericAddressTest::check));
        assertEquals(List.of(), problems);
    }

    @Test
    void ptxasCubinsRunAlike(@TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("cvp.ptx");
        Files.writeString(ptx, PTX);
        assertEquals(List.of(), SuiteArchCubins.ptxas(ptx, ParamGenericAddressTest::check));
    }

    private static void check(String who, String arch, SassEmulator emulator, List<String> problems)
            throws Exception {
        Launch l = launch(arch);
        check(who, l, emulator.execute(l, ExecutionLimits.DEFAULT), problems);
    }

    /** out = {m, n} = {1234, 7}. */
    private static void check(String who, Launch l, LaunchResult r, List<String> problems) {
        if (r.fault().isPresent()) {
            problems.add(who + ": " + r.fault().get().describe());
            return;
        }
        ByteBuffer out = ByteBuffer.wrap(l.arguments().get(0).buffer().orElseThrow().bytes()).order(ByteOrder.LITTLE_ENDIAN);
        if (out.getInt(0) != 1234 || out.getInt(4) != 7) {
            problems.add(who + ": read " + out.getInt(0) + ", " + out.getInt(4) + " instead of 1234, 7");
        }
    }

    private static Launch launch(String arch) throws Exception {
        return SuiteArchCubins.launch(arch, "{\"entry\":\"cvp\",\"grid\":[1,1,1],\"block\":[1,1,1],\"params\":["
                + "{\"type\":\"ptr\",\"bytes\":8},{\"type\":\"u32\",\"value\":7},{\"type\":\"u32\",\"value\":1234}]}");
    }
}
