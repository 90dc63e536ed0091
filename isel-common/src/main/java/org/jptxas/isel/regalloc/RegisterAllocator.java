package org.jptxas.isel.regalloc;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Register allocation of one Ori function, in place: virtual registers of the R, UR, P and UP files become physical
 * ones. Precoloured physical registers (call ABI) stay where they are and block their registers where live; R1 (the
 * stack pointer) and the zero registers are never allocated. Rounds of linear scan ({@link LinearScan}) alternate
 * with spill rewriting ({@link SpillRewriter}) until everything fits; then copies whose two sides got the same
 * register are deleted. Deterministic: no hash-order iteration anywhere.
 */
public final class RegisterAllocator {
    private static final int MAX_ROUNDS = 64;

    private RegisterAllocator() {}

    /** A call's uniform clobbers (the calling convention's) name registers a target without the uniform file lacks. */
    private static void dropUniformClobbers(FunctionBody body) {
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (in.op().name().equals("CALL")) {
                    in.dsts().removeIf(r -> r.file().isUniform() && !r.virtual());
                }
            }
        }
    }

    public static Allocation allocate(OriFunction function, RegisterLimits limits) {
        return allocate(function, limits, false);
    }

    /**
     * Allocates {@code function}'s registers within {@code limits}. With {@code verify}, the assignment is checked
     * by {@link AllocationVerifier} before the rewrite and a failure throws {@link IllegalStateException}.
     *
     * @throws RegisterAllocationException when values that cannot be spilled do not fit
     */
    public static Allocation allocate(OriFunction function, RegisterLimits limits, boolean verify) {
        FunctionBody body = function.body();
        if (!limits.uniformFile()) {
            dropUniformClobbers(body);
        }
        ValueTable.Constraints constraints = new ValueTable.Constraints();
        renamePrecoloured(body, constraints);
        if (!limits.uniformFile()) {
            for (BasicBlock b : body.blocks()) {
                for (Instr in : b.instrs()) {
                    for (Reg r : in.dsts()) {
                        if (r.file().isUniform() && !r.isZero()) {
                            throw new RegisterAllocationException("uniform register " + r
                                    + " on a target without uniform registers");
                        }
                    }
                }
            }
        }
        // setmaxnreg: each region has its own count; the widest one bounds the file, the kernel keeps its own count
        int regionMax = RegisterRegions.maximum(body);
        RegisterLimits entry = limits;
        if (regionMax > limits.maxRegisters()) {
            limits = new RegisterLimits(Math.min(RegisterLimits.MAX_REGISTERS, regionMax), limits.uniformFile(),
                    limits.reservedGprs(), limits.reservedUrs());
        }
        SpillRewriter.Frame frame = new SpillRewriter.Frame(function.attrs().localBytes());
        TuplePromotion.run(body, constraints);
        ValueTable before = new ValueTable(body, constraints);
        LiveInterval[] beforeIntervals = IntervalBuilder.build(body, before);
        int coalesced = Coalescer.run(body, before, beforeIntervals);
        int rounds = 0;
        ValueTable values;
        LiveInterval[] intervals;
        while (true) {
            rounds++;
            if (rounds > MAX_ROUNDS) {
                throw new RegisterAllocationException(function.name() + ": register allocation did not converge in "
                        + MAX_ROUNDS + " spill rounds");
            }
            if (rounds == 1 && coalesced == 0) {
                // Nothing coalesced: the body and the intervals are as they were built for the coalescer (it changes
                // neither when it deletes no copy), and building them again was a whole liveness analysis.
                values = before;
                intervals = beforeIntervals;
            } else {
                values = new ValueTable(body, constraints);
                intervals = IntervalBuilder.build(body, values);
            }
            if (regionMax > 0) {
                RegisterRegions.of(body, entry.maxRegisters()).limit(intervals);
            }
            int[][] hints = copyHints(body, values);
            BitSet spilled = new BitSet();
            for (RegFile f : RegFile.values()) {
                LinearScan.run(f, allowed(f, limits), intervals, hints, spilled);
            }
            if (spilled.isEmpty()) {
                break;
            }
            SpillRewriter.rewrite(body, values, spilled, constraints, frame, intervals);
        }
        Assignment assignment = new Assignment();
        for (int k = 0; k < values.size(); k++) {
            if (!values.mentioned(k)) {
                continue;
            }
            Reg v = Reg.virt(values.file(k), values.index(k), values.comps(k));
            LiveInterval iv = intervals[k];
            // A register no definition reaches holds garbage wherever it is; the first register will do.
            assignment.assign(v, iv.isEmpty() ? (iv.fixed >= 0 ? iv.fixed : firstAllowed(v, limits)) : iv.reg);
            if (values.definedAtEntry().get(k)) {
                assignment.markDefinedAtEntry(v);
            }
        }
        if (verify) {
            List<String> problems = AllocationVerifier.verify(body, assignment, limits);
            if (!problems.isEmpty()) {
                throw new IllegalStateException(function.name() + ": register allocation verifier: "
                        + String.join("; ", problems.subList(0, Math.min(5, problems.size()))));
            }
        }
        int copiesRemoved = coalesced + rewrite(body, assignment);
        Allocation a = statistics(body, frame, copiesRemoved, rounds);
        if (regionMax > 0) {
            // every warp starts with the function's count: the pool USETMAXREG takes from and returns to assumes it
            a = new Allocation(entry.maxRegisters(), a.gprs(), a.uniformRegisters(), a.predicates(),
                    a.uniformPredicates(), a.spillBytes(),
                    a.frameBytes(), a.spillStoreBytes(), a.spillLoadBytes(), a.usesStackPointer(), a.copiesRemoved(),
                    a.rounds());
        }
        return a;
    }

    private static int firstAllowed(Reg v, RegisterLimits limits) {
        boolean[] ok = allowed(v.file(), limits);
        int align = LinearScan.alignment(v.comps());
        for (int r = 0; r + v.comps() <= ok.length; r += align) {
            boolean all = true;
            for (int c = 0; c < v.comps(); c++) {
                all &= ok[r + c];
            }
            if (all) {
                return r;
            }
        }
        return 0;
    }

    /** Registers the allocator may hand out in {@code file}. */
    static boolean[] allowed(RegFile file, RegisterLimits limits) {
        boolean[] ok = new boolean[file.count()];
        for (int r = 0; r < ok.length; r++) {
            ok[r] = switch (file) {
                case R -> r <= limits.highestGpr() && r != RegisterLimits.STACK_POINTER
                        && !limits.reservedGprs().contains(r);
                case UR -> limits.uniformFile() && !limits.reservedUrs().contains(r);
                case UP -> limits.uniformFile();
                case P -> true;
            };
        }
        return ok;
    }

    /**
     * Replaces every precoloured physical register (except R1 and the zero registers) by a virtual register fixed to
     * it, so liveness sees it; incoming values count as defined at entry.
     */
    private static Map<Reg, Reg> renamePrecoloured(FunctionBody body, ValueTable.Constraints constraints) {
        Map<Reg, Reg> renamed = new HashMap<>();
        java.util.Set<Integer> pairs = copiedPairs(body);
        java.util.function.UnaryOperator<Reg> f = r -> {
            if (r.virtual() || r.isZero() || (r.file() == RegFile.R && r.index() == RegisterLimits.STACK_POINTER)) {
                return r;
            }
            if (r.file() == RegFile.R && r.comps() == 1 && pairs.contains(r.index() & ~1)) {
                // a part of the fixed pair, so that the pair's copies to and from a tuple coalesce
                Reg pair = renamed.computeIfAbsent(Reg.phys(RegFile.R, r.index() & ~1, 2), p -> {
                    Reg v = body.newVirtual(RegFile.R, 2);
                    constraints.fixed.get(RegFile.R).put(v.index(), p.index());
                    constraints.definedAtEntry.get(RegFile.R).set(v.index());
                    return v;
                });
                return pair.component(r.index() & 1);
            }
            return renamed.computeIfAbsent(r, p -> {
                Reg v = body.newVirtual(p.file(), p.comps());
                constraints.fixed.get(p.file()).put(v.index(), p.index());
                constraints.definedAtEntry.get(p.file()).set(v.index());
                return v;
            });
        };
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                RegOperands.mapUses(in, f);
                RegOperands.mapDefs(in, f);
            }
        }
        return renamed;
    }

    /**
     * The even registers {@code R2k} whose scalars {@code R2k}, {@code R2k+1} are copied to or from the two parts of a
     * virtual pair (a wide argument or result of the calling convention) and appear nowhere as a wide register: each
     * becomes one fixed pair, so the copies are a pair's copy part by part, which {@link Coalescer} can merge.
     */
    private static java.util.Set<Integer> copiedPairs(FunctionBody body) {
        java.util.Set<Integer> lo = new java.util.HashSet<>();
        java.util.Set<Integer> hi = new java.util.HashSet<>();
        java.util.Set<Integer> wide = new java.util.HashSet<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                List<Reg> regs = new ArrayList<>(in.dsts());
                regs.addAll(in.usedRegs());
                for (Reg r : regs) {
                    if (!r.virtual() && r.file() == RegFile.R && r.comps() > 1) {
                        for (int k = 0; k < r.comps(); k++) {
                            wide.add((r.index() + k) & ~1);
                        }
                    }
                }
                if (!in.op().name().equals("MOV") || !in.mods().isEmpty() || in.dsts().size() != 1
                        || in.srcs().size() != 1 || !in.guard().isAlways() || in.srcs().get(0).hasModifiers()
                        || !(in.srcs().get(0).value() instanceof Reg s)) {
                    continue;
                }
                Reg d = in.dsts().get(0);
                Reg physical = s.virtual() ? d : s;
                Reg tuplePart = s.virtual() ? s : d;
                if (physical.virtual() || !tuplePart.virtual() || physical.file() != RegFile.R
                        || tuplePart.file() != RegFile.R || physical.comps() != 1 || !tuplePart.isPart()
                        || tuplePart.comps() != 2 || (physical.index() & 1) != tuplePart.part()) {
                    continue;
                }
                (tuplePart.part() == 0 ? lo : hi).add(physical.index() & ~1);
            }
        }
        lo.retainAll(hi);
        lo.removeAll(wide);
        return lo;
    }

    /** For each register key, the keys it is copied to or from, in instruction order. */
    private static int[][] copyHints(FunctionBody body, ValueTable values) {
        List<List<Integer>> partners = new ArrayList<>();
        for (int k = 0; k < values.size(); k++) {
            partners.add(null);
        }
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                Reg s = RegOperands.copySource(in);
                Reg d = in.dsts().isEmpty() ? null : in.dsts().get(0);
                if (s == null || !s.virtual() || !d.virtual()) {
                    continue;
                }
                int ks = values.key(s);
                int kd = values.key(d);
                if (ks == kd) {
                    continue;
                }
                add(partners, kd, ks);
                add(partners, ks, kd);
            }
        }
        int[][] hints = new int[values.size()][];
        for (int k = 0; k < hints.length; k++) {
            if (partners.get(k) != null) {
                hints[k] = partners.get(k).stream().mapToInt(Integer::intValue).toArray();
            }
        }
        return hints;
    }

    private static void add(List<List<Integer>> partners, int k, int other) {
        if (partners.get(k) == null) {
            partners.set(k, new ArrayList<>(2));
        }
        partners.get(k).add(other);
    }

    /** Makes every register physical and deletes copies that became self-copies; returns how many. */
    private static int rewrite(FunctionBody body, Assignment assignment) {
        java.util.function.UnaryOperator<Reg> f = r -> r.virtual() ? assignment.physical(r) : r;
        int removed = 0;
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                RegOperands.mapUses(in, f);
                RegOperands.mapDefs(in, f);
                Reg s = RegOperands.copySource(in);
                if (s != null && s.equals(in.dsts().get(0))) {
                    instrs.remove(i--);
                    removed++;
                }
            }
        }
        return removed;
    }

    private static Allocation statistics(FunctionBody body, SpillRewriter.Frame frame, int copiesRemoved,
            int rounds) {
        int[] high = new int[RegFile.values().length];
        high[RegFile.R.ordinal()] = RegisterLimits.STACK_POINTER + 1;
        boolean stackPointer = false;
        // indexed loops and no joined operand list: under C1 each for-each and copy allocated, per instruction
        List<BasicBlock> blocks = body.blocks();
        for (int bi = 0; bi < blocks.size(); bi++) {
            List<Instr> instrs = blocks.get(bi).instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                raiseHighest(high, in.dsts());
                raiseHighest(high, in.usedRegs());
                List<Src> srcs = in.srcs();
                for (int j = 0; j < srcs.size(); j++) {
                    Src s = srcs.get(j);
                    if (s.value() instanceof Reg r && r.file() == RegFile.R && r.index() == 1 && !r.virtual()
                            || s.value() instanceof Addr a && a.base().file() == RegFile.R && a.base().index() == 1
                            && !a.base().virtual()) {
                        stackPointer = true;
                    }
                }
            }
        }
        int gprs = high[RegFile.R.ordinal()];
        long spillBytes = frame.spillBytes();
        return new Allocation(gprs + RegisterLimits.EXTRA_COUNTED, gprs, high[RegFile.UR.ordinal()],
                high[RegFile.P.ordinal()], high[RegFile.UP.ordinal()], spillBytes, frame.localBytes + spillBytes,
                frame.storeBytes, frame.loadBytes, stackPointer, copiesRemoved, rounds);
    }

    /** Raises each file's count in {@code high} past the registers of {@code regs} (the zero registers aside). */
    private static void raiseHighest(int[] high, List<Reg> regs) {
        for (int j = 0; j < regs.size(); j++) {
            Reg r = regs.get(j);
            if (!r.isZero()) {
                high[r.file().ordinal()] = Math.max(high[r.file().ordinal()], r.index() + r.comps());
            }
        }
    }
}
