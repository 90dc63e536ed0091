package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Uniform datapath for warp-uniform constants (sm_75+): a constant-bank read into a register
 * ({@code MOV r, c[0x0][0x160]}; a 64-bit parameter read part by part) whose every reader takes a uniform
 * register in that operand slot becomes {@code ULDC ur, c[..]} ({@code ULDC.64} for a pair, one instruction instead
 * of two), and the readers read the UR: the value leaves the per-thread register file, as ptxas does (on sm_90 the
 * ALU reads constants only this way). Readers that cannot take a UR keep the register form. At most
 * {@link #MAX_UNIFORM} UR components per function, so uniform registers never become the scarce resource.
 */
public final class UniformDatapath implements Pass {
    /** Uniform register components this pass may introduce in one function (of 63). */
    public static final int MAX_UNIFORM = 24;

    @Override
    public String name() {
        return "uniform";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        if (!cx.hasUniformDatapath() || !OpInfo.exists("ULDC")) {
            return false;
        }
        SingleDefs sd = cx.singleDefs(body);
        int budget = MAX_UNIFORM - body.virtualCount(RegFile.UR);
        boolean changed = false;
        for (BasicBlock b : body.blocks()) {
            for (Instr mov : new ArrayList<>(b.instrs())) {
                Src src = OpInfo.movSource(mov);
                if (budget <= 0 || src == null || src.hasModifiers() || !mov.guard().isAlways()
                        || !(src.value() instanceof CBank c) || c.index() != null) {
                    continue;
                }
                Reg r = mov.dsts().get(0);
                if (!r.virtual() || r.file() != RegFile.R) {
                    continue;
                }
                if (!r.isPart() && r.comps() == 1 && sd.soleDef(r) == mov && allReadersTakeUniform(r, sd)) {
                    Reg ur = body.newVirtual(RegFile.UR, 1);
                    rewrite(mov, ur, c, List.of());
                    replace(r, ur, sd);
                    budget--;
                    changed = true;
                } else if (r.isPart() && r.part() == 0 && r.comps() == 2 && c.offset() % 8 == 0 && budget >= 2) {
                    Instr hiMov = partnerLoad(r.whole(), mov, c, sd);
                    if (hiMov != null && allReadersTakeUniform(r.whole(), sd)) {
                        Reg ur = body.newVirtual(RegFile.UR, 2);
                        rewrite(mov, ur, c, List.of("64"));
                        for (BasicBlock bb : body.blocks()) {
                            bb.instrs().remove(hiMov);
                        }
                        replace(r.whole(), ur, sd);
                        budget -= 2;
                        changed = true;
                    }
                }
            }
        }
        return changed;
    }

    /** The {@code MOV r.hi, c[off+4]} completing a 64-bit constant read, when r is written by exactly the two. */
    private static Instr partnerLoad(Reg whole, Instr lo, CBank c, SingleDefs sd) {
        if (!sd.stable(whole) || sd.defs(whole).size() != 2) {
            return null;
        }
        Instr hi = sd.defs(whole).get(0) == lo ? sd.defs(whole).get(1) : sd.defs(whole).get(0);
        Src s = OpInfo.movSource(hi);
        if (s == null || s.hasModifiers() || !(s.value() instanceof CBank h) || h.index() != null
                || h.bank() != c.bank() || h.offset() != c.offset() + 4 || !hi.dsts().get(0).isPart()
                || hi.dsts().get(0).part() != 1) {
            return null;
        }
        return hi;
    }

    private static void rewrite(Instr mov, Reg ur, CBank c, List<String> mods) {
        mov.setOp(OpInfo.op("ULDC"));
        mov.setMods(mods);
        mov.dsts().clear();
        mov.dsts().add(ur);
        mov.srcs().clear();
        mov.srcs().add(Src.of(c));
    }

    private static void replace(Reg r, Reg ur, SingleDefs sd) {
        for (Instr use : new ArrayList<>(sd.uses(r))) {
            Rewrites.replaceUses(use, r, ur);
        }
    }

    /**
     * Every reader reads {@code r} (or one of its parts) once, as a plain source in a slot the SASS forms give a
     * uniform-register variant, and has no other immediate, constant or uniform operand.
     */
    private static boolean allReadersTakeUniform(Reg r, SingleDefs sd) {
        List<Instr> uses = sd.uses(r);
        if (uses.isEmpty()) {
            return false;
        }
        for (Instr use : uses) {
            if (!use.guard().isAlways() && use.guard().predicate().sameRegister(r)) {
                return false;
            }
            int reads = 0;
            int slot = -1;
            for (int i = 0; i < use.srcs().size(); i++) {
                Src s = use.srcs().get(i);
                if (s.value() instanceof Reg x && x.sameRegister(r)) {
                    reads++;
                    slot = i;
                    if (s.abs() || s.not() || s.neg() && !OpInfo.is(use, "IADD3")) {
                        return false;
                    }
                    boolean whole = !x.isPart();
                    // A whole 64-bit pair can only be IMAD.WIDE's addend.
                    if (whole && r.comps() == 2 && !(OpInfo.is(use, "IMAD_WIDE") && i == 2)) {
                        return false;
                    }
                } else if (!(s.value() instanceof Reg) && OpInfo.usesRegister(s, r)) {
                    return false;
                }
            }
            if (reads != 1 || OpInfo.nonRegisterCount(use) > 0 || !uniformSlot(use, slot)) {
                return false;
            }
        }
        return true;
    }

    private static boolean uniformSlot(Instr use, int slot) {
        return switch (use.op().name()) {
            case "IADD3", "LOP3", "ISETP", "SEL", "LEA", "IMNMX", "FFMA", "FMUL" -> slot == 1;
            case "IMAD" -> slot == 1 || slot == 2;
            case "IMAD_WIDE" -> slot == 2;
            default -> false;
        };
    }
}
