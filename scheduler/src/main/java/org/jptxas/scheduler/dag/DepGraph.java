package org.jptxas.scheduler.dag;

import java.util.List;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.model.SchedInstr;

/**
 * The dependency DAG of one scheduling region: nodes are the region's instructions in their original order (edges
 * always go from a lower to a higher index), stored as compressed successor and predecessor arrays.
 */
public final class DepGraph {
    private static final DepKind[] KINDS = DepKind.values();

    private final List<? extends SchedInstr> instrs;
    private final OpClass[] classes;
    private final int[] succStart;
    private final int[] succTo;
    private final int[] succLatency;
    private final byte[] succKind;
    private final int[] predStart;
    private final int[] predFrom;
    private final int[] predLatency;
    private final byte[] predKind;
    private final int[] height;

    DepGraph(List<? extends SchedInstr> instrs, OpClass[] classes, int[] from, int[] to, int[] lat, byte[] kind, int edges) {
        this.instrs = instrs;
        this.classes = classes;
        int n = instrs.size();
        succStart = new int[n + 1];
        predStart = new int[n + 1];
        for (int e = 0; e < edges; e++) {
            succStart[from[e] + 1]++;
            predStart[to[e] + 1]++;
        }
        for (int i = 0; i < n; i++) {
            succStart[i + 1] += succStart[i];
            predStart[i + 1] += predStart[i];
        }
        succTo = new int[edges];
        succLatency = new int[edges];
        succKind = new byte[edges];
        predFrom = new int[edges];
        predLatency = new int[edges];
        predKind = new byte[edges];
        int[] sFill = succStart.clone();
        int[] pFill = predStart.clone();
        for (int e = 0; e < edges; e++) {
            int s = sFill[from[e]]++;
            succTo[s] = to[e];
            succLatency[s] = lat[e];
            succKind[s] = kind[e];
            int p = pFill[to[e]]++;
            predFrom[p] = from[e];
            predLatency[p] = lat[e];
            predKind[p] = kind[e];
        }
        height = new int[n];
        for (int i = n - 1; i >= 0; i--) {
            int h = 1;
            for (int s = succStart[i]; s < succStart[i + 1]; s++) {
                h = Math.max(h, succLatency[s] + height[succTo[s]]);
            }
            height[i] = h;
        }
    }

    public int size() {
        return instrs.size();
    }

    public SchedInstr instr(int i) {
        return instrs.get(i);
    }

    public OpClass opClass(int i) {
        return classes[i];
    }

    public int succBegin(int i) {
        return succStart[i];
    }

    public int succEnd(int i) {
        return succStart[i + 1];
    }

    public int succ(int edge) {
        return succTo[edge];
    }

    public int succLatency(int edge) {
        return succLatency[edge];
    }

    public DepKind succKind(int edge) {
        return KINDS[succKind[edge]];
    }

    public int predBegin(int i) {
        return predStart[i];
    }

    public int predEnd(int i) {
        return predStart[i + 1];
    }

    public int pred(int edge) {
        return predFrom[edge];
    }

    public int predLatency(int edge) {
        return predLatency[edge];
    }

    public DepKind predKind(int edge) {
        return KINDS[predKind[edge]];
    }

    public int predCount(int i) {
        return predStart[i + 1] - predStart[i];
    }

    public int edgeCount() {
        return succTo.length;
    }

    /** Longest latency-weighted path from {@code i} to the end of the region, counting {@code i} itself as 1. */
    public int height(int i) {
        return height[i];
    }

    /** Whether there is an edge {@code from -> to} of the given kind. */
    public boolean hasEdge(int from, int to, DepKind kind) {
        for (int s = succStart[from]; s < succStart[from + 1]; s++) {
            if (succTo[s] == to && succKind[s] == kind.ordinal()) {
                return true;
            }
        }
        return false;
    }
}
