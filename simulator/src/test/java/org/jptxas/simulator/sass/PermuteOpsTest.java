package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** PRMT's modes on a = 0x33221100, b = 0x77665544 (byte i of the pool holds 0x11 * i), worked out by hand. */
class PermuteOpsTest {
    private static final int A = 0x33221100, B = 0x77665544;

    @Test
    void everyModeSelectsItsBytes() {
        assertEquals(0x66554433, PermuteOps.permute("F4E", A, 3, B)); // bytes 3, 4, 5, 6 from the low byte up
        assertEquals(0x44332211, PermuteOps.permute("F4E", A, 0x5, B)); // only the selector's low two bits
        assertEquals(0x77001122, PermuteOps.permute("B4E", A, 2, B)); // bytes 2, 1, 0, 7
        assertEquals(0x22222222, PermuteOps.permute("RC8", A, 2, B));
        assertEquals(0x33221111, PermuteOps.permute("ECL", A, 1, B)); // bytes 1, 1, 2, 3
        assertEquals(0x22221100, PermuteOps.permute("ECR", A, 2, B)); // bytes 0, 1, 2, 2
        assertEquals(0x33223322, PermuteOps.permute("RC16", A, 1, B));
        assertEquals(0x11001100, PermuteOps.permute("RC16", A, 2, B));
        // the default: a nibble per byte; bit 3 replicates the byte's sign
        assertEquals(0x00774400, PermuteOps.permute("", A, 0x8740, B));
        assertEquals(0xff808080, PermuteOps.permute("", 0x80, 0x8000, 0));
    }
}
