package org.jptxas.scheduler.list;

/**
 * ptxas's NORMAL / SPILL / NORMAL state machine over three counters: the spill-mode countdown, the spill sequence
 * counter and the depth threshold (-1 = "re-scan the ready list"). While the countdown runs, the scheduler drains
 * barrier targets (instructions waiting on scoreboards) aggressively: every candidate counts as critical.
 */
public final class SpillModeState {
    private int countdown;
    private int sequence;
    private int stallFreeCounter;
    private int depthThreshold = -1;

    /** True while in SPILL mode. */
    public boolean active() {
        return countdown > 0;
    }

    public int countdown() {
        return countdown;
    }

    public int depthThreshold() {
        return depthThreshold;
    }

    /**
     * Called before a selection: when the threshold is the sentinel -1, re-derives it from the ready barrier targets
     * (the number of targets whose latency tier is the smallest: the tier loop of the seed, collapsed to its result
     * for an already sorted tier count).
     *
     * @param readyTargets   barrier targets in the ready list
     * @param smallestTier   how many of them share the smallest remaining latency
     */
    public void rescanIfNeeded(int readyTargets, int smallestTier) {
        if (depthThreshold == -1) {
            countdown = 0;
            sequence = 0;
            stallFreeCounter = 0;
            depthThreshold = readyTargets == 0 ? 0 : Math.max(1, smallestTier);
        }
    }

    /** Critical-path activation in NORMAL mode: enough barrier targets are ready to meet the depth threshold. */
    public boolean criticalActive(int readyTargets) {
        return depthThreshold > 0 && readyTargets >= depthThreshold;
    }

    /**
     * Updates the counters after a winner has been chosen.
     *
     * @param winnerIsTarget  the winner waits on a scoreboard
     * @param readyTargets    barrier targets in the ready list (before removing the winner)
     * @param stallFreeTargets ready barrier targets that can issue without stalling
     * @param overBudget      the winner would push pressure past the budget
     * @param winnerStallFree the winner issues without a stall
     * @return true when the state changed between NORMAL and SPILL (the ready list must be re-keyed)
     */
    public boolean afterSelection(boolean winnerIsTarget, int readyTargets, int stallFreeTargets, boolean overBudget,
                                  boolean winnerStallFree) {
        boolean wasActive = active();
        if (winnerIsTarget && countdown == 0) {
            // ENTER: drain the ready targets, or only the threshold's worth when pressure is high.
            int n = readyTargets;
            if (n <= 3 || stallFreeTargets > 0) {
                countdown = stallFreeTargets <= depthThreshold || !overBudget ? Math.max(stallFreeTargets, n) : depthThreshold;
            } else {
                countdown = n > depthThreshold && overBudget ? depthThreshold : n;
            }
            sequence = countdown;
            stallFreeCounter = stallFreeTargets;
        }
        if (countdown > 0) {
            if (winnerIsTarget) {
                // TICK
                countdown--;
                sequence--;
                if (winnerStallFree) {
                    stallFreeCounter--;
                    if (stallFreeCounter == 0 && sequence > 0 && countdown > 1) {
                        exit();
                    }
                }
                if (countdown == 0) {
                    depthThreshold = -1; // EXIT path A: drained
                }
            } else if (winnerStallFree || overBudget) {
                exit(); // EXIT path B: a non-target under pressure or able to issue now breaks the run
            }
        }
        return wasActive != active();
    }

    private void exit() {
        countdown = 0;
        depthThreshold = -1;
    }
}
