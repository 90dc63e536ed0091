package org.jptxas.simulator.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** fns.b32 as ptxas 13's sm_80 code computes it (values read from its cubin in the emulator). */
class FnsInstructionTest {
    @Test
    void forwardBackwardAndBaseBit() {
        assertEquals(19, FnsInstruction.find(0xffffffff, 0, 20));
        assertEquals(31, FnsInstruction.find(0x8c5c715f, 31, 0));
        assertEquals(-1, FnsInstruction.find(0x10101010, 19, 0));
        assertEquals(-1, FnsInstruction.find(0x80000001, 4, 6));
        assertEquals(-1, FnsInstruction.find(0x80000001, 28, -25));
        assertEquals(1, FnsInstruction.find(0xffffffff, 31, -31));
    }

    @Test
    void outOfRangeOperandsAsTheHardwareSequence() {
        assertEquals(-1, FnsInstruction.find(0, 32, 0));
        assertEquals(-1, FnsInstruction.find(0xffffffff, -1, -2));
        assertEquals(-1, FnsInstruction.find(0x10101010, -1, 16));
        assertEquals(0, FnsInstruction.find(0x9c653938, 31, Integer.MIN_VALUE));
        assertEquals(0, FnsInstruction.find(0x80000001, -1, Integer.MIN_VALUE));
    }
}
