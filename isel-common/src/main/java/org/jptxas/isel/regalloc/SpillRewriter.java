package org.jptxas.isel.regalloc;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcode;
import org.jptxas.ori.opcode.OriOpcodes;

/**
 * Spills everywhere: a spilled general register lives in a local-memory slot at {@code [R1+offset]}, stored after
 * each definition ({@code STL}, under the definition's guard) and loaded into a fresh short-lived register before
 * each use ({@code LDL}); a spilled predicate lives in a general register ({@code SEL c, RZ, 0x1, !p} after each
 * definition, {@code ISETP.NE.AND p', PT, c, RZ, PT} before each use), which may itself be spilled later. The
 * short-lived registers are never spilled again.
 */
final class SpillRewriter {
    static final Reg STACK_POINTER = Reg.phys(RegFile.R, RegisterLimits.STACK_POINTER, 1);

    private final FunctionBody body;
    private final ValueTable values;
    private final ValueTable.Constraints constraints;
    private final Frame frame;
    private final OriOpcode stl;
    private final OriOpcode ldl;
    private final OriOpcode sel;
    private final OriOpcode isetp;

    /** The local frame: the function's own bytes, then spill slots; counts spill traffic. */
    static final class Frame {
        long top;
        long storeBytes;
        long loadBytes;
        final long localBytes;

        Frame(long localBytes) {
            this.localBytes = localBytes;
            this.top = localBytes;
        }

        long slot(int bytes) {
            top = (top + bytes - 1) / bytes * bytes;
            long at = top;
            top += bytes;
            return at;
        }

        long spillBytes() {
            return top == localBytes ? 0 : (top + 7) / 8 * 8 - localBytes;
        }
    }

    private SpillRewriter(FunctionBody body, ValueTable values, ValueTable.Constraints constraints, Frame frame) {
        this.body = body;
        this.values = values;
        this.constraints = constraints;
        this.frame = frame;
        OriOpcodes ops = OriOpcodes.get();
        this.stl = ops.byName("STL").orElseThrow();
        this.ldl = ops.byName("LDL").orElseThrow();
        this.sel = ops.byName("SEL").orElseThrow();
        this.isetp = ops.byName("ISETP").orElseThrow();
    }

    /** How one spilled register is reloaded before a use and stored after a definition (store null: remat). */
    private record Plan(RegFile file, int comps, Reload reload, Store store, long bytes) {}

