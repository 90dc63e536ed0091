package org.jptxas.frontend.ptx.lower;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.isel.sass.SassAssembler;
import org.jptxas.isel.sass.SassIsa;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.Sym;

/**
 * A stand-in for register allocation plus the SASS printer, for tests only: virtual registers get physical ones by
 * a fixed, alignment-respecting formula (values collide, which does not matter for checking that each instruction
 * has an sm_80 encoding), and each instruction prints as nvdisasm would print it, following the operand shapes the
 * lowerers emit ({@code docs/ori.md}).
 */
final class NaiveSass {
    private static final SassIsa SM80 = SassIsa.forSm("sm_80");
    private final SassAssembler assembler = new SassAssembler(SM80);

    /**
     * True for a failure that comes from the SASS tables rather than the text: a form learnt from a single probe
     * sample with fixed registers ("operand 1 must be R5 in this form").
     */
    static boolean tableGap(String failure) {
        return failure.contains("in this form") || failure.matches("LDC\\.[US](8|16) .*")
                || failure.matches("(LD|ST)\\.E\\.128 .*")
                || (failure.contains("no sm_80 encoding form")
                && failure.matches("(@!?P\\d )?H(ADD2|MUL2|FMA2|MNMX2|SET2|SETP2)[ .].*"));
    }

    /** Assembles every instruction; returns the failures as "text: reason". */
    List<String> check(OriFunction f) {
        List<String> failures = new ArrayList<>();
        Map<Integer, Long> blockAddr = new HashMap<>();
        long pc = 0;
        for (BasicBlock b : f.body().blocks()) {
            blockAddr.put(b.id(), pc);
            pc += 16L * b.instrs().size();
        }
        pc = 0;
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                String shape = shapeProblem(in);
                if (shape != null) {
                    failures.add(in + ": " + shape);
                }
                String text = text(in);
                try {
                    assembler.assemble(text, pc, name -> blockAddr.getOrDefault(
                            Integer.parseInt(name.substring(name.lastIndexOf('_') + 1)), 0L));
                } catch (RuntimeException e) {
                    failures.add(text + "  <-  " + in + ": " + e.getMessage());
                }
                pc += 16;
            }
        }
        return failures;
    }

    /** The destination counts of the full Ori shapes ({@code docs/ori.md}). */
    static String shapeProblem(Instr in) {
        int want = switch (in.op().name()) {
            case "IADD3" -> 3;
            case "LOP3", "PLOP3", "ISETP", "FSETP", "DSETP", "QSPC" -> 2;
            default -> -1;
        };
        if (want >= 0 && in.dsts().size() != want) {
            return "shape: " + in.op().name() + " has " + in.dsts().size() + " destinations, the full shape " + want;
        }
        return null;
    }

    static String reg(Reg r) {
        if (r.isZero()) {
            return r.file().zeroName();
        }
        if (!r.virtual()) {
            return r.file().prefix() + r.index();
        }
        int part = r.isPart() ? r.part() : 0;
        return switch (r.file()) {
            case R -> "R" + ((4 * r.index()) % 248 + part);
            case UR -> "UR" + ((4 * r.index()) % 60 + part);
            case P -> "P" + (r.index() % 7);
            case UP -> "UP" + (r.index() % 7);
        };
    }

    private static boolean floatOp(String op) {
        return switch (op) {
            case "FADD", "FMUL", "FFMA", "FMNMX", "FSETP", "FSET" -> true;
            default -> false;
        };
    }

    private static boolean signedImm(String op) {
        return switch (op) {
            case "IADD3", "IMAD", "IMAD_WIDE", "ISETP", "IMNMX", "LEA" -> true;
            default -> false;
        };
    }

    static String text(Instr in) {
        StringBuilder sb = new StringBuilder();
        if (!in.guard().isAlways()) {
            sb.append('@').append(in.guard().negated() ? "!" : "").append(reg(in.guard().predicate())).append(' ');
        }
        String op = in.op().name();
        String mnemonic = switch (op) {
            case "CS2R_64" -> "CS2R";
            default -> op.replace('_', '.');
        };
        sb.append(mnemonic);
        for (String m : in.mods()) {
            sb.append('.').append(m);
        }
        List<String> parts = new ArrayList<>();
        for (int i = 0; i < in.dsts().size(); i++) {
            Reg d = in.dsts().get(i);
            boolean omit = (op.equals("IADD3") && i > 0 && d.isZero()) || (op.equals("LOP3") && i == 0 && d.isZero());
            if (!omit) {
                parts.add(reg(d));
            }
        }
        for (Src s : in.srcs()) {
            parts.add(src(s, op));
        }
        if (op.equals("RET")) {
            parts.add("R20 0x0");
        }
        if (!parts.isEmpty()) {
            sb.append(' ').append(String.join(", ", parts));
        }
        return sb.toString();
    }

    private static String src(Src s, String op) {
        String v;
        if (s.value() instanceof Reg r) {
            v = reg(r);
            if (r.width() == 2 && op.equals("QSPC")) {
                v = v + ".64";
            }
        } else if (s.value() instanceof Imm m) {
            if (op.equals("DADD") || op.equals("DMUL") || op.equals("DFMA") || op.equals("DSETP")) {
                double d = Double.longBitsToDouble(m.bits());
                v = Double.isNaN(d) ? "+QNAN" : Double.isInfinite(d) ? (d > 0 ? "+INF" : "-INF")
                        : new BigDecimal(d).stripTrailingZeros().toPlainString();
            } else if (floatOp(op)) {
                float f = Float.intBitsToFloat((int) m.bits());
                v = Float.isNaN(f) ? "+QNAN" : Float.isInfinite(f) ? (f > 0 ? "+INF" : "-INF")
                        : new BigDecimal(f).stripTrailingZeros().toPlainString();
            } else if (signedImm(op) && (int) m.bits() < 0 && m.bits() <= 0xffffffffL) {
                v = "-0x" + Integer.toHexString(-(int) m.bits());
            } else {
                v = "0x" + Long.toHexString(m.bits());
            }
        } else if (s.value() instanceof CBank c) {
            v = "c[0x" + Integer.toHexString(c.bank()) + "][" + (c.index() == null ? "" : reg(c.index()) + "+") + "0x"
                    + Integer.toHexString(c.offset()) + "]";
        } else if (s.value() instanceof Addr a) {
            StringBuilder sb = new StringBuilder("[");
            String sep = "";
            if (!a.base().isZero()) {
                sb.append(reg(a.base())).append(a.wide() ? ".64" : "");
                sep = "+";
            }
            if (a.uniformBase() != null) {
                sb.append(sep).append(reg(a.uniformBase()));
                sep = "+";
            }
            if (a.offset() != 0 || sep.isEmpty()) {
                sb.append(a.offset() < 0 && !sep.isEmpty() ? "-0x" + Long.toHexString(-a.offset())
                        : sep + "0x" + Long.toHexString(a.offset()));
            }
            v = sb.append(']').toString();
        } else if (s.value() instanceof SpecialReg sr) {
            v = sr.name();
        } else if (s.value() instanceof BlockLabel l) {
            v = "`(.L_x_" + l.block() + ")";
        } else if (s.value() instanceof Sym) {
            v = "0x0";
        } else {
            v = s.value().toString();
        }
        if (s.abs()) {
            v = "|" + v + "|";
        }
        if (s.neg()) {
            v = "-" + v;
        }
        if (s.not()) {
            boolean pred = s.value() instanceof Reg r && r.file().isPredicate();
            v = (pred ? "!" : "~") + v;
        }
        return v;
    }
}
