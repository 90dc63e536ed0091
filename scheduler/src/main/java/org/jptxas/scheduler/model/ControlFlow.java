package org.jptxas.scheduler.model;

import java.util.Arrays;
import java.util.List;

/**
 * The control-flow edges of an instruction sequence laid out in program order: for each instruction, the indices of
 * the instructions control can reach it from, other than the one just before it ({@link #jumpPredecessors}), and
 * whether control falls through from the previous instruction ({@link #fallsInto}). Control-word generation and the
 * hazard checker merge their per-register state over these edges.
 */
public final class ControlFlow {
    private static final int[] NONE = new int[0];
    private final int[][] jumpPreds;
    private final boolean[] fallsInto;
    /**
     * Per jump source, the last instruction its exit state is asked for by a forward jump, or -1 when none or when
     * one of its jumps goes backwards (a loop's next pass asks for it again).
     */
    private final int[] lastForwardTarget;

    /**
     * @param jumpPreds for each instruction, the indices of instructions that branch to it (may be later: loops)
     * @param fallsInto for each instruction, whether the previous instruction can fall through to it
     */
    public ControlFlow(int[][] jumpPreds, boolean[] fallsInto) {
        if (jumpPreds.length != fallsInto.length) {
            throw new IllegalArgumentException("length mismatch");
        }
        this.jumpPreds = new int[jumpPreds.length][];
        for (int i = 0; i < jumpPreds.length; i++) {
            this.jumpPreds[i] = jumpPreds[i] == null ? NONE : jumpPreds[i].clone();
        }
        this.fallsInto = fallsInto.clone();
        int n = jumpPreds.length;
        lastForwardTarget = new int[n];
        Arrays.fill(lastForwardTarget, -1);
        boolean[] backwards = new boolean[n];
        for (int i = 0; i < n; i++) {
            for (int p : this.jumpPreds[i]) {
                if (p >= i) {
                    backwards[p] = true;
                } else {
                    lastForwardTarget[p] = Math.max(lastForwardTarget[p], i);
                }
            }
        }
        for (int p = 0; p < n; p++) {
            if (backwards[p]) {
                lastForwardTarget[p] = -1;
            }
        }
    }

    /** Straight-line code: every instruction falls into the next, nothing jumps. */
    public static ControlFlow linear(int n) {
        boolean[] f = new boolean[n];
        Arrays.fill(f, true);
        return new ControlFlow(new int[n][], f);
    }

    /**
     * Derives the edges from branch targets: {@code targets[i]} is the index instruction {@code i} may jump to (-1 for
     * none), {@code unconditional[i]} whether it never falls through (BRA without guard, EXIT, RET).
     */
    public static ControlFlow fromBranches(int[] targets, boolean[] unconditional) {
        int n = targets.length;
        List<Integer>[] preds = new List[n];
        for (int i = 0; i < n; i++) {
            int t = targets[i];
            if (t >= 0 && t < n) {
                if (preds[t] == null) {
                    preds[t] = new java.util.ArrayList<>();
                }
                preds[t].add(i);
            }
        }
        int[][] jp = new int[n][];
        boolean[] falls = new boolean[n];
        for (int i = 0; i < n; i++) {
            jp[i] = preds[i] == null ? NONE : preds[i].stream().mapToInt(Integer::intValue).toArray();
            falls[i] = i == 0 || !unconditional[i - 1];
        }
        return new ControlFlow(jp, falls);
    }

    public int size() {
        return fallsInto.length;
    }

    public int[] jumpPredecessors(int i) {
        return jumpPreds[i];
    }

    public boolean fallsInto(int i) {
        return fallsInto[i];
    }

    /**
     * Whether the jump from instruction {@code p} into join {@code i} is the last edge that asks for {@code p}'s
     * exit state in a forward pass: every jump of {@code p} goes forward and {@code i} is the furthest. A pass over
     * the code may drop the state after merging it at {@code i} (a large function's pending exit states are
     * otherwise all live until the pass ends).
     */
    public boolean lastUseOfExit(int p, int i) {
        return lastForwardTarget[p] == i;
    }

    /** Whether instruction {@code i} starts a block that some branch enters. */
    public boolean isJoin(int i) {
        return jumpPreds[i].length > 0 || !fallsInto[i];
    }
}
