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

    static void rewrite(FunctionBody body, ValueTable values, BitSet spilled, ValueTable.Constraints constraints,
            Frame frame, LiveInterval[] intervals) {
        SpillRewriter w = new SpillRewriter(body, values, constraints, frame);
        for (int k = spilled.nextSetBit(0); k >= 0; k = spilled.nextSetBit(k + 1)) {
            Instr remat = intervals[k].rematDef;
            if (remat != null) {
                w.rematerialize(k, remat);
            } else {
                w.spill(k);
            }
        }
    }

    /** Repeats the value's only definition (a constant move) before each use and deletes the original. */
    private void rematerialize(int key, Instr def) {
        RegFile file = values.file(key);
        int index = values.index(key);
        for (BasicBlock b : body.blocks()) {
            b.instrs().removeIf(i -> i == def);
        }
        rewriteAccesses(file, index, values.comps(key),
                t -> new Instr(def.op(), def.mods(), List.of(t), new ArrayList<>(def.srcs()), Guard.ALWAYS,
                        def.line()),
                (t, g) -> {
                    throw new IllegalStateException("rematerialized value redefined");
                }, 0);
    }

    private void spill(int key) {
        RegFile file = values.file(key);
        int comps = values.comps(key);
        int index = values.index(key);
        switch (file) {
            case R -> {
                long offset = frame.slot(4 * comps);
                rewriteAccesses(file, index, comps,
                        t -> new Instr(ldl, sizeMods(comps), List.of(t),
                                List.of(Src.of(Addr.of(STACK_POINTER, offset))), Guard.ALWAYS, 0),
                        (t, g) -> new Instr(stl, sizeMods(comps), List.of(),
                                List.of(Src.of(Addr.of(STACK_POINTER, offset)), Src.of(t)), g, 0),
                        4L * comps);
            }
            case P -> {
                Reg carrier = body.newVirtual(RegFile.R, 1);
                rewriteAccesses(file, index, comps,
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

    private void rewriteAccesses(RegFile file, int index, int comps, Reload reload, Store store, long bytes) {
        for (BasicBlock b : body.blocks()) {
            List<Instr> instrs = b.instrs();
            List<Instr> out = new ArrayList<>(instrs.size() + 4);
            boolean changed = false;
            for (Instr in : instrs) {
                boolean uses = false;
                for (Reg r : in.usedRegs()) {
                    uses |= is(r, file, index);
                }
                boolean defs = false;
                for (Reg r : in.dsts()) {
                    defs |= is(r, file, index);
                    // Writing one part keeps the rest: reload it first. (A guarded write needs no reload: the
                    // store after it has the same guard.)
                    uses |= is(r, file, index) && r.isPart();
                }
                if (!uses && !defs) {
                    out.add(in);
                    continue;
                }
                changed = true;
                Reg temp = body.newVirtual(file, comps);
                constraints.unspillable.get(file).set(temp.index());
                if (uses) {
                    out.add(reload.make(temp));
                    frame.loadBytes += bytes;
                    RegOperands.mapUses(in, r -> is(r, file, index) ? like(temp, r) : r);
                }
                out.add(in);
                if (defs) {
                    RegOperands.mapDefs(in, r -> is(r, file, index) ? like(temp, r) : r);
                    out.add(store.make(temp, in.guard()));
                    frame.storeBytes += bytes;
                }
            }
            if (changed) {
                instrs.clear();
                instrs.addAll(out);
            }
        }
    }

    private static boolean is(Reg r, RegFile file, int index) {
        return r.virtual() && r.file() == file && r.index() == index;
    }

    /** The temporary in the shape of the reference it replaces (whole or the same part). */
    private static Reg like(Reg temp, Reg ref) {
        return new Reg(temp.file(), temp.index(), temp.comps(), true, ref.part());
    }
}