    static void rewrite(FunctionBody body, ValueTable values, BitSet spilled, ValueTable.Constraints constraints,
            Frame frame, LiveInterval[] intervals) {
        SpillRewriter w = new SpillRewriter(body, values, constraints, frame);
        Plan[] plans = new Plan[values.size()];
        java.util.Set<Instr> deleted = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int k = spilled.nextSetBit(0); k >= 0; k = spilled.nextSetBit(k + 1)) {
            Instr remat = intervals[k].rematDef;
            if (remat != null) {
                deleted.add(remat);
                plans[k] = new Plan(values.file(k), values.comps(k), t -> new Instr(remat.op(), remat.mods(),
                        List.of(t), new ArrayList<>(remat.srcs()), Guard.ALWAYS, remat.line()), null, 0);
            } else {
                plans[k] = w.plan(k);
            }
        }
        w.rewriteAll(plans, deleted);
    }

    private Plan plan(int key) {
        RegFile file = values.file(key);
        int comps = values.comps(key);
        switch (file) {
            case R -> {
                long offset = frame.slot(4 * comps);
                List<String> mods = sizeMods(comps);
                Addr slot = Addr.of(STACK_POINTER, offset);
                return new Plan(file, comps,
                        t -> new Instr(ldl, mods, List.of(t), List.of(Src.of(slot)), Guard.ALWAYS, 0),
                        (t, g) -> new Instr(stl, mods, List.of(), List.of(Src.of(slot), Src.of(t)), g, 0),
                        4L * comps);
            }
            case P -> {
                Reg carrier = body.newVirtual(RegFile.R, 1);
                return new Plan(file, comps,
                        t -> new Instr(isetp, List.of("NE", "AND"), List.of(t, Reg.PT),
                                List.of(Src.of(carrier), Src.of(Reg.RZ), Src.of(Reg.PT)), Guard.ALWAYS, 0),
                        (t, g) -> new Instr(sel, List.of(), List.of(carrier),
                                List.of(Src.of(Reg.RZ), Src.of(Imm.ofInt(1)), Src.of(t).inverted()), g, 0),
                        0);
            }
            default -> throw new RegisterAllocationException("cannot spill " + file.prefix()
                    + " registers: more than " + file.count() + " live at once");
        }
    }

    private static List<String> sizeMods(int comps) {
        return switch (comps) {
            case 1 -> List.of();
            case 2 -> List.of("64");
            case 4 -> List.of("128");
            default -> throw new IllegalStateException("no " + comps + "-component spill");
        };
    }

    private interface Reload {
        Instr make(Reg temp);
    }

    private interface Store {
        Instr make(Reg temp, Guard guard);
    }

    /** One pass over the body: each instruction touching spilled registers gets its reloads, temps and stores. */
    private void rewriteAll(Plan[] plans, java.util.Set<Instr> deleted) {
        int[] temp = new int[plans.length];
        List<Integer> touched = new ArrayList<>(4);
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            List<Instr> out = new ArrayList<>(instrs.size() + 4);
            boolean changed = false;
            for (Instr in : instrs) {
                if (deleted.contains(in)) {
                    changed = true;
                    continue;
                }
                touched.clear();
                boolean any = false;
                for (Reg r : in.usedRegs()) {
                    any |= note(r, plans, touched, temp, true);
                }
                for (Reg r : in.dsts()) {
                    // A part write keeps the other parts, and a guarded write keeps the old value where the guard
                    // is false: both reload first, which also keeps the temporary's interval short (a temporary
                    // only ever written under a guard would look live around any loop).
                    any |= note(r, plans, touched, temp, r.isPart() || !in.guard().isAlways());
                }
                if (!any) {
                    out.add(in);
                    continue;
                }
                changed = true;
                // temp[k] > 0: needs a reload first; both signs carry (index + 1) of the fresh temporary.
                for (int k : touched) {
                    Plan p = plans[k];
                    Reg t = body.newVirtual(p.file(), p.comps());
                    constraints.unspillable.get(p.file()).set(t.index());
                    boolean reload = temp[k] > 0;
                    temp[k] = reload ? t.index() + 1 : -(t.index() + 1);
                    if (reload) {
                        out.add(p.reload().make(t));
                        frame.loadBytes += p.bytes();
                    }
                }
                RegOperands.mapUses(in, r -> mapped(r, plans, temp));
                RegOperands.mapDefs(in, r -> mapped(r, plans, temp));
                out.add(in);
                for (int k : touched) {
                    boolean defined = false;
                    for (Reg r : in.dsts()) {
                        defined |= r.virtual() && r.file() == plans[k].file() && Math.abs(temp[k]) - 1 == r.index();
                    }
                    if (defined) {
                        Plan p = plans[k];
                        if (p.store() == null) {
                            throw new IllegalStateException("rematerialized register redefined");
                        }
                        out.add(p.store().make(Reg.virt(p.file(), Math.abs(temp[k]) - 1, p.comps()), in.guard()));
                        frame.storeBytes += p.bytes();
                    }
                    temp[k] = 0;
                }
            }
            if (changed) {
                instrs.clear();
                instrs.addAll(out);
            }
        }
    }

    /** Records a spilled register an instruction touches; {@code reload}: its value must be loaded first. */
    private boolean note(Reg r, Plan[] plans, List<Integer> touched, int[] temp, boolean reload) {
        if (!values.contains(r)) {
            return false;
        }
        int k = values.key(r);
        if (k >= plans.length || plans[k] == null) {
            return false;
        }
        if (temp[k] == 0) {
            touched.add(k);
            temp[k] = -1;
        }
        if (reload) {
            temp[k] = 1;
        }
        return true;
    }

    private Reg mapped(Reg r, Plan[] plans, int[] temp) {
        if (!values.contains(r)) {
            return r;
        }
        int k = values.key(r);
        if (k >= plans.length || plans[k] == null || temp[k] == 0) {
            return r;
        }
        return new Reg(r.file(), Math.abs(temp[k]) - 1, r.comps(), true, r.part());
    }
}
