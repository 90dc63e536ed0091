package org.jptxas.simulator.sass;

import org.jptxas.simulator.exec.ThreadRef;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;

/** The detail of a block's deadlock: who waits where when no warp can move (moved out of {@link SassMachine}). */
final class DeadlockReport {
    private DeadlockReport() {
    }

    /** Counts, and the first waiting thread ({@code firstRef} names it) with its instruction. */
    static String describe(Thread[] threads, Warp[] warps, int exitedCount, ThreadRef firstRef) {
        int atBar = 0, atBsync = 0, atWarpsync = 0;
        Thread first = null;
        for (Thread t : threads) {
            if (t.exited) {
                continue;
            }
            if (t.barrier >= 0) {
                atBar++;
            } else if (t.convWait == SassMachine.WAIT_WARPSYNC) {
                atWarpsync++;
            } else if (t.convWait >= 0) {
                atBsync++;
            }
            if (first == null) {
                first = t;
            }
        }
        String where = "";
        if (first != null) {
            SassOp op = first.waitOp != null ? first.waitOp : first.barrierOp;
            where = "; e.g. thread " + firstRef + " at " + (op != null ? op.where() : String.format("0x%04x", first.pc * 16L));
            if (first.convWait >= 0 && first.convWait < 16) {
                Warp w = warps[first.linear / 32];
                where += String.format(" (B%d waits for lanes 0x%08x)", first.convWait, w.convergence[first.convWait]);
            }
        }
        return atBar + " thread(s) wait at a barrier, " + atBsync + " at BSYNC, " + atWarpsync + " at WARPSYNC; "
                + exitedCount + " of " + threads.length + " exited" + where;
    }
}
