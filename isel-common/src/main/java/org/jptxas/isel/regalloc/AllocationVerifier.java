package org.jptxas.isel.regalloc;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * Checks a register assignment of a virtual-register body independently of the allocator: every register is
 * assigned, aligned and within the limits, and every read finds in its physical register the value the reaching
 * definition wrote there. The last is a forward data flow over the CFG of two sets of virtual registers: those some
 * definition may have reached ({@code defined}), and those whose physical register may have been overwritten by
 * another value since ({@code clobbered}); a read of a register in both is an error. Reading a register no
 * definition reached reads an undefined value, which any register content satisfies.
 */
public final class AllocationVerifier {
    private final FunctionBody body;
    private final Assignment assignment;
    private final RegisterLimits limits;
    private final int[] base = new int[RegFile.values().length];
    private final int width;
    /** Per file and physical unit, the components (C * key + component) of the virtual registers over it. */
    private final Map<RegFile, List<List<Integer>>> occupants = new EnumMap<>(RegFile.class);
    private final List<String> problems = new ArrayList<>();
    /** Bits per virtual register in the data-flow sets: one per component of the widest tuple. */
    private static final int C = Reg.MAX_COMPS;

    private AllocationVerifier(FunctionBody body, Assignment assignment, RegisterLimits limits) {
        this.body = body;
        this.assignment = assignment;
        this.limits = limits;
        int offset = 0;
        for (RegFile f : RegFile.values()) {
            base[f.ordinal()] = offset;
            offset += body.virtualCount(f);
            List<List<Integer>> units = new ArrayList<>();
            for (int u = 0; u <= f.count(); u++) {
                units.add(new ArrayList<>());
            }
            occupants.put(f, units);
        }
        width = offset;
    }

    /** The problems found, each naming the block, instruction and register; empty when the assignment is sound. */
    public static List<String> verify(FunctionBody virtualBody, Assignment assignment, RegisterLimits limits) {
        AllocationVerifier v = new AllocationVerifier(virtualBody, assignment, limits);
        v.checkAssignments();
        if (v.problems.isEmpty()) {
            v.checkDataFlow();
        }
        return v.problems;
    }

    private int key(Reg r) {
        return base[r.file().ordinal()] + r.index();
    }

    private void checkAssignments() {
        int[] comps = new int[width];
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.dsts()) {
                    if (r.virtual()) {
                        comps[key(r)] = Math.max(comps[key(r)], r.comps());
                    }
                }
                for (Reg r : in.usedRegs()) {
                    if (r.virtual()) {
                        comps[key(r)] = Math.max(comps[key(r)], r.comps());
                    }
                }
            }
        }
        for (RegFile f : RegFile.values()) {
            for (int i = 0; i < body.virtualCount(f); i++) {
                int c = comps[base[f.ordinal()] + i];
                if (c == 0) {
                    continue;
                }
                Reg v = Reg.virt(f, i, c);
                int p = assignment.physicalIndex(v);
                if (p < 0) {
                    problems.add(v + " has no register");
                    continue;
                }
                if (p % LinearScan.alignment(c) != 0) {
                    problems.add(v + " in " + f.prefix() + p + " is not aligned to " + LinearScan.alignment(c));
                }
                if (p + c > f.count()) {
                    problems.add(v + " in " + f.prefix() + p + " runs past the register file");
                    continue;
                }
                for (int u = p; u < p + c; u++) {
                    if (f == RegFile.R && !assignment.definedAtEntry(v) && (u > limits.highestGpr()
                            || u == RegisterLimits.STACK_POINTER || limits.reservedGprs().contains(u))) {
                        problems.add(v + " in R" + p + " uses R" + u + ", outside the allocatable registers");
                    }
                    if (f == RegFile.UR && !assignment.definedAtEntry(v) && limits.reservedUrs().contains(u)) {
                        problems.add(v + " in UR" + p + " uses the reserved UR" + u);
                    }
                    if (f.isUniform() && !limits.uniformFile()) {
                        problems.add(v + ": the target has no uniform registers");
                    }
                    occupants.get(f).get(u).add(C * (base[f.ordinal()] + i) + (u - p));
                }
            }
        }
    }

    private void checkDataFlow() {
        Cfg cfg = Cfg.of(body);
        int n = body.blocks().size();
        int bits = C * width;
        BitSet[] definedIn = new BitSet[n];
        BitSet[] clobberedIn = new BitSet[n];
        for (int b = 0; b < n; b++) {
            definedIn[b] = new BitSet(bits);
            clobberedIn[b] = new BitSet(bits);
        }
        for (RegFile f : RegFile.values()) {
            for (int i = 0; i < body.virtualCount(f); i++) {
                if (assignment.definedAtEntry(Reg.virt(f, i, 1))) {
                    int k = base[f.ordinal()] + i;
                    definedIn[0].set(C * k, C * k + C);
                }
            }
        }
        int[] rpo = cfg.reversePostorder();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int b : rpo) {
                BitSet defined = (BitSet) definedIn[b].clone();
                BitSet clobbered = (BitSet) clobberedIn[b].clone();
                transfer(body.block(b), defined, clobbered, false);
                for (int s : cfg.successors(b)) {
                    if (orChanged(definedIn[s], defined) | orChanged(clobberedIn[s], clobbered)) {
                        changed = true;
                    }
                }
            }
        }
        for (int b : rpo) {
            transfer(body.block(b), (BitSet) definedIn[b].clone(), (BitSet) clobberedIn[b].clone(), true);
        }
    }

    private static boolean orChanged(BitSet target, BitSet add) {
        int before = target.cardinality();
        target.or(add);
        return target.cardinality() != before;
    }

    /** The component bits [from, to) a virtual register operand reads or writes: one part, or the whole tuple. */
    private int fromBit(Reg r) {
        return C * key(r) + (r.isPart() ? r.part() : 0);
    }

    private int toBit(Reg r) {
        return r.isPart() ? fromBit(r) + 1 : C * key(r) + r.comps();
    }

    private void transfer(BasicBlock block, BitSet defined, BitSet clobbered, boolean report) {
        List<Instr> instrs = block.instrs();
        for (int i = 0; i < instrs.size(); i++) {
            Instr in = instrs.get(i);
            if (report) {
                for (Reg r : in.usedRegs()) {
                    if (!r.virtual()) {
                        continue;
                    }
                    for (int bit = fromBit(r); bit < toBit(r); bit++) {
                        if (defined.get(bit) && clobbered.get(bit)) {
                            problems.add(block + " #" + i + " (" + in + "): " + r + " in " + assignment.physical(r)
                                    + " may have been overwritten by another value");
                            break;
                        }
                    }
                }
            }
            for (Reg r : in.dsts()) {
                if (r.isZero()) {
                    continue;
                }
                Reg written = r.virtual() ? assignment.physical(r) : r;
                List<List<Integer>> units = occupants.get(r.file());
                int ownFrom = r.virtual() ? fromBit(r) : -1;
                int ownTo = r.virtual() ? toBit(r) : -1;
                for (int u = written.index(); u < written.index() + written.comps() && u < units.size(); u++) {
                    for (int other : units.get(u)) {
                        if ((other < ownFrom || other >= ownTo) && defined.get(other)) {
                            clobbered.set(other);
                        }
                    }
                }
                if (r.virtual()) {
                    defined.set(ownFrom, ownTo);
                    if (in.guard().isAlways()) {
                        clobbered.clear(ownFrom, ownTo);
                    }
                }
            }
        }
    }
}
