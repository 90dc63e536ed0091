package org.jptxas.scheduler.list;

/** The three objectives of the one list-scheduling engine (ptxas mode byte 1, 0, 2). */
public enum SchedMode {
    /** Pre-RA: keep register pressure under a GPR budget first, latency second. */
    REDUCE_REG,
    /** Post-RA: critical path and stall-free issue first. */
    ILP,
    /** Keep tensor-core (MMA) work batched together; otherwise like ILP. */
    DYN_BATCH
}
