package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.sass.SassEmulator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel with a device-side assert ({@code __assertfail}, a system call whose address the code loads from constant
 * bank 4) runs in the SASS emulator: threads that never reach the call compute their results, and a thread that
 * calls it stops the launch as a trap, for jptxas's cubins and ptxas 13's (a test of its own, needing ptxas).
 */
class SystemCallEmulationTest {
    private static final String PTX = """
            .version 7.0
            .target sm_75
            .address_size 64
            .extern .func __assertfail(.param .b64 a0, .param .b64 a1, .param .b32 a2, .param .b64 a3, .param .b64 a4);
            .visible .entry check(.param .u64 out, .param .u32 n)
            {
              .reg .b32 %r<4>;
              .reg .b64 %rd<5>;
              .reg .pred %p<2>;
              ld.param.u64 %rd1, [out];
              ld.param.u32 %r1, [n];
              mov.u32 %r2, %tid.x;
              setp.ge.u32 %p1, %r2, %r1;
              @%p1 bra FAIL;
              cvta.to.global.u64 %rd2, %rd1;
              mul.wide.u32 %rd3, %r2, 4;
              add.s64 %rd4, %rd2, %rd3;
              add.u32 %r3, %r2, 5;
              st.global.u32 [%rd4], %r3;
              ret;
            FAIL:
              {
              .param .b64 p0;
              st.param.b64 [p0], %rd1;
              .param .b64 p1;
              st.param.b64 [p1], %rd1;
              .param .b32 p2;
              st.param.b32 [p2], 7;
              .param .b64 p3;
              st.param.b64 [p3], %rd1;
              .param .b64 p4;
              st.param.b64 [p4], 1;
              call.uni __assertfail, (p0, p1, p2, p3, p4);
              }
              ret;
            }
            """;

    @Test
    void assertsThatDoNotFireLetTheKernelRunAndOneThatFiresTraps(@TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("assert.ptx");
        Files.writeString(ptx, PTX);
        assertEquals(List.of(), SuiteArchCubins.jptxas(ptx, SystemCallEmulationTest::check));
    }

    /** ptxas 13's cubins of the same kernel: the emulator runs them alike. */
    @Test
    void ptxasCubinsRunAlike(@TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("assert.ptx");
        Files.writeString(ptx, PTX);
        assertEquals(List.of(), SuiteArchCubins.ptxas(ptx, SystemCallEmulationTest::check));
    }

    /** With 32 threads and n = 32 no thread asserts and out[t] = t + 5; with n = 16 threads 16..31 trap. */
    private static void check(String who, String arch, SassEmulator emulator, List<String> problems)
            throws Exception {
        Launch quiet = launch(arch, 32);
        LaunchResult ok = emulator.execute(quiet, ExecutionLimits.DEFAULT);
        if (ok.fault().isPresent()) {
            problems.add(who + ": no thread asserts, yet " + ok.fault().get().describe());
        } else {
            ByteBuffer out = ByteBuffer.wrap(quiet.arguments().get(0).buffer().orElseThrow().bytes())
                    .order(ByteOrder.LITTLE_ENDIAN);
            for (int t = 0; t < 32; t++) {
                if (out.getInt(4 * t) != t + 5) {
                    problems.add(who + ": out[" + t + "] = " + out.getInt(4 * t));
                    break;
                }
            }
        }
        LaunchResult fired = emulator.execute(launch(arch, 16), ExecutionLimits.DEFAULT);
        if (fired.fault().isEmpty() || !(fired.fault().get() instanceof Fault.Trap)) {
            problems.add(who + ": threads 16..31 assert, yet " + fired.fault().map(Fault::describe)
                    .orElse("the launch completed"));
        }
    }

    private static Launch launch(String arch, int n) throws Exception {
        return SuiteArchCubins.launch(arch, "{\"entry\":\"check\",\"grid\":[1,1,1],\"block\":[32,1,1],\"params\":["
                + "{\"type\":\"ptr\",\"bytes\":128},{\"type\":\"u32\",\"value\":" + n + "}]}");
    }
}
