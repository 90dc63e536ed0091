package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Dominators;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * The number of times a loop's body runs, found by executing the loop's exit computation: the instructions the
 * latch's branch predicate depends on (its slice), which must all lie in blocks every iteration runs once (those
 * dominating the latch), start from values known on entry and evaluate with the constant folders (integer and f32
 * arithmetic, compares, MUFU.LG2/EX2, I2F/F2I: an f32 counter compared with the log2 of a constant, as Rodinia's
 * backprop writes {@code i <= __log2f(16)}). Registers are not in SSA form here, so a value known on entry is one
 * every definition outside the loop gives alike; a guarded definition whose guard is known false where it stands
 * (the lg2 lowering's subnormal fix-up of a constant) does not count.
 */
final class TripCount {
    /** How deep the entry values' definitions are followed. */
    private static final int MAX_DEPTH = 12;

    private record Key(RegFile file, int index) {
        static Key of(Reg r) {
            return new Key(r.file(), r.index());
        }
    }

    private final FunctionBody body;
    private final int header;
    private final int latch;
    private final Map<Instr, int[]> where = new HashMap<>();
    private final Map<Key, List<Instr>> defs = new HashMap<>();
    private final Map<Key, Long> entryMemo = new HashMap<>();
    private final Set<Key> entryBusy = new HashSet<>();
    private boolean unknown;

    private TripCount(FunctionBody body, int header, int latch) {
        this.body = body;
        this.header = header;
        this.latch = latch;
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                where.put(in, new int[] {b.id(), i});
                for (Reg d : in.dsts()) {
                    if (d.virtual()) {
                        defs.computeIfAbsent(Key.of(d), k -> new ArrayList<>()).add(in);
                    }
                }
            }
        }
    }

    /** The trip count (at least 1) of the loop from {@code header} to {@code latch}; 0 when unknown or above {@code max}. */
    static int of(FunctionBody body, Cfg cfg, Dominators dom, int header, int latch, int max) {
        return new TripCount(body, header, latch).count(dom, max);
    }

    private boolean inLoop(int block) {
        return block >= header && block <= latch;
    }

    private int count(Dominators dom, int max) {
        // the blocks every iteration runs, in execution order: the latch's dominators inside the loop
        List<Integer> always = new ArrayList<>();
        for (int b = latch; ; b = dom.idom(b)) {
            if (b < 0 || !inLoop(b)) {
                return 0;
            }
            always.add(0, b);
            if (b == header) {
                break;
            }
        }
        Instr branch = body.block(latch).last();
        Reg exit = branch.guard().predicate();
        if (!exit.virtual()) {
            return 0;
        }
        List<Instr> slice = slice(always, exit);
        if (slice == null || !additive(slice)) {
            return 0;
        }
        Map<Key, Long> state = new HashMap<>();
        for (int trip = 1; trip <= max; trip++) {
            for (Instr in : slice) {
                if (!execute(in, state)) {
                    return 0;
                }
            }
            Long p = read(null, Src.of(exit), state);
            if (p == null) {
                return 0;
            }
            boolean taken = (p != 0) != branch.guard().negated();
            if (!taken) {
                return trip;
            }
        }
        return 0;
    }

    /**
     * The loop's instructions the exit predicate depends on, in execution order; null when one of them is in a block
     * not every iteration runs, or writes more than one register.
     */
    private List<Instr> slice(List<Integer> always, Reg exit) {
        Set<Key> needed = new HashSet<>();
        needed.add(Key.of(exit));
        Set<Instr> chosen = new HashSet<>();
        boolean grew = true;
        while (grew) {
            grew = false;
            for (int b = header; b <= latch; b++) {
                for (Instr in : body.block(b).instrs()) {
                    if (chosen.contains(in) || !definesAny(in, needed)) {
                        continue;
                    }
                    if (!always.contains(b) || !simple(in)) {
                        return null;
                    }
                    chosen.add(in);
                    for (Reg u : in.usedRegs()) {
                        if (!u.isZero()) {
                            needed.add(Key.of(u));
                        }
                    }
                    grew = true;
                }
            }
        }
        List<Instr> out = new ArrayList<>();
        for (int b : always) {
            for (Instr in : body.block(b).instrs()) {
                if (chosen.contains(in)) {
                    out.add(in);
                }
            }
        }
        return out;
    }

    /**
     * Whether every register the slice carries from one iteration to the next (read before its write in the
     * iteration) steps by adding a constant or a loop-invariant value: ptxas 13 unrolls fully only such counters
     * ({@code i += c}, {@code i -= c}, also converted for an f32 compare); a counter that doubles, triples or shifts
     * ({@code i *= 2}, {@code i <<= 1}, {@code i >>= 1}, as the SDK's radix sort's {@code offset *= 2} up to a
     * constant) stays a loop there even for four trips.
     */
    private boolean additive(List<Instr> slice) {
        Set<Key> written = new HashSet<>();
        Set<Key> carried = new HashSet<>();
        Set<Key> definedInSlice = new HashSet<>();
        for (Instr in : slice) {
            definedInSlice.add(Key.of(target(in)));
        }
        for (Instr in : slice) {
            for (Reg u : in.usedRegs()) {
                if (!u.isZero() && definedInSlice.contains(Key.of(u)) && !written.contains(Key.of(u))) {
                    carried.add(Key.of(u));
                }
            }
            written.add(Key.of(target(in)));
        }
        for (Instr in : slice) {
            Key k = Key.of(target(in));
            if (carried.contains(k) && !addsToItself(in, k)) {
                return false;
            }
        }
        return true;
    }

    /** {@code IADD3 k, k, step, RZ} (in any order) with a step that is an immediate or not written in the loop. */
    private boolean addsToItself(Instr in, Key k) {
        if (!OpInfo.is(in, "IADD3") || !in.mods().isEmpty() || in.srcs().size() != 3) {
            return false;
        }
        int self = 0;
        for (Src s : in.srcs()) {
            if (s.value() instanceof Reg r && !r.isZero() && Key.of(r).equals(k)) {
                if (s.hasModifiers()) {
                    return false;
                }
                self++;
            } else if (s.value() instanceof Reg r && !r.isZero() && writtenInLoop(Key.of(r))) {
                return false;
            } else if (!(s.value() instanceof Reg) && !(s.value() instanceof Imm)) {
                return false;
            }
        }
        return self == 1;
    }

    private boolean writtenInLoop(Key k) {
        for (Instr d : defs.getOrDefault(k, List.of())) {
            if (inLoop(where.get(d)[0])) {
                return true;
            }
        }
        return false;
    }

    private static boolean definesAny(Instr in, Set<Key> keys) {
        for (Reg d : in.dsts()) {
            if (d.virtual() && keys.contains(Key.of(d))) {
                return true;
            }
        }
        return false;
    }

    /** One 32-bit register or predicate written, its value computable by the folders. */
    private static boolean simple(Instr in) {
        if (in.isTerminator()) {
            return false;
        }
        Reg d = target(in);
        return d != null && d.virtual() && d.comps() == 1 && !d.isPart();
    }

    /** The one register an instruction writes (the other destinations are PT/RZ), or null. */
    private static Reg target(Instr in) {
        Reg out = null;
        for (Reg d : in.dsts()) {
            if (d.isZero()) {
                continue;
            }
            if (out != null) {
                return null;
            }
            out = d;
        }
        return out;
    }

    /** Runs one slice instruction on {@code state}; false when its result is not known. */
    private boolean execute(Instr in, Map<Key, Long> state) {
        unknown = false;
        if (!in.guard().isAlways()) {
            Long g = read(null, Src.of(in.guard().predicate()), state);
            if (g == null) {
                return false;
            }
            if ((g != 0) == in.guard().negated()) {
                return true;
            }
        }
        Long v = evaluate(in, s -> read(in, s, state), s -> predicate(s, state));
        if (v == null || unknown) {
            return false;
        }
        state.put(Key.of(target(in)), v);
        return true;
    }

    private static Long evaluate(Instr in, java.util.function.Function<Src, Long> value,
                                 java.util.function.Function<Src, Boolean> pred) {
        Reg d = target(in);
        if (d == null) {
            return null;
        }
        if (d.file().isPredicate()) {
            Boolean r = OpInfo.is(in, "ISETP") ? IntFolder.foldIsetp(in, value, pred)
                    : OpInfo.is(in, "FSETP") ? FloatFolder.foldFsetp(in, value, pred) : null;
            return r == null ? null : r ? 1L : 0L;
        }
        if (d.file() != RegFile.R || OpInfo.soleRDst(in) == null) {
            return null;
        }
        Long v = IntFolder.fold(in, value, pred);
        if (v == null) {
            // f32 arithmetic, MUFU.LG2/EX2 and the conversions (cvt.rn.f32.s32 of a loop counter)
            v = FloatFolder.fold(in, value);
        }
        return v;
    }

    /** A source's value: immediates, RZ/PT, and registers from the loop state or, before their first write, entry. */
    private Long read(Instr in, Src s, Map<Key, Long> state) {
        Long raw;
        if (s.value() instanceof Imm || s.value() instanceof Reg r && r.isZero()) {
            if (s.value() instanceof Reg r && r.file().isPredicate()) {
                raw = 1L;
            } else {
                raw = OpInfo.const32(Src.of(s.value()));
            }
        } else if (s.value() instanceof Reg r && r.virtual() && !r.isPart() && r.comps() == 1) {
            Key k = Key.of(r);
            raw = state.containsKey(k) ? state.get(k) : entry(k);
            if (raw == null) {
                unknown = true;
                return null;
            }
        } else {
            unknown = true;
            return null;
        }
        return raw == null ? null : OpInfo.read(in, s, raw);
    }


    private Boolean predicate(Src s, Map<Key, Long> state) {
        if (!(s.value() instanceof Reg r) || !r.file().isPredicate()) {
            return null;
        }
        Long v = read(null, s, state);
        return v == null ? null : v != 0;
    }

    /**
     * The value a register has when the loop starts: the one value every definition outside the loop gives, each
     * definition's sources read as the latest earlier write in its block or, without one, as constants everywhere.
     */
    private Long entry(Key k) {
        return valueOutside(k, true, 0);
    }

    private Long valueOutside(Key k, boolean skipLoop, int depth) {
        if (depth > MAX_DEPTH || entryBusy.contains(k)) {
            return null;
        }
        if (skipLoop && entryMemo.containsKey(k)) {
            return entryMemo.get(k);
        }
        entryBusy.add(k);
        Long result = null;
        boolean first = true;
        for (Instr in : defs.getOrDefault(k, List.of())) {
            int[] at = where.get(in);
            if (skipLoop && inLoop(at[0])) {
                continue;
            }
            if (never(in, at, depth)) {
                continue; // a guarded definition whose guard is false (an f32 lowering's range fix-up): no definition
            }
            Long v = definedValue(in, at, depth);
            if (v == null || !first && !v.equals(result)) {
                result = null;
                first = false;
                break;
            }
            result = v;
            first = false;
        }
        entryBusy.remove(k);
        if (skipLoop) {
            entryMemo.put(k, result);
        }
        return result;
    }

    /** Whether {@code in} (at {@code at}) is guarded by a predicate known to be false where it stands. */
    private boolean never(Instr in, int[] at, int depth) {
        Boolean g = guardValue(in, at, depth);
        return g != null && !g;
    }

    /** The value of {@code in}'s guard where it stands: true for an unguarded instruction, null when not known. */
    private Boolean guardValue(Instr in, int[] at, int depth) {
        if (in.guard().isAlways()) {
            return true;
        }
        Src g = new Src(in.guard().predicate(), false, false, in.guard().negated());
        Long v = constantAt(null, g, body.block(at[0]).instrs(), at[1], depth + 1);
        return v == null ? null : v != 0;
    }

    /** The value instruction {@code in} (at {@code at}) writes, from constant sources; null when not constant. */
    private Long definedValue(Instr in, int[] at, int depth) {
        if (target(in) == null || !simple(in) || !Boolean.TRUE.equals(guardValue(in, at, depth))) {
            return null;
        }
        List<Instr> block = body.block(at[0]).instrs();
        java.util.function.Function<Src, Long> value = s -> constantAt(in, s, block, at[1], depth);
        java.util.function.Function<Src, Boolean> pred = s -> {
            Long v = constantAt(null, s, block, at[1], depth);
            return v == null ? null : v != 0;
        };
        return evaluate(in, value, pred);
    }

    /** A source's value just before instruction {@code index} of {@code block}. */
    private Long constantAt(Instr reader, Src s, List<Instr> block, int index, int depth) {
        if (s.value() instanceof Imm || s.value() instanceof Reg z && z.isZero()) {
            return OpInfo.read(reader, s, s.value() instanceof Reg z2 && z2.file().isPredicate() ? 1L
                    : OpInfo.const32(Src.of(s.value())));
        }
        if (!(s.value() instanceof Reg r) || !r.virtual() || r.isPart() || r.comps() != 1) {
            return null;
        }
        if (depth > MAX_DEPTH) {
            return null;
        }
        Key k = Key.of(r);
        Set<Key> ks = Set.of(k);
        for (int i = index - 1; i >= 0; i--) {
            Instr prev = block.get(i);
            if (!definesAny(prev, ks) || never(prev, where.get(prev), depth + 1)) {
                continue; // not a definition, or one that does not run
            }
            Long v = definedValue(prev, where.get(prev), depth + 1);
            return v == null ? null : OpInfo.read(reader, s, v);
        }
        Long v = valueOutside(k, false, depth + 1);
        return v == null ? null : OpInfo.read(reader, s, v);
    }
}
