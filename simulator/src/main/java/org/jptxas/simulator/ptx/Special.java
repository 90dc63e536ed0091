package org.jptxas.simulator.ptx;

import java.util.Optional;

/** PTX special registers ({@code %tid.x}, {@code %laneid}, ...) the interpreter provides. */
enum Special {
    TID_X, TID_Y, TID_Z, NTID_X, NTID_Y, NTID_Z, CTAID_X, CTAID_Y, CTAID_Z, NCTAID_X, NCTAID_Y, NCTAID_Z,
    LANEID, WARPID, NWARPID, SMID, NSMID, GRIDID, CLOCK, CLOCK_HI, CLOCK64, GLOBALTIMER, GLOBALTIMER_LO, GLOBALTIMER_HI,
    LANEMASK_EQ, LANEMASK_LT, LANEMASK_LE, LANEMASK_GT, LANEMASK_GE, DYNAMIC_SMEM_SIZE, TOTAL_SMEM_SIZE,
    CLUSTERID_X, CLUSTERID_Y, CLUSTERID_Z, NCLUSTERID_X, NCLUSTERID_Y, NCLUSTERID_Z,
    CLUSTER_CTAID_X, CLUSTER_CTAID_Y, CLUSTER_CTAID_Z, CLUSTER_NCTAID_X, CLUSTER_NCTAID_Y, CLUSTER_NCTAID_Z,
    CLUSTER_CTARANK, CLUSTER_NCTARANK, IS_EXPLICIT_CLUSTER, ZERO;

    /** {@code name} with its leading {@code %}, {@code component} x/y/z or null. */
    static Optional<Special> of(String name, String component) {
        String base = name.startsWith("%") ? name.substring(1) : name;
        if (base.startsWith("envreg") || base.matches("pm[0-7](_64)?") || base.equals("reserved_smem_offset_begin")
                || base.equals("reserved_smem_offset_end") || base.equals("reserved_smem_offset_cap")) {
            return Optional.of(ZERO);
        }
        String key = (component == null ? base : base + "_" + component).toUpperCase(java.util.Locale.ROOT);
        if (component == null && (base.equals("tid") || base.equals("ntid") || base.equals("ctaid") || base.equals("nctaid"))) {
            return Optional.empty(); // vector form: needs a component
        }
        try {
            return Optional.of(valueOf(key));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
