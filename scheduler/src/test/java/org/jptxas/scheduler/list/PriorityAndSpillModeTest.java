package org.jptxas.scheduler.list;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PriorityAndSpillModeTest {
    @Test
    void packsEachCriterionIntoItsBit() {
        assertEquals(0x80, Priority.pack(true, false, false, false, false, false, false, false));
        assertEquals(0x24, Priority.pack(false, false, true, false, false, true, false, false));
        assertEquals(0x0b, Priority.pack(false, false, false, false, true, false, true, true));
    }

    @Test
    void multiStageScanChecksPressureThenYieldThenCriticalThenStallFreeThenHot() {
        assertTrue(Priority.compareBits(Priority.PRESSURE, Priority.YIELD | Priority.CRITICAL) < 0);
        assertTrue(Priority.compareBits(Priority.YIELD, Priority.CRITICAL | Priority.STALL_FREE) < 0);
        assertTrue(Priority.compareBits(Priority.CRITICAL, Priority.STALL_FREE | Priority.HOT) < 0);
        assertTrue(Priority.compareBits(Priority.STALL_FREE, Priority.HOT) < 0);
        assertTrue(Priority.compareBits(Priority.HOT, Priority.YIELD_RELATED) < 0);
        // Bit 7 is checked after the others, even though it is the MSB of the packed byte.
        assertTrue(Priority.compareBits(Priority.HOT, Priority.YIELD_RELATED | Priority.SAME_BB) < 0);
        assertEquals(0, Priority.compareBits(0x2c, 0x2c));
    }

    @Test
    void spillModeEntersOnABarrierTargetAndDrains() {
        SpillModeState s = new SpillModeState();
        s.rescanIfNeeded(3, 1);
        assertEquals(1, s.depthThreshold());
        assertTrue(s.criticalActive(3));
        assertFalse(s.criticalActive(0));
        boolean changed = s.afterSelection(true, 3, 0, false, false);
        assertTrue(changed);
        assertTrue(s.active());
        assertEquals(2, s.countdown());
        s.afterSelection(true, 2, 0, false, false);
        s.afterSelection(true, 1, 0, false, false);
        assertFalse(s.active(), "countdown drained: NORMAL again");
        assertEquals(-1, s.depthThreshold(), "sentinel forces a re-scan");
    }

    @Test
    void nonTargetUnderPressureForcesExit() {
        SpillModeState s = new SpillModeState();
        s.rescanIfNeeded(5, 2);
        s.afterSelection(true, 5, 0, false, false);
        assertTrue(s.active());
        assertTrue(s.afterSelection(false, 4, 0, true, false));
        assertFalse(s.active());
        assertEquals(-1, s.depthThreshold());
    }

    @Test
    void nonTargetWithoutPressureKeepsSpillMode() {
        SpillModeState s = new SpillModeState();
        s.rescanIfNeeded(5, 2);
        s.afterSelection(true, 5, 0, false, false);
        assertFalse(s.afterSelection(false, 4, 0, false, false));
        assertTrue(s.active());
    }
}
