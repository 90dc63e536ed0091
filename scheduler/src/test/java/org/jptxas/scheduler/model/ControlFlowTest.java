package org.jptxas.scheduler.model;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ControlFlowTest {
    @Test
    void aForwardJumpsExitStateIsLastAskedForAtItsTarget() {
        // 0 -> 3, 1 -> 5 forward; 4 -> 2 backward (a loop)
        ControlFlow flow = ControlFlow.fromBranches(new int[] {3, 5, -1, -1, 2, -1, -1}, new boolean[7]);
        assertTrue(flow.lastUseOfExit(0, 3));
        assertTrue(flow.lastUseOfExit(1, 5));
        assertFalse(flow.lastUseOfExit(0, 5));
        assertFalse(flow.lastUseOfExit(2, 3), "not a jump source");
    }

    @Test
    void aBackwardJumpKeepsItsExitStateForTheNextPass() {
        ControlFlow flow = ControlFlow.fromBranches(new int[] {-1, -1, -1, -1, 2, -1}, new boolean[6]);
        assertFalse(flow.lastUseOfExit(4, 2));
        // a source with a forward and a backward target (a jump table) keeps it too
        int[][] preds = new int[6][];
        preds[1] = new int[] {3};
        preds[5] = new int[] {3};
        ControlFlow both = new ControlFlow(preds, new boolean[] {true, true, true, true, true, true});
        assertFalse(both.lastUseOfExit(3, 5));
        assertFalse(both.lastUseOfExit(3, 1));
    }

    @Test
    void aSourceWithSeveralForwardTargetsIsLastAskedForAtTheFurthest() {
        int[][] preds = new int[7][];
        preds[3] = new int[] {0};
        preds[6] = new int[] {0};
        ControlFlow flow = new ControlFlow(preds, new boolean[] {true, true, true, true, true, true, true});
        assertFalse(flow.lastUseOfExit(0, 3));
        assertTrue(flow.lastUseOfExit(0, 6));
    }
}
