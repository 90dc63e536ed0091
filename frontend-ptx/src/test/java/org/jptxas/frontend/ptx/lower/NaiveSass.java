package org.jptxas.frontend.ptx.lower;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassIsa;
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
import org.jptxas.spi.TestTargets;

/**
 * A stand-in for register allocation plus the SASS printer, for tests only: virtual registers get physical ones by
 * a fixed, alignment-respecting formula (values collide, which does not matter for checking that each instruction
 * has an sm_80 encoding), and each instruction prints as nvdisasm would print it, following the operand shapes the
 * lowerers emit ({@code docs/ori.md}).
 */
final class NaiveSass {
    private static final SassIsa SM80 = TestTargets.of("sm_80").isa();
    private final SassAssembler assembler = new SassAssembler(SM80);

    /**
     * True for a failure that may come from the SASS tables rather than the text. The sm_80 tables are learnt from
     * probe kernels: a form seen with fixed registers ("operand 1 must be R5 in this form"), a modifier combination
     * or operand kind never produced by a probe is not encodable although the hardware has it. So only an unknown
     * mnemonic counts as a lowering bug here; the rest is counted and printed (the lowerers' modifier spellings
     * were checked against ptxas's output by hand).
     */
    static boolean tableGap(String failure) {
        String mnemonic = failure.replaceFirst("^@!?P\\d+ ", "").split("[ .]", 2)[0];
        return KNOWN_MNEMONICS.contains(mnemonic);
    }

    /**
     * Mnemonics (first word) that have at least one sm_80 form in the tables, or an sm_90 one: Hopper-only
     * instructions (WARPGROUP, HGMMA, SYNCS, UTMALDG, ...) are lowered only for sm_90 targets, whose files this
     * sm_80 check still reads.
     */
    private static final java.util.Set<String> KNOWN_MNEMONICS = java.util.stream.Stream.concat(SM80.forms().stream(),
            TestTargets.of("sm_90").isa().forms().stream()).map(f -> f.mnemonic().split("\\.", 2)[0])
            .collect(java.util.stream.Collectors.toUnmodifiableSet());

    private final org.jptxas.isel.select.InstructionSelector selector =
            org.jptxas.isel.select.InstructionSelector.of(TestTargets.of("sm_80"));

    /**
     * Allocates naively, selects and prints each instruction with isel's sm_80 matchers and {@code SassTextPrinter}
     * (which only returns text the sm_80 assembler encodes); returns the failures as "ori: reason".
     */
    List<String> check(OriFunction f) {
        List<String> failures = new ArrayList<>();
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                Instr phys = allocate(in);
                try {
                    selector.emit(phys, id -> ".L_x_" + id);
                } catch (RuntimeException e) {
                    failures.add(text(phys) + "  <-  " + in + ": " + e.getMessage());
                }
            }
        }
        return failures;
    }

    /** The instruction with every virtual register replaced by its naive physical register. */
    static Instr allocate(Instr in) {
        List<Reg> dsts = new ArrayList<>();
        for (Reg d : in.dsts()) {
            dsts.add(phys(d));
        }
        List<Src> srcs = new ArrayList<>();
        for (Src s : in.srcs()) {
            org.jptxas.ori.ir.Operand v = s.value();
            if (v instanceof Reg r) {
                v = phys(r);
            } else if (v instanceof Addr a) {
                v = new Addr(phys(a.base()), a.uniformBase() == null ? null : phys(a.uniformBase()), a.offset());
            } else if (v instanceof CBank c && c.index() != null) {
                v = new CBank(c.bank(), c.offset(), phys(c.index()));
            }
            srcs.add(new Src(v, s.neg(), s.abs(), s.not()));
        }
        org.jptxas.ori.ir.Guard g = in.guard().isAlways() ? in.guard()
                : new org.jptxas.ori.ir.Guard(phys(in.guard().predicate()), in.guard().negated());
        return new Instr(in.op(), in.mods(), dsts, srcs, g, in.line());
    }

    static Reg phys(Reg r) {
        if (!r.virtual()) {
            return r;
        }
        int part = r.isPart() ? r.part() : 0;
        int width = r.width();
        return switch (r.file()) {
            case R -> Reg.phys(r.file(), (4 * r.index()) % 248 + part, width);
            case UR -> Reg.phys(r.file(), (4 * r.index()) % 60 + part, width);
            default -> Reg.phys(r.file(), r.index() % 7, 1);
        };
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
            if (!a.base().isZero() || (a.uniformBase() == null && !op.startsWith("LDG") && !op.startsWith("STG"))) {
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
