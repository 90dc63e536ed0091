package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;

/**
 * Bring-up stand-in for instruction selection's printer: writes each allocated Ori instruction in its sm_80
 * spelling, every operand as Ori holds it (no target-specific rewriting beyond 64-bit address syntax). Also the
 * place that maps blocks to branch labels, which {@link #blockLabels} shares with real emitters.
 */
public final class NaiveSassEmitter implements SassEmitter {
    @Override
    public List<CodeLine> emit(OriFunction function, CodegenContext context) throws CompilationException {
        FunctionBody body = function.body();
        String[] labels = blockLabels(body);
        List<CodeLine> out = new ArrayList<>();
        if (context.sm() >= 90) {
            // Global accesses name their memory descriptor from sm_90 on: desc[UR4], loaded once, as ptxas does.
            out.add(CodeLine.of("ULDC.64 UR4, c[0x0][0x208]"));
        }
        for (BasicBlock b : body.blocks()) {
            String pending = labels[b.id()];
            for (Instr in : b.instrs()) {
                out.add(new CodeLine(pending, text(in, labels, context.sm()), null, symbolOf(in), in.line()));
                pending = null;
            }
        }
        return out;
    }

    /**
     * For each block, the label of its first instruction when a branch targets it (or a targeted empty block falls
     * into it), else null. Labels of empty blocks are those of the next block that has instructions.
     */
    public static String[] blockLabels(FunctionBody body) {
        int n = body.blocks().size();
        boolean[] targeted = new boolean[n];
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                BlockLabel t = in.branchTarget();
                if (t != null) {
                    targeted[t.block()] = true;
                }
            }
        }
        String[] names = new String[n];
        String carried = null;
        for (int i = 0; i < n; i++) {
            if (targeted[i] && carried == null) {
                carried = ".L_bb" + i;
            }
            if (!body.block(i).instrs().isEmpty()) {
                names[i] = carried;
                carried = null;
            }
        }
        // Empty blocks take the label of the block they fall into.
        for (int i = n - 1; i >= 0; i--) {
            if (body.block(i).instrs().isEmpty()) {
                names[i] = i + 1 < n ? names[i + 1] : null;
            }
        }
        return names;
    }

    static Sym symbolOf(Instr in) {
        for (Src s : in.srcs()) {
            if (s.value() instanceof Sym sym) {
                return sym;
            }
        }
        return null;
    }

    static String text(Instr in, String[] labels, int sm) {
        StringBuilder sb = new StringBuilder();
        if (!in.guard().isAlways()) {
            sb.append('@').append(in.guard().negated() ? "!" : "").append(reg(in.guard().predicate())).append(' ');
        }
        sb.append(in.op().name().replace('_', '.'));
        for (String m : in.mods()) {
            sb.append('.').append(m);
        }
        String sep = " ";
        for (Reg d : in.dsts()) {
            sb.append(sep).append(reg(d));
            sep = ", ";
        }
        for (Src s : in.srcs()) {
            if (in.op().name().equals("LDC") && s.value() instanceof CBank c && c.index() == null && c.offset() == 0) {
                // nvdisasm prints an LDC of offset 0 as c[bank][RZ] (its form has a register index).
                sb.append(sep).append("c[0x").append(Integer.toHexString(c.bank())).append("][RZ]");
                continue;
            }
            sb.append(sep).append(src(s, labels, sm));
            sep = ", ";
        }
        return sb.toString();
    }

    static String reg(Reg r) {
        return r.isZero() ? r.file().zeroName() : r.file().prefix() + r.index();
    }

    static String src(Src s, String[] labels, int sm) {
        String v = operand(s.value(), labels, sm);
        if (s.abs()) {
            v = "|" + v + "|";
        }
        if (s.neg()) {
            v = "-" + v;
        }
        if (s.not()) {
            v = (s.value() instanceof Reg r && r.file().isPredicate() ? "!" : "~") + v;
        }
        return v;
    }

    static String operand(org.jptxas.ori.ir.Operand o, String[] labels, int sm) {
        if (o instanceof Reg r) {
            return reg(r);
        } else if (o instanceof Imm i) {
            return "0x" + Long.toHexString(i.bits());
        } else if (o instanceof CBank c) {
            return "c[0x" + Integer.toHexString(c.bank()) + "][" + (c.index() == null ? "" : reg(c.index()) + "+")
                    + "0x" + Integer.toHexString(c.offset()) + "]";
        } else if (o instanceof Addr a) {
            return address(a, sm);
        } else if (o instanceof SpecialReg r) {
            return r.name();
        } else if (o instanceof BlockLabel l) {
            return "`(" + labels[l.block()] + ")";
        } else {
            Sym sym = (Sym) o;
            return sym.part() == Sym.Part.WHOLE ? "`(" + sym.name() + ")" : sym.toString();
        }
    }

    static String address(Addr a, int sm) {
        StringBuilder sb = new StringBuilder(sm >= 90 && a.wide() ? "desc[UR4][" : "[");
        String sep = "";
        if (!a.base().isZero() || (a.uniformBase() == null && a.offset() == 0)) {
            sb.append(reg(a.base()));
            if (a.wide() && sm >= 80) {
                sb.append(".64");
            }
            sep = "+";
        }
        if (a.uniformBase() != null) {
            sb.append(sep).append(reg(a.uniformBase()));
            sep = "+";
        }
        if (a.offset() != 0 || sep.isEmpty()) {
            sb.append(sep).append(a.offset() < 0 ? "-0x" + Long.toHexString(-a.offset()) : "0x" + Long.toHexString(a.offset()));
        }
        return sb.append(']').toString();
    }
}
