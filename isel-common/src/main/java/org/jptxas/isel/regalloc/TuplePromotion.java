package org.jptxas.isel.regalloc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Scalars that only ever travel together as the parts of tuples become the parts of one tuple of their own, before
 * coalescing. A tensor-core fragment is a handful of PTX scalars ({@code {%f1, %f2, %f3, %f4}}) that lowering
 * gathers into a tuple for each HMMA/IMMA ({@code MOV t.k, %fk}) and scatters back from its result
 * ({@code MOV %fk, u.k}); as scalars, the accumulator is copied in and out around every instruction. Once {@code %fk}
 * is the part {@code T.k} of a tuple {@code T}, those copies are whole-tuple copies part by part, which
 * {@link Coalescer} merges like any other copy, so fragments are loaded, accumulated and stored in place.
 *
 * <p>A scalar is promoted only when every tuple it is gathered into or scattered from has it at the same part, with
 * the same scalars at all other parts (one consistent fragment); anything else stays as it was. Renaming a virtual
 * register is always correct; what it costs is that the parts share one aligned group while any of them is live,
 * which is what the tuple's users need anyway.
 */
final class TuplePromotion {
    private TuplePromotion() {}

    /** Renames fragment scalars to parts of new tuples; returns the number of tuples created. */
    static int run(FunctionBody body, ValueTable.Constraints constraints) {
        Map<Integer, Integer> fixed = constraints.fixed.get(RegFile.R);
        // for each R tuple (virtual index): the scalar moved to or from each part, -1 none yet, -2 conflicting
        Map<Integer, int[]> slots = new LinkedHashMap<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                Reg[] m = partMove(in);
                if (m == null || fixed.containsKey(m[0].index()) || fixed.containsKey(m[1].index())) {
                    continue;
                }
                Reg part = m[0];
                int[] v = slots.computeIfAbsent(part.index(), t -> filled(part.comps(), -1));
                int s = m[1].index();
                v[part.part()] = v[part.part()] == -1 || v[part.part()] == s ? s : -2;
            }
        }
        // a complete vector of distinct scalars per tuple; a scalar in two different vectors promotes neither
        Map<Integer, int[]> vectorOf = new HashMap<>();
        List<int[]> vectors = new ArrayList<>();
        List<Boolean> good = new ArrayList<>();
        for (int[] v : slots.values()) {
            if (!complete(v)) {
                continue;
            }
            int id = -1;
            for (int i = 0; i < vectors.size(); i++) {
                if (Arrays.equals(vectors.get(i), v)) {
                    id = i;
                }
            }
            if (id < 0) {
                id = vectors.size();
                vectors.add(v);
                good.add(true);
            }
            for (int s : v) {
                int[] prev = vectorOf.putIfAbsent(s, vectors.get(id));
                if (prev != null && prev != vectors.get(id)) {
                    good.set(id, false);
                    good.set(indexOf(vectors, prev), false);
                }
            }
        }
        // a scalar whose vector was rejected keeps others sharing it from promotion too
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = 0; i < vectors.size(); i++) {
                if (!good.get(i)) {
                    continue;
                }
                for (int s : vectors.get(i)) {
                    if (vectorOf.get(s) != vectors.get(i)) {
                        good.set(i, false);
                        changed = true;
                        break;
                    }
                }
            }
        }
        Map<Integer, Reg> rename = new HashMap<>();
        int created = 0;
        for (int i = 0; i < vectors.size(); i++) {
            if (!good.get(i)) {
                continue;
            }
            int[] v = vectors.get(i);
            Reg t = body.newVirtual(RegFile.R, v.length);
            for (int k = 0; k < v.length; k++) {
                rename.put(v[k], t.component(k));
            }
            created++;
        }
        if (rename.isEmpty()) {
            return 0;
        }
        java.util.function.UnaryOperator<Reg> f = r -> r.file() == RegFile.R && r.virtual() && r.comps() == 1
                ? rename.getOrDefault(r.index(), r) : r;
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                RegOperands.mapUses(in, f);
                RegOperands.mapDefs(in, f);
            }
        }
        return created;
    }

    /**
     * An unguarded {@code MOV t.k, s} or {@code MOV s, t.k} between a part of a virtual R tuple and a virtual scalar
     * R register: {part, scalar}; else null.
     */
    static Reg[] partMove(Instr in) {
        if (!in.op().name().equals("MOV") || !in.mods().isEmpty() || !in.guard().isAlways()
                || in.dsts().size() != 1 || in.srcs().size() != 1) {
            return null;
        }
        Src s = in.srcs().get(0);
        if (s.hasModifiers() || !(s.value() instanceof Reg src)) {
            return null;
        }
        Reg d = in.dsts().get(0);
        if (d.file() != RegFile.R || src.file() != RegFile.R || !d.virtual() || !src.virtual()) {
            return null;
        }
        if (d.isPart() && !src.isPart() && src.comps() == 1) {
            return new Reg[] {d, src};
        }
        if (src.isPart() && !d.isPart() && d.comps() == 1) {
            return new Reg[] {src, d};
        }
        return null;
    }

    private static int[] filled(int n, int x) {
        int[] a = new int[n];
        Arrays.fill(a, x);
        return a;
    }

    private static boolean complete(int[] v) {
        for (int i = 0; i < v.length; i++) {
            if (v[i] < 0) {
                return false;
            }
            for (int j = 0; j < i; j++) {
                if (v[j] == v[i]) {
                    return false;
                }
            }
        }
        return true;
    }

    private static int indexOf(List<int[]> vectors, int[] v) {
        for (int i = 0; i < vectors.size(); i++) {
            if (vectors.get(i) == v) {
                return i;
            }
        }
        return -1;
    }
}
