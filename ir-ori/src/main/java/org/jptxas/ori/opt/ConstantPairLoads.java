package org.jptxas.ori.opt;

import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * A 64-bit constant read part by part ({@code MOV r.lo, c[0x0][0x210]}; {@code MOV r.hi, c[0x0][0x214]}) becomes one
 * {@code LDC.64 r, c[0x0][0x210]} where the ALU reads no constant-bank operand (sm_90: each such move is an LDC of
 * its own), as ptxas loads a pointer parameter: one instruction and one constant-cache wait instead of two.
 */
public final class ConstantPairLoads implements Pass {
    @Override
    public String name() {
        return "constant-pairs";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        if (cx.aluReadsConstantBank() || !OpInfo.exists("LDC")) {
            return false;
        }
        SingleDefs sd = null;
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            List<Instr> ins = b.instrs();
            for (int i = 0; i < ins.size(); i++) {
                Instr lo = ins.get(i);
                CBank c = constantRead(lo);
                if (c == null || c.offset() % 8 != 0) {
                    continue;
                }
                Reg d = lo.dsts().get(0);
                if (!d.virtual() || d.file() != RegFile.R) {
                    continue;
                }
                if (sd == null) {
                    sd = new SingleDefs(body);
                }
                if (!d.isPart() && d.comps() == 1) {
                    if (pairScalars(body, ins, i, d, c, sd, cx)) {
                        sd = null;
                        changed = true;
                    }
                    continue;
                }
                if (!d.isPart() || d.part() != 0 || d.comps() != 2) {
                    continue;
                }
                Reg whole = d.whole();
                if (!sd.stable(whole) || sd.defs(whole).size() != 2) {
                    continue;
                }
                Instr hi = sd.defs(whole).get(0) == lo ? sd.defs(whole).get(1) : sd.defs(whole).get(0);
                CBank h = constantRead(hi);
                int at = indexOf(ins, hi);
                if (h == null || at < 0 || h.bank() != c.bank() || h.offset() != c.offset() + 4
                        || !hi.dsts().get(0).isPart() || hi.dsts().get(0).part() != 1) {
                    continue;
                }
                Instr pair = new Instr(OpInfo.op("LDC"), List.of("64"), List.of(whole),
                        List.of(Src.of(c)), Guard.ALWAYS, lo.line());
                if (!cx.canEncode(pair).orElse(true)) {
                    continue;
                }
                int first = Math.min(i, at);
                ins.set(first, pair);
                ins.remove(Math.max(i, at));
                sd = null; // a snapshot: the defs changed
                changed = true;
                i = first;
            }
        }
        return changed;
    }

    /**
     * Two 32-bit values read from neighbouring words ({@code c[o]}, {@code c[o+4]}, o a multiple of 8) in one
     * block, each the sole write of its register: one {@code LDC.64} into a fresh pair at the first read, the
     * readers of each reading its half (ptxas loads a kernel's adjacent {@code int} parameters this way).
     */
    private static boolean pairScalars(FunctionBody body, List<Instr> ins, int i, Reg d, CBank c, SingleDefs sd,
            OptContext cx) {
        if (sd.soleDef(d) != ins.get(i)) {
            return false;
        }
        for (int j = i + 1; j < ins.size(); j++) {
            Instr hi = ins.get(j);
            CBank h = constantRead(hi);
            if (h == null || h.bank() != c.bank() || h.offset() != c.offset() + 4) {
                continue;
            }
            Reg e = hi.dsts().get(0);
            if (!e.virtual() || e.file() != RegFile.R || e.isPart() || e.comps() != 1 || sd.soleDef(e) != hi) {
                return false;
            }
            Reg pairReg = body.newVirtual(RegFile.R, 2);
            Instr pair = new Instr(OpInfo.op("LDC"), List.of("64"), List.of(pairReg), List.of(Src.of(c)),
                    Guard.ALWAYS, ins.get(i).line());
            if (!cx.canEncode(pair).orElse(true)) {
                return false;
            }
            for (Instr use : new java.util.ArrayList<>(sd.uses(d))) {
                Rewrites.replaceUses(use, d, pairReg.component(0));
            }
            for (Instr use : new java.util.ArrayList<>(sd.uses(e))) {
                Rewrites.replaceUses(use, e, pairReg.component(1));
            }
            ins.set(i, pair);
            ins.remove(j);
            return true;
        }
        return false;
    }

    /** The constant a plain unguarded {@code MOV r, c[b][off]} (no index) reads, or null. */
    private static CBank constantRead(Instr in) {
        Src s = OpInfo.movSource(in);
        if (s == null || s.hasModifiers() || !in.guard().isAlways() || !(s.value() instanceof CBank c)
                || c.index() != null) {
            return null;
        }
        return c;
    }

    private static int indexOf(List<Instr> ins, Instr x) {
        for (int i = 0; i < ins.size(); i++) {
            if (ins.get(i) == x) {
                return i;
            }
        }
        return -1;
    }
}
