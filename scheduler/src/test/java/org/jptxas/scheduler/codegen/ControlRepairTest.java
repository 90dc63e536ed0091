package org.jptxas.scheduler.codegen;

import static org.jptxas.scheduler.TestInstrs.alu;
import static org.jptxas.scheduler.TestInstrs.ldg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SimpleInstr;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

/**
 * A register loaded on two paths, each load on its own scoreboard, read where the paths merge: waiting on the
 * scoreboard of the load the checker names is not enough, the reader must wait on both.
 */
class ControlRepairTest {
    private final LatencyModel model = LatencyModel.of(TestTargets.of("sm_80"));

    private static ControlWord cw(int stall, int wr, int wait) {
        return new ControlWord(stall, true, wr, ControlWord.NONE, wait, 0);
    }

    @Test
    void aReadWhereTwoLoadsMergeWaitsOnBothScoreboards() {
        SimpleInstr branch = SimpleInstr.builder("branch").name("@P0 BRA 3").guard(RegFile.P, 0).flag(SchedFlag.BRANCH).build();
        List<SimpleInstr> code = List.of(
                ldg(2, 4),     // SB0
                branch,        // to the join, R2 pending on SB0
                ldg(2, 6),     // SB1, waits SB0 first (the two writes of R2 stay ordered)
                alu(5, 2, 2),  // the join: waits SB0 only (the jump path's load, the one the checker names)
                SimpleInstr.builder("branch").name("EXIT").flag(SchedFlag.EXIT).build());
        ControlFlow flow = ControlFlow.fromBranches(new int[] {-1, 3, -1, -1, -1},
                new boolean[] {false, false, false, false, true});
        List<ControlWord> words = List.of(cw(2, 0, 0), cw(2, ControlWord.NONE, 0), cw(2, 1, 0b01),
                cw(1, ControlWord.NONE, 0b01), cw(1, ControlWord.NONE, 0));

        ControlRepair.Repaired repaired = ControlRepair.repair(model, code, words, flow);

        assertTrue(repaired.hazards().stream().noneMatch(h -> h.isError()), () -> "left: " + repaired.hazards());
        assertEquals(0b11, repaired.words().get(3).waitMask() & 0b11, "the join's reader waits on SB0 and SB1");
    }
}
