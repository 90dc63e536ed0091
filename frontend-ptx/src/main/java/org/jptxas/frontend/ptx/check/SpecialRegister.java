package org.jptxas.frontend.ptx.check;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.jptxas.frontend.ptx.ast.PtxType;

/**
 * PTX's predefined read-only registers ({@code %tid}, {@code %clock64}, ...) with their types and the PTX ISA version
 * and target ptxas 13 requires of the newer ones. Vector ones are read per component ({@code %tid.x}).
 */
public enum SpecialRegister {
    TID("%tid", PtxType.U32, true), NTID("%ntid", PtxType.U32, true), LANEID("%laneid", PtxType.U32, false),
    WARPID("%warpid", PtxType.U32, false), NWARPID("%nwarpid", PtxType.U32, false),
    CTAID("%ctaid", PtxType.U32, true), NCTAID("%nctaid", PtxType.U32, true), SMID("%smid", PtxType.U32, false),
    NSMID("%nsmid", PtxType.U32, false), GRIDID("%gridid", PtxType.U64, false),
    IS_EXPLICIT_CLUSTER("%is_explicit_cluster", PtxType.PRED, false, 78, 90),
    CLUSTERID("%clusterid", PtxType.U32, true, 78, 90), NCLUSTERID("%nclusterid", PtxType.U32, true, 78, 90),
    CLUSTER_CTAID("%cluster_ctaid", PtxType.U32, true, 78, 90),
    CLUSTER_NCTAID("%cluster_nctaid", PtxType.U32, true, 78, 90),
    CLUSTER_CTARANK("%cluster_ctarank", PtxType.U32, false, 78, 90),
    CLUSTER_NCTARANK("%cluster_nctarank", PtxType.U32, false, 78, 90),
    LANEMASK_EQ("%lanemask_eq", PtxType.U32, false), LANEMASK_LE("%lanemask_le", PtxType.U32, false),
    LANEMASK_LT("%lanemask_lt", PtxType.U32, false), LANEMASK_GE("%lanemask_ge", PtxType.U32, false),
    LANEMASK_GT("%lanemask_gt", PtxType.U32, false), CLOCK("%clock", PtxType.U32, false),
    CLOCK_HI("%clock_hi", PtxType.U32, false), CLOCK64("%clock64", PtxType.U64, false),
    GLOBALTIMER("%globaltimer", PtxType.U64, false), GLOBALTIMER_LO("%globaltimer_lo", PtxType.U32, false),
    GLOBALTIMER_HI("%globaltimer_hi", PtxType.U32, false),
    TOTAL_SMEM_SIZE("%total_smem_size", PtxType.U32, false),
    AGGR_SMEM_SIZE("%aggr_smem_size", PtxType.U32, false, 81, 90),
    DYNAMIC_SMEM_SIZE("%dynamic_smem_size", PtxType.U32, false),
    RESERVED_SMEM_OFFSET_BEGIN("%reserved_smem_offset_begin", PtxType.B32, false, 76, 80),
    RESERVED_SMEM_OFFSET_END("%reserved_smem_offset_end", PtxType.B32, false, 76, 80),
    RESERVED_SMEM_OFFSET_CAP("%reserved_smem_offset_cap", PtxType.B32, false, 76, 80),
    RESERVED_SMEM_OFFSET_0("%reserved_smem_offset_0", PtxType.B32, false, 76, 80),
    RESERVED_SMEM_OFFSET_1("%reserved_smem_offset_1", PtxType.B32, false, 76, 80),
    CURRENT_GRAPH_EXEC("%current_graph_exec", PtxType.U64, false, 80, 0),
    WARP_SZ("WARP_SZ", PtxType.U32, false);

    private static final Map<String, SpecialRegister> BY_NAME = new HashMap<>();

    static {
        for (SpecialRegister r : values()) {
            BY_NAME.put(r.ptxName, r);
        }
    }

    private final String ptxName;
    private final PtxType type;
    private final boolean vector;
    private final int minVersion;
    private final int minSm;

    SpecialRegister(String ptxName, PtxType type, boolean vector) {
        this(ptxName, type, vector, 0, 0);
    }

    SpecialRegister(String ptxName, PtxType type, boolean vector, int minVersion, int minSm) {
        this.ptxName = ptxName;
        this.type = type;
        this.vector = vector;
        this.minVersion = minVersion;
        this.minSm = minSm;
    }

    /** The PTX ISA version it needs, as major * 10 + minor (0: any), as ptxas 13 checks it. */
    public int minVersion() {
        return minVersion;
    }

    /** The target it needs ({@code 90} for sm_90; 0: any), as ptxas 13 checks it. */
    public int minSm() {
        return minSm;
    }

    public String ptxName() {
        return ptxName;
    }

    public PtxType type() {
        return type;
    }

    /** Whether it is a {@code .v4} register read per component ({@code .x}, {@code .y}, {@code .z}). */
    public boolean isVector() {
        return vector;
    }

    /** The special register called {@code name}, including the numbered families {@code %envreg0..31}, {@code %pm0..7}. */
    public static Optional<SpecialRegister> lookup(String name) {
        return Optional.ofNullable(BY_NAME.get(name));
    }

    /** {@code %envreg<0..31>}, {@code %pm<0..7>}, {@code %pm<0..7>_64}: numbered families, typed separately. */
    public static Optional<PtxType> numberedFamilyType(String name) {
        if (name.startsWith("%envreg") && isIndex(name.substring(7), 32)) {
            return Optional.of(PtxType.B32);
        }
        if (name.startsWith("%pm")) {
            String rest = name.substring(3);
            if (rest.endsWith("_64") && isIndex(rest.substring(0, rest.length() - 3), 8)) {
                return Optional.of(PtxType.U64);
            }
            if (isIndex(rest, 8)) {
                return Optional.of(PtxType.U32);
            }
        }
        return Optional.empty();
    }

    private static boolean isIndex(String digits, int limit) {
        if (digits.isEmpty() || digits.length() > 2) {
            return false;
        }
        for (int i = 0; i < digits.length(); i++) {
            if (!Character.isDigit(digits.charAt(i))) {
                return false;
            }
        }
        return Integer.parseInt(digits) < limit;
    }
}
