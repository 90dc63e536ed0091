package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * Where a kernel's first basic block ends around a MEMBAR on sm_90 (the {@code DW_CFA_def_cfa} row of its
 * {@code .debug_frame}), with ptxas 13's words: a PTX fence ends it, the MEMBAR of a release store does not, though
 * both are MEMBAR.ALL.GPU; below sm_90 every MEMBAR does.
 */
class DebugFrameFenceTest {
    private static final long[] LD = {0x0000000402047980L, 0x000ea2000c1e1900L};
    private static final long[] MEMBAR_ALL_GPU = {0x0000000000007992L, 0x000fec000000a000L};
    private static final long[] MEMBAR_SC_CTA = {0x0000000000007992L, 0x0003ec0000000000L};
    private static final long[] ERRBAR = {0x00000000000079abL, 0x000fc00000000000L};
    private static final long[] CGAERRBAR = {0x00000000000075abL, 0x000fc00000000000L};
    private static final long[] CCTL_IVALL = {0x00000000ff00798fL, 0x000fe20002000000L};
    private static final long[] ST = {0x0000000408007985L, 0x000fe2000c101d04L};
    private static final long[] EXIT = {0x000000000000794dL, 0x000fea0003800000L};

    /** Instruction words (low, high) as code bytes. */
    static byte[] code(long[]... words) {
        ByteBuffer b = ByteBuffer.allocate(16 * words.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long[] w : words) {
            b.putLong(w[0]).putLong(w[1]);
        }
        return b.array();
    }

    @Test
    void aFenceEndsTheFirstBlock() {
        byte[] fence = code(LD, MEMBAR_ALL_GPU, ERRBAR, CGAERRBAR, CCTL_IVALL, ST, EXIT);
        assertEquals(0x20, DebugFrame.endOfFirstBlock(true, fence, 0x60));
        byte[] cta = code(LD, MEMBAR_SC_CTA, ST, EXIT);
        assertEquals(0x20, DebugFrame.endOfFirstBlock(true, cta, 0x30));
    }

    @Test
    void aReleaseStoresMembarDoesNotFromSm90() {
        byte[] release = code(LD, MEMBAR_ALL_GPU, ERRBAR, CGAERRBAR, ST, EXIT);
        assertEquals(0x60, DebugFrame.endOfFirstBlock(true, release, 0x50));
        assertEquals(0x20, DebugFrame.endOfFirstBlock(false, release, 0x50));
    }
}
