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

    /** Offset of the kernel parameters in constant bank 0: 0x160 on sm_75..sm_89, 0x210 on sm_90, 0x380 on sm_100+. */
    public static int paramBase(Target target) {
        int sm = target.sm();
        return sm >= 100 ? 0x380 : sm >= 90 ? 0x210 : 0x160;
    }

    /** The 64-bit global-memory descriptor ptxas loads into UR4 ({@code ULDC.64 UR4, c[0x0][0x118]} on sm_80). */
    public static int memoryDescriptor(Target target) {
        return target.sm() >= 90 ? 0x208 : 0x118;
    }
}
