package org.jptxas.simulator.sass;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.sass.LabelNamer;
import org.jptxas.sass.Lexeme;
import org.jptxas.sass.SassForm;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassLexer;
import org.jptxas.sass.SassOperands;
import org.jptxas.sass.SassPrinter;
import org.jptxas.sass.SassSlot;
import org.jptxas.sass.SlotKind;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * The emulator's {@link SassOp} of a decoded instruction, from its typed form: the guard, mnemonic and operand layout
 * of the form ({@link SassForm#operands()}, computed once per form from the tables) and the decoder's field values.
 * Registers, addresses and immediates come from the field values (immediates with their exact bits, NaN payloads
 * included); only the form's own marks around them ({@code -|}, {@code .H0_H0}, {@code [}, {@code .64}) and its fixed
 * operands (table data, read with the codec's lexer) are text. The instruction's printed text is kept for messages.
 */
final class TypedOps {
    private TypedOps() {}

    /** The instruction {@code inst} at {@code address}; {@code labels} names branch targets in {@code text}. */
    static SassOp of(SassInstruction.Known inst, long address, String text, LabelNamer labels) {
        SassForm form = inst.form();
        SassOperands layout = form.operands();
        int guard = 7;
        boolean uniform = false;
        boolean negated = layout.guardNegated();
        if (layout.guardSlot() >= 0) {
            Atom g = atom(inst, layout.guardSlot(), address);
            if (g instanceof Atom.Reg r) {
                guard = r.number();
                uniform = r.kind() == SlotKind.UPRED;
            }
        }
        List<SassOperand> ops = new ArrayList<>(layout.operands().size());
        for (SassOperands.Operand o : layout.operands()) {
            SassOperand typed = operand(inst, o, address);
            ops.add(typed != null ? typed : new SassOperand.Other(SassPrinter.operandText(inst, o, address, labels)));
        }
        List<String> words = List.of(form.mnemonic().split("\\."));
        return new SassOp(address, guard, negated, uniform, words.get(0), words.subList(1, words.size()), ops, text.trim());
    }

    /** One slot's value, typed. */
    private sealed interface Atom {
        /** A register of a file ({@link SlotKind#GPR}, {@link SlotKind#PRED}, {@link SlotKind#BAR}, ...). */
        record Reg(SlotKind kind, int number) implements Atom {}

        /** A hex number, signed as printed. */
        record Hex(long value) implements Atom {}

        /** The bits of a floating-point field ({@link SlotKind#F32}, {@link SlotKind#F64HI}, {@link SlotKind#F16}). */
        record Float(SlotKind kind, long bits) implements Atom {}

        /** A fixed decimal operand of the form ({@code 0.25}, {@code +INF}), as the table writes it. */
        record Decimal(String text) implements Atom {}

        /** A branch target address. */
        record Label(long target) implements Atom {}
    }

    private static Atom atom(SassInstruction.Known inst, int slot, long address) {
        SassSlot s = inst.form().slot(slot);
        if (s instanceof SassSlot.Literal lit) {
            return literal(lit.text());
        }
        SassSlot.Field f = (SassSlot.Field) s;
        long v = inst.values()[slot];
        int width = f.field().width();
        return switch (f.kind()) {
            case GPR, UGPR, PRED, UPRED, BAR, SB -> new Atom.Reg(f.kind(), (int) v);
            case HEX -> new Atom.Hex(v << f.shift());
            case SHEX, SHEX_PLUS -> new Atom.Hex((width >= 64 ? v : (v << (64 - width)) >> (64 - width)) << f.shift());
            case F32, F64HI, F16 -> new Atom.Float(f.kind(), v);
            case LABEL -> new Atom.Label(address + 16 + ((width >= 64 ? v : (v << (64 - width)) >> (64 - width)) << f.shift()));
        };
    }

    /** A fixed operand of the form, through the codec's lexer (the assembler's reading of the same text). */
    private static Atom literal(String text) {
        List<Lexeme> lexemes = SassLexer.lex("L " + text.strip()).lexemes();
        if (lexemes.size() != 1) {
            return new Atom.Decimal(text.strip());
        }
        Lexeme x = lexemes.get(0);
        return switch (x.type()) {
            case REG -> new Atom.Reg(SlotKind.forPrefix(x.prefix()), (int) x.number());
            case HEX -> new Atom.Hex(x.number());
            default -> new Atom.Decimal(x.text().strip());
        };
    }

    /** The operand, or null for one the emulator does not model (kept as its text, {@link SassOperand.Other}). */
    private static SassOperand operand(SassInstruction.Known inst, SassOperands.Operand o, long address) {
        List<String> texts = o.texts();
        int n = o.slots().size();
        String lead = texts.get(0);
        if (n == 0) {
            return lead.startsWith("SR") ? new SassOperand.Special(lead) : null;
        }
        List<Atom> atoms = new ArrayList<>(n);
        for (int slot : o.slots()) {
            atoms.add(atom(inst, slot, address));
        }
        if (lead.startsWith("c[") && n >= 2 && texts.get(1).equals("] [")
                && (texts.get(n).equals("].SIGN") || texts.get(n).equals("].F32"))) {
            // PLOP3's c[0x2] [0x0].SIGN, HADD2's c[0x2] [0x0].F32: nvdisasm spaces the brackets of a constant read
            // for its sign or as an f32
            List<String> plain = new ArrayList<>(texts);
            plain.set(1, "][");
            plain.set(n, "]");
            SassOperand c = constant(plain, atoms);
            if (!(c instanceof SassOperand.CBank bank)) {
                return null;
            }
            return texts.get(n).equals("].SIGN") ? new SassOperand.SignBit(bank)
                    : new SassOperand.F32Constant(bank);
        }
        if (lead.startsWith("c[") || lead.startsWith("-c[") || lead.startsWith("|c[") || lead.startsWith("-|c[")) {
            return constant(texts, atoms);
        }
        if (lead.startsWith("[") || lead.startsWith("desc[")) {
            return memory(texts, atoms);
        }
        Atom first = atoms.get(0);
        String after = texts.get(1);
        if (n == 2 && first instanceof Atom.Reg r && r.kind() == SlotKind.GPR && lead.isEmpty() && after.equals(" ")
                && atoms.get(1) instanceof Atom.Label && texts.get(2).isEmpty()) {
            // BRX R6 `(.L_x): the register holds the target; the label only names the jump table for nvdisasm
            return new SassOperand.Reg(r.number(), false, false, false, "");
        }
        if (n == 2 && first instanceof Atom.Reg r && r.kind() == SlotKind.GPR && lead.isEmpty() && after.equals(" ")
                && atoms.get(1) instanceof Atom.Hex h && texts.get(2).isEmpty()) {
            // BRX R6 -0xe0, RET.ABS.NODEC R20 0x0: a register pair and an offset, no comma between them
            return new SassOperand.RegisterOffset(r.number(), h.value());
        }
        if (n == 1 && first instanceof Atom.Reg r && lead.isEmpty() && after.isEmpty()
                && (r.kind() == SlotKind.BAR || r.kind() == SlotKind.SB)) {
            return r.kind() == SlotKind.BAR ? new SassOperand.Barrier(r.number()) : new SassOperand.Scoreboard(r.number());
        }
        if (n == 1 && first instanceof Atom.Label l && lead.isEmpty() && after.isEmpty()) {
            return new SassOperand.Target(l.target());
        }
        if (first instanceof Atom.Reg r && (r.kind() == SlotKind.PRED || r.kind() == SlotKind.UPRED)) {
            if (n != 1 || !after.isEmpty() || !(lead.isEmpty() || lead.equals("!"))) {
                return null;
            }
            boolean not = lead.equals("!");
            return r.kind() == SlotKind.PRED ? new SassOperand.Pred(r.number(), not) : new SassOperand.UPred(r.number(), not);
        }
        if (first instanceof Atom.Reg r && (r.kind() == SlotKind.GPR || r.kind() == SlotKind.UGPR)) {
            return register(r, lead, suffixText(inst, o, 1));
        }
        if (n == 1 && lead.isEmpty() && after.isEmpty()) {
            return immediate(first);
        }
        return null;
    }

    /**
     * The text after slot number {@code from - 1} of the operand: its texts and fixed operands ({@code .«B3»}), or
     * null when a field follows (not a suffix).
     */
    private static String suffixText(SassInstruction.Known inst, SassOperands.Operand o, int from) {
        StringBuilder sb = new StringBuilder(o.texts().get(from));
        for (int k = from; k < o.slots().size(); k++) {
            if (!(inst.form().slot(o.slots().get(k)) instanceof SassSlot.Literal lit)) {
                return null;
            }
            sb.append(lit.text()).append(o.texts().get(k + 1));
        }
        return sb.toString();
    }

    /** {@code R2}, {@code -|R2|.H0_H0}, {@code ~UR4}, {@code R2.reuse.COL}: marks before, selector suffixes after. */
    private static SassOperand register(Atom.Reg r, String lead, String after) {
        if (after == null) {
            return null;
        }
        boolean negate = lead.startsWith("-");
        String marks = negate ? lead.substring(1) : lead;
        boolean invert = marks.startsWith("~");
        marks = invert ? marks.substring(1) : marks;
        boolean abs = marks.equals("|");
        if (!(marks.isEmpty() || abs) || abs != after.startsWith("|")) {
            return null;
        }
        String rest = abs ? after.substring(1) : after;
        String suffix = "";
        if (!rest.isEmpty()) {
            if (!rest.startsWith(".")) {
                return null;
            }
            suffix = rest.substring(1).replace("reuse", "").replace("..", ".");
            suffix = suffix.startsWith(".") ? suffix.substring(1) : suffix;
            suffix = suffix.endsWith(".") ? suffix.substring(0, suffix.length() - 1) : suffix;
        }
        if (r.kind() == SlotKind.GPR) {
            return new SassOperand.Reg(r.number(), negate, abs, invert, suffix);
        }
        SassOperand.UReg u = new SassOperand.UReg(r.number(), negate, invert);
        return switch (suffix) {
            case "SIGN" -> new SassOperand.SignBit(u);
            case "B1", "B2", "B3" -> new SassOperand.UByte(u, suffix.charAt(1) - '0');
            default -> u;
        };
    }

    /**
     * An immediate: hex numbers as their two's complement bits; floating-point fields as their value, except a NaN,
     * which keeps its exact bits (an FSEL of 0xfff00000, the high word of -INF in a selected f64, is not a canonical
     * NaN): read as those bits by every operand reader.
     */
    private static SassOperand immediate(Atom a) {
        if (a instanceof Atom.Hex h) {
            return new SassOperand.Imm(h.value(), h.value(), false);
        }
        if (a instanceof Atom.Float f) {
            double d = switch (f.kind()) {
                case F32 -> java.lang.Float.intBitsToFloat((int) f.bits());
                case F64HI -> Double.longBitsToDouble(f.bits() << 32);
                default -> SmallFloats.halfToFloat((int) f.bits());
            };
            if (Double.isNaN(d) && f.kind() != SlotKind.F16) {
                return new SassOperand.Imm(f.bits() & 0xffffffffL, Double.NaN, false);
            }
            // an f16 NaN immediate is read as a value, the sign kept (the f16 operand readers convert values)
            return floating(Double.isNaN(d) ? ((f.bits() & 0x8000) != 0 ? NEGATIVE_NAN : Double.NaN) : d);
        }
        if (a instanceof Atom.Decimal dec) {
            return decimal(dec.text());
        }
        return null;
    }

    /**
     * A floating-point operand written in decimal as nvdisasm prints it ({@code 0.25}, {@code -INF}, {@code +QNAN}),
     * as its value; null for other text.
     */
    static SassOperand decimal(String text) {
        boolean neg = text.startsWith("-");
        String u = neg || text.startsWith("+") ? text.substring(1) : text;
        double d;
        switch (u) {
            case "INF" -> d = Double.POSITIVE_INFINITY;
            case "QNAN", "SNAN", "NAN" -> d = Double.NaN;
            default -> {
                try {
                    d = Double.parseDouble(u);
                } catch (NumberFormatException e) {
                    return null;
                }
            }
        }
        return floating(!neg ? d : Double.isNaN(d) ? NEGATIVE_NAN : -d);
    }

    /** The canonical quiet NaN with its sign bit set ({@code -QNAN}). */
    private static final double NEGATIVE_NAN = Double.longBitsToDouble(0xfff8000000000000L);

    private static SassOperand floating(double d) {
        return new SassOperand.Imm(Double.doubleToRawLongBits(d), d, true);
    }

    /** {@code c[0x0][0x160]}, {@code -c[0x3][R2+0x10]}, {@code |c[0x0][0x170]|}: base register -1 when absent. */
    private static SassOperand constant(List<String> texts, List<Atom> atoms) {
        String lead = texts.get(0);
        boolean negate = lead.startsWith("-");
        boolean abs = lead.contains("|");
        String tail = texts.get(atoms.size());
        if (!(atoms.get(0) instanceof Atom.Hex bank) || atoms.size() < 2 || !texts.get(1).equals("][")
                || !tail.equals(abs ? "]|" : "]")) {
            return null;
        }
        int base = -1;
        long offset = 0;
        for (int k = 1; k < atoms.size(); k++) {
            if (k > 1 && !texts.get(k).isEmpty() && !texts.get(k).equals("+")) {
                return null;
            }
            if (atoms.get(k) instanceof Atom.Reg r && r.kind() == SlotKind.GPR) {
                base = r.number() == 255 ? -1 : r.number();
            } else if (atoms.get(k) instanceof Atom.Hex h) {
                offset += h.value();
            } else {
                return null; // c[0x2][UR4]: a uniform base the emulator does not model
            }
        }
        return new SassOperand.CBank((int) bank.value(), base, offset, negate, abs);
    }

    /**
     * {@code [R2.64+0x10]}, {@code desc[UR4][R2.64]} (the descriptor is not part of the address), {@code [UR4+0x8]},
     * {@code [R2.X4+UR4]}, {@code [R6.U32+UR4]}, {@code [0x10]}.
     */
    private static SassOperand memory(List<String> texts, List<Atom> atoms) {
        int from = texts.get(0).startsWith("desc[") ? 1 : 0;
        if (from == 1 && !texts.get(1).equals("][")) {
            return null;
        }
        if (!texts.get(atoms.size()).endsWith("]")) {
            return null;
        }
        int reg = -1, ureg = -1, scale = 1;
        boolean wide = false, zeroExtended = false;
        long offset = 0;
        for (int k = from; k < atoms.size(); k++) {
            String after = texts.get(k + 1);
            after = k + 1 == atoms.size() ? after.substring(0, after.length() - 1) : after;
            after = after.endsWith("+") ? after.substring(0, after.length() - 1) : after;
            Atom a = atoms.get(k);
            if (a instanceof Atom.Reg r && r.kind() == SlotKind.GPR) {
                reg = r.number() == 255 ? -1 : r.number();
                switch (after) {
                    case "" -> { }
                    case ".64" -> wide = true;
                    case ".U32" -> zeroExtended = true;
                    case ".X4", ".X8", ".X16" -> scale = Integer.parseInt(after.substring(2));
                    default -> {
                        return null;
                    }
                }
            } else if (a instanceof Atom.Reg r && r.kind() == SlotKind.UGPR && after.isEmpty()) {
                ureg = r.number() == 63 ? -1 : r.number();
            } else if (a instanceof Atom.Hex h && after.isEmpty()) {
                offset += h.value();
            } else {
                return null;
            }
        }
        return new SassOperand.Mem(reg, wide, scale, ureg, offset, zeroExtended);
    }
}
