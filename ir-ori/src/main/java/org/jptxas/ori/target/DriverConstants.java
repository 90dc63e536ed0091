package org.jptxas.ori.target;

/**
 * The layout of constant bank 0 as the CUDA driver fills it for a kernel launch, as ptxas's code reads it: launch
 * dimensions, the initial stack pointer, grid and SM facts and the thread-block cluster shape. It changes between
 * families (sm_100 moved it up to 0x360 and past), so each target's backend names its layout ({@code "driver"} in
 * its {@code backend.json} ABI block) and shared code asks the target's {@link TargetProfile#driver()}. Offsets were
 * read off ptxas 13.0 / 12.5 output ({@code %ntid.x} is {@code c[0x0][0x0]} up to sm_90, {@code c[0x0][0x360]} on
 * sm_100, ...). {@link #UNKNOWN} marks a value this layout does not hold at a fixed offset (ptxas 13's sm_100 code
 * reads {@code %dynamic_smem_size} and the cluster shape through an index); the front end refuses those by name.
 *
 * @param ntid                   {@code %ntid.x}; {@code .y}, {@code .z} follow 4 bytes apart
 * @param nctaid                 {@code %nctaid.x}; {@code .y}, {@code .z} follow
 * @param stackPointer           the initial stack pointer (local-window address of the frame), loaded into R1 by every
 *                               kernel's prologue
 * @param dynamicSmemSize        {@code %dynamic_smem_size}
 * @param gridId                 {@code %gridid} (64 bits)
 * @param nsmid                  {@code %nsmid}
 * @param explicitCluster        {@code %is_explicit_cluster} is {@code c[0x0][explicitCluster] == 1}
 * @param clusterShape           {@code %cluster_nctaid.x}; {@code .y}, {@code .z} follow
 * @param clusterShapeReciprocal the f32 reciprocals of the shape, by which ptxas divides {@code %ctaid} for
 *                               {@code %clusterid} ({@code F2I.U32.TRUNC(I2FP(ctaid) * rcp)})
 * @param clusterCount           {@code %nclusterid.x}; {@code .y}, {@code .z} follow
 * @param clusterNctarank        {@code %cluster_nctarank}
 */
public record DriverConstants(int ntid, int nctaid, int stackPointer, int dynamicSmemSize, int gridId, int nsmid,
                              int explicitCluster, int clusterShape, int clusterShapeReciprocal, int clusterCount,
                              int clusterNctarank) {
    /** A value the layout does not hold at a fixed offset. */
    public static final int UNKNOWN = -1;

    /**
     * sm_75 ... sm_90 (ptxas 13): {@code %ntid} at {@code 0x0}, {@code %nctaid} at {@code 0xc}, the stack pointer at
     * {@code 0x28}; the cluster facts (sm_90) at {@code 0x140 ... 0x188}.
     */
    public static final DriverConstants CLASSIC = new DriverConstants(0x0, 0xc, 0x28, 0x2c, 0x30, 0x10c, 0x140, 0x144,
            0x150, 0x15c, 0x188);

    /**
     * sm_100 ... sm_121 (ptxas 13's sm_100 code): {@code %ntid} at {@code 0x360}, {@code %is_explicit_cluster} at
     * {@code 0x36c}, {@code %nctaid} at {@code 0x370}, the stack pointer at {@code 0x37c}, {@code %gridid} at
     * {@code 0x140}, {@code %nsmid} at {@code 0x2d0}; {@code %dynamic_smem_size} and the cluster shape, count and rank
     * count are read through an index from the CTA's place in its cluster, which jptxas does not generate yet.
     */
    public static final DriverConstants BLACKWELL = new DriverConstants(0x360, 0x370, 0x37c, UNKNOWN, 0x140, 0x2d0,
            0x36c, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN);

    /** The layout a backend names in its ABI block ({@code classic}, {@code blackwell}); null for an unknown name. */
    public static DriverConstants named(String name) {
        return switch (name) {
            case "classic" -> CLASSIC;
            case "blackwell" -> BLACKWELL;
            default -> null;
        };
    }

    /** {@code %ntid.x/y/z}. */
    public int ntid(int dim) {
        return ntid + 4 * dim;
    }

    /** {@code %nctaid.x/y/z}. */
    public int nctaid(int dim) {
        return nctaid + 4 * dim;
    }

    public int clusterShape(int dim) {
        return clusterShape + 4 * dim;
    }

    public int clusterShapeReciprocal(int dim) {
        return clusterShapeReciprocal + 4 * dim;
    }

    public int clusterCount(int dim) {
        return clusterCount + 4 * dim;
    }

    /** Whether the cluster shape, its reciprocals, the cluster count and the rank count sit at fixed offsets. */
    public boolean clusterShapeKnown() {
        return clusterShape != UNKNOWN && clusterShapeReciprocal != UNKNOWN && clusterCount != UNKNOWN
                && clusterNctarank != UNKNOWN;
    }
}
