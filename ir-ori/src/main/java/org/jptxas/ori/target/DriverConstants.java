package org.jptxas.ori.target;

/**
 * The layout of constant bank 0 as the CUDA driver fills it for a kernel launch (sm_75 and later), as ptxas's code
 * reads it: launch dimensions, the initial stack pointer, the global-memory descriptor and the kernel parameters.
 * Offsets were read off ptxas 13.0 / 12.5 output ({@code %ntid.x} is {@code c[0x0][0x0]}, ...).
 */
public final class DriverConstants {
    private DriverConstants() {}

    /** {@code %ntid.x/y/z}: {@code c[0x0][0x0]}, {@code 0x4}, {@code 0x8}. */
    public static int ntid(int dim) {
        return 4 * dim;
    }

    /** {@code %nctaid.x/y/z}: {@code c[0x0][0xc]}, {@code 0x10}, {@code 0x14}. */
    public static int nctaid(int dim) {
        return 0xc + 4 * dim;
    }

    /** The initial stack pointer (local-window address of the frame), loaded into R1 by every kernel's prologue. */
    public static final int STACK_POINTER = 0x28;

    /** {@code %dynamic_smem_size}. */
    public static final int DYNAMIC_SMEM_SIZE = 0x2c;

    /** {@code %gridid} (64 bits). */
    public static final int GRID_ID = 0x30;

    /** {@code %nsmid}. */
    public static final int NSMID = 0x10c;
}
