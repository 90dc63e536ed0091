package org.jptxas.scheduler.list;

/**
 * Knobs of one scheduling pass.
 *
 * @param mode           the objective
 * @param gprBudget      GPR budget (registers); ReduceReg tightens it by {@code budget/8 + 3} as ptxas does
 * @param hotColdBudget  how many cold memory instructions may be scheduled before hot/cold tracking switches off
 * @param maxRegion      largest region scheduled as one DAG
 */
public record SchedOptions(SchedMode mode, int gprBudget, int hotColdBudget, int maxRegion) {
    public SchedOptions {
        if (gprBudget < 1 || maxRegion < 1) {
            throw new IllegalArgumentException("gprBudget and maxRegion must be positive");
        }
    }

    public static SchedOptions reduceReg(int gprBudget) {
        return new SchedOptions(SchedMode.REDUCE_REG, gprBudget, 64, org.jptxas.scheduler.dag.Regions.MAX_BLOCK);
    }

    public static SchedOptions ilp() {
        return new SchedOptions(SchedMode.ILP, 255, 64, org.jptxas.scheduler.dag.Regions.MAX_BLOCK);
    }

    public static SchedOptions dynBatch() {
        return new SchedOptions(SchedMode.DYN_BATCH, 255, 64, org.jptxas.scheduler.dag.Regions.MAX_BLOCK);
    }

    /** The budget the priority function checks against: ReduceReg reserves {@code budget/8 + 3} registers. */
    public int effectiveBudget() {
        return mode == SchedMode.REDUCE_REG ? Math.max(1, gprBudget - (gprBudget / 8 + 3)) : gprBudget;
    }
}
