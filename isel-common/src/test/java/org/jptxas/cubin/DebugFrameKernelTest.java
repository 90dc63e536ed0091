package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Where a kernel's second basic block starts, with ptxas 13's words: around system calls and sm_100 branches. */
class DebugFrameKernelTest {
    private static final long[] MOV_R2_0 = {0x0000000000027802L, 0x000fe20000000f00L};
    private static final long[] LEPC_R14 = {0x000000000000734eL, 0x000fc80000000000L}; // sm_80
    private static final long[] MOV_R20_0XD0 = {0x000000d000147802L, 0x000fe40000000f00L};
    private static final long[] CALL_ABS_R2 = {0x0000000002007343L, 0x001fea0003c00000L};
    private static final long[] EXIT = {0x000000000000794dL, 0x000fea0003800000L};

    @Test
    void aSystemCallsBlockStartsAtItsLepc() {
        // assertfail.ptx on sm_80: the PC-relative return address is set up from the LEPC on
        byte[] code = DebugFrameFenceTest.code(MOV_R2_0, LEPC_R14, MOV_R20_0XD0, CALL_ABS_R2, EXIT);
        assertEquals(0x10, DebugFrame.endOfFirstBlock(false, code, 0x40));
    }

    @Test
    void sm100BranchesEndTheFirstBlockAndTheirTargetsStartOne() {
        // sm_100's BRA (opcode 0x547; ptxas 13 in parboil crys_kernel), offset in 4-byte units in bits [23:16] and
        // [63:34] as on sm_90: forward by 0x10, and back by 0x20
        long[] forward = {0x0000000108047547L, 0x000fea000b800000L};
        long[] back = {0xfffffffd00f87547L, 0x000fea000b83ffffL};
        byte[] past = DebugFrameFenceTest.code(MOV_R2_0, forward, MOV_R2_0, EXIT);
        assertEquals(0x10, DebugFrame.branchOffset(true, past, 0x10));
        assertEquals(0x20, DebugFrame.endOfFirstBlock(true, past, 0x30));
        byte[] loop = DebugFrameFenceTest.code(MOV_R2_0, MOV_R2_0, back, EXIT);
        assertEquals(-0x20, DebugFrame.branchOffset(true, loop, 0x20));
        assertEquals(0x10, DebugFrame.secondBlock(true, loop, 0x30)); // the loop head
    }
}
