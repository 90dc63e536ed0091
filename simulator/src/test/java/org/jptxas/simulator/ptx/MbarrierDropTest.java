package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.junit.jupiter.api.Test;

/**
 * {@code mbarrier.arrive_drop} lowers the expected count of the phases after it, and {@code mbarrier.pending_count}
 * reads a state's pending arrivals, in the PTX interpreter: 64 threads complete phase 0 of a barrier of 64, the second
 * warp with arrive_drop; thread 0's arrival in phase 1 finds 32 pending (not 64), and the first warp's 32 arrivals
 * complete phase 1. (The SASS emulator executes ptxas 13's {@code SYNCS.ARRIVE.TRANS64.OPTOUT.A1T0/.ART0} the same
 * way, but the decoder's sm_90 table has no .OPTOUT word yet, so ptxas's cubin of this kernel is not run here.)
 */
class MbarrierDropTest {
    private static final String PTX = """
            .version 8.6
            .target sm_90
            .address_size 64
            .visible .entry k(.param .u64 out)
            {
              .reg .b32 r<8>;
              .reg .b64 rd<8>;
              .reg .pred p<6>;
              .shared .align 8 .b64 bar;
              ld.param.u64 rd1, [out];
              mov.u32 r1, %tid.x;
              mov.u32 r3, bar;
              setp.eq.u32 p1, r1, 0;
              setp.ge.u32 p2, r1, 32;
              @p1 mbarrier.init.shared::cta.b64 [r3], 64;
              bar.sync 0;
              @p2 mbarrier.arrive_drop.shared::cta.b64 rd2, [r3];
              @!p2 mbarrier.arrive.shared::cta.b64 rd2, [r3];
              bar.sync 0;
              mbarrier.test_wait.parity.shared::cta.b64 p3, [r3], 0;
              @p1 mbarrier.arrive.shared::cta.b64 rd3, [r3];
              @p1 mbarrier.pending_count.b64 r4, rd3;
              bar.sync 0;
              setp.lt.and.u32 p4, r1, 32, !p1;
              @p4 mbarrier.arrive.shared::cta.b64 rd4, [r3];
              bar.sync 0;
              mbarrier.test_wait.parity.shared::cta.b64 p5, [r3], 1;
              @!p1 bra done;
              selp.u32 r5, 1, 0, p3;
              selp.u32 r6, 1, 0, p5;
              st.global.u32 [rd1], r4;
              st.global.u32 [rd1+4], r5;
              st.global.u32 [rd1+8], r6;
            done:
              ret;
            }
            """;

    private static final String SPEC = "{\"entry\":\"k\",\"grid\":[1],\"block\":[64],\"params\":[{\"type\":\"ptr\","
            + "\"bytes\":12}]}";

    private static int[] out(Launch launch) {
        ByteBuffer b = ByteBuffer.wrap(launch.arguments().get(0).buffer().orElseThrow().bytes())
                .order(ByteOrder.LITTLE_ENDIAN);
        return new int[] {b.getInt(0), b.getInt(4), b.getInt(8)};
    }

    private static Launch launch() throws Exception {
        return Launch.prepare(Target.of("sm_90"), LaunchSpecReader.parse("spec", SPEC, Path.of(".")));
    }

    @Test
    void theInterpreterDropsAndCountsPending() throws Exception {
        Launch launch = launch();
        LaunchResult r = PtxInterpreter.load("k.ptx", PTX).execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertArrayEquals(new int[] {32, 1, 1}, out(launch));
    }
}
