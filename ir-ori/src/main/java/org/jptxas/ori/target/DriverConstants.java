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

    /**
     * Thread-block clusters (sm_90, ptxas 13): {@code %is_explicit_cluster} is {@code c[0x0][0x140] == 1}; the cluster
     * shape {@code %cluster_nctaid.x/y/z} at {@code 0x144}, {@code 0x148}, {@code 0x14c}; the f32 reciprocals of the
     * shape, by which ptxas divides {@code %ctaid} for {@code %clusterid} ({@code F2I.U32.TRUNC(I2FP(ctaid) * rcp)}),
     * at {@code 0x150..0x158}; {@code %nclusterid.x/y/z} at {@code 0x15c..0x164}; {@code %cluster_nctarank} at
     * {@code 0x188}.
     */
    public static final int EXPLICIT_CLUSTER = 0x140;

    public static int clusterShape(int dim) {
        return 0x144 + 4 * dim;
    }

    public static int clusterShapeReciprocal(int dim) {
        return 0x150 + 4 * dim;
    }

    public static int clusterCount(int dim) {
        return 0x15c + 4 * dim;
    }

    public static final int CLUSTER_NCTARANK = 0x188;
}
