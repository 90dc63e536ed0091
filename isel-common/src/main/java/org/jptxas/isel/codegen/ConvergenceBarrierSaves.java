package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.TreeSet;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BarrierReg;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;

/**
 * Convergence barriers across calls, as ptxas does it: every function numbers its barriers from the same registers,
 * so a callee that sets one ({@code BSSY}) would overwrite the barrier its caller is inside of. The callee keeps the
 * caller's: at entry {@code BMOV.32.CLEAR Rs, Bn} moves each barrier it uses into a callee-saved register (so it
 * also survives the callee's own calls, recursion included), and before each {@code RET}, {@code BMOV.32 Bn, Rs}
 * puts it back. The holding registers are callee-saved registers the allocated code does not name;
 * {@link CallFrames} then saves them in the frame like any other callee-saved register it writes, so this runs
 * between {@link Reconvergence#insert} and {@link CallFrames#afterAllocation}.
 */
final class ConvergenceBarrierSaves {
    private ConvergenceBarrierSaves() {}

    /** Adds the saves and restores to {@code f} when it is a callee that uses convergence barriers. */
    static void insert(OriFunction f, CodegenContext cx) throws CompilationException {
        if (f.entry()) {
            return;
        }
        TreeSet<Integer> barriers = new TreeSet<>();
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                for (Src s : in.srcs()) {
                    if (s.value() instanceof BarrierReg br) {
                        barriers.add(br.index());
                    }
                }
            }
        }
        if (barriers.isEmpty()) {
            return;
        }
        BitSet named = namedGprs(f);
        List<Integer> holders = new ArrayList<>();
        int candidate = 16;
        for (int i = 0; i < barriers.size(); i++) {
            while (candidate < RegFile.R.count() && (named.get(candidate) || !CallFrames.calleeSaved(candidate))) {
                candidate++;
            }
            if (candidate >= RegFile.R.count()) {
                throw new CompilationException(Diagnostic.error(cx.sourceName(), f.line(), "Function '" + f.name()
                        + "' uses every callee-saved register: none is left to keep its caller's convergence barriers"));
            }
            holders.add(candidate++);
        }
        OriOpcodes ops = OriOpcodes.get();
        List<Instr> entry = f.body().blocks().get(0).instrs();
        int at = 0;
        while (at < entry.size() && definesSp(entry.get(at))) {
            at++;
        }
        List<Instr> saves = new ArrayList<>();
        int k = 0;
        for (int b : barriers) {
            saves.add(new Instr(ops.require("BMOV"), List.of("32", "CLEAR"),
                    List.of(Reg.phys(RegFile.R, holders.get(k++), 1)), List.of(Src.of(new BarrierReg(b))),
                    org.jptxas.ori.ir.Guard.ALWAYS, f.line()));
        }
        entry.addAll(at, saves);
        for (BasicBlock b : f.body().blocks()) {
            List<Instr> is = b.instrs();
            for (int i = 0; i < is.size(); i++) {
                Instr ret = is.get(i);
                if (!ret.op().name().equals("RET")) {
                    continue;
                }
                // before the frame release, so CallFrames's reloads (placed before it too) follow the restores
                int before = i;
                while (before > 0 && definesSp(is.get(before - 1))) {
                    before--;
                }
                List<Instr> restores = new ArrayList<>();
                k = 0;
                for (int bar : barriers) {
                    restores.add(new Instr(ops.require("BMOV"), List.of("32"), List.of(),
                            List.of(Src.of(new BarrierReg(bar)), Src.of(Reg.phys(RegFile.R, holders.get(k++), 1))),
                            ret.guard(), ret.line()));
                }
                is.addAll(before, restores);
                i += restores.size();
            }
        }
    }

    /** The general-purpose registers the allocated {@code f} names anywhere, tuples included. */
    private static BitSet namedGprs(OriFunction f) {
        BitSet named = new BitSet();
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.dsts()) {
                    mark(named, r);
                }
                for (Src s : in.srcs()) {
                    if (s.value() instanceof Reg r) {
                        mark(named, r);
                    } else if (s.value() instanceof Addr a) {
                        mark(named, a.base());
                    } else if (s.value() instanceof CBank c && c.index() != null) {
                        mark(named, c.index());
                    }
                }
            }
        }
        return named;
    }

    private static void mark(BitSet named, Reg r) {
        if (r != null && r.file() == RegFile.R && !r.isZero() && !r.virtual()) {
            named.set(r.index(), r.index() + r.comps());
        }
    }

    private static boolean definesSp(Instr in) {
        return !in.dsts().isEmpty() && in.dsts().get(0).file() == RegFile.R && !in.dsts().get(0).virtual()
                && in.dsts().get(0).index() == 1;
    }
}
