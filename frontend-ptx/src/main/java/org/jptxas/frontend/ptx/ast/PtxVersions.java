package org.jptxas.frontend.ptx.ast;

import java.util.List;

/**
 * The PTX ISA versions that exist and jptxas accepts in {@code .version}; others are refused by name. ptxas 13.0 stops
 * at 9.0; 9.1 (CUDA 13.1, what Triton 3.7 writes) and 9.2 are accepted too: the PTX manual's additions in them
 * (9.1: {@code ld}/{@code st} {@code .volatile} with {@code .local}, {@code cvt} to the packed FP8/FP6/FP4 types from
 * {@code .f16x2}/{@code .bf16x2}, {@code .s2f6x2}, {@code mma .scale_vec::4X}, {@code multimem.cp.async.bulk};
 * 9.2: {@code .u8x4}/{@code .s8x4} arithmetic, {@code add.sat} on packed types, {@code st.async .b128},
 * {@code cp.async.bulk .ignore_oob}) are not in the instruction table, so the checker refuses each by name, and
 * everything 9.0 allows is allowed under them.
 */
public final class PtxVersions {
    private PtxVersions() {}

    public static final List<String> ALL = List.of("1.0", "1.1", "1.2", "1.3", "1.4", "1.5", "2.0", "2.1", "2.2",
            "2.3", "3.0", "3.1", "3.2", "4.0", "4.1", "4.2", "4.3", "5.0", "5.1", "6.0", "6.1", "6.2", "6.3", "6.4",
            "6.5", "7.0", "7.1", "7.2", "7.3", "7.4", "7.5", "7.6", "7.7", "7.8", "8.0", "8.1", "8.2", "8.3", "8.4",
            "8.5", "8.6", "8.7", "8.8", "9.0", "9.1", "9.2");

    /** The newest version, as named in the "current version" message. */
    public static final String CURRENT = "9.2";

    public static boolean exists(int major, int minor) {
        return ALL.contains(major + "." + minor);
    }
}
