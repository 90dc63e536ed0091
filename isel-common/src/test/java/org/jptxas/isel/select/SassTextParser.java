package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;

/**
 * Test helper: nvdisasm text back into a {@link SelectedInstr}, for the operand kinds Ori has (no half-word
 * swizzles, branch targets or relocations: those give empty).
 */
final class SassTextParser {
    private static final Pattern REG = Pattern.compile("(UR|UP|R|P)(\\d+|Z|T)");
    private static final Pattern ADDR = Pattern.compile(
            "\\[(?:(U?R(?:\\d+|Z))(\\.64)?)?(?:\\+?(UR(?:\\d+|Z)))?(?:\\+?(-?0x[0-9a-f]+))?\\]");
    private static final Pattern CBANK = Pattern.compile("c\\[0x([0-9a-f]+)\\]\\[(?:(U?R\\d+|U?RZ)\\+?)?(?:0x([0-9a-f]+))?\\]");

    private SassTextParser() {}

    static Optional<SelectedInstr> parse(String text) {
        String t = text.replace(".reuse", "").strip();
        if (t.contains("`(") || t.contains("@lo") || t.contains("@hi")) {
            return Optional.empty();
        }
        Guard guard = Guard.ALWAYS;
        if (t.startsWith("@")) {
            int sp = t.indexOf(' ');
            String g = t.substring(1, sp);
            boolean neg = g.startsWith("!");
            Reg p = reg(neg ? g.substring(1) : g);
            if (p == null) {
                return Optional.empty();
            }
            guard = new Guard(p, neg);
            t = t.substring(sp + 1);
        }
        int sp = t.indexOf(' ');
        String mnemonic = sp < 0 ? t : t.substring(0, sp);
        List<Src> ops = new ArrayList<>();
        int descriptor = -1;
        if (sp >= 0) {
            for (String raw : t.substring(sp + 1).split(",")) {
                String o = raw.strip();
                if (o.startsWith("desc[")) {
                    int close = o.indexOf(']');
                    Reg d = reg(o.substring(5, close));
                    if (d == null) {
                        return Optional.empty();
                    }
                    descriptor = ops.size();
                    ops.add(Src.of(Reg.phys(RegFile.UR, d.index(), 2)));
                    o = o.substring(close + 1);
                }
                Src s = operand(o, mnemonic);
                if (s == null) {
                    return Optional.empty();
                }
                ops.add(s);
            }
        }
        return Optional.of(new SelectedInstr(guard, mnemonic, ops, descriptor, 0));
    }

    private static Src operand(String o, String mnemonic) {
        boolean not = false, neg = false, abs = false;
        if (o.startsWith("!") || o.startsWith("~")) {
            not = true;
            o = o.substring(1);
        }
        if (o.startsWith("-") && !(o.length() > 1 && (Character.isDigit(o.charAt(1)) || o.startsWith("-INF")
                || o.startsWith("-QNAN")))) {
            neg = true;
            o = o.substring(1);
        }
        if (o.startsWith("|") && o.endsWith("|") && o.length() > 2) {
            abs = true;
            o = o.substring(1, o.length() - 1);
        }
        Operand v = value(o, mnemonic);
        return v == null ? null : new Src(v, neg, abs, not);
    }

    private static Operand value(String o, String mnemonic) {
        Reg r = reg(o);
        if (r != null) {
            return r;
        }
        if (o.startsWith("SR_")) {
            return new SpecialReg(o);
        }
        Matcher a = ADDR.matcher(o);
        if (a.matches()) {
            Reg base = a.group(1) == null ? Reg.RZ : reg(a.group(1));
            if (base != null && a.group(2) != null) {
                base = Reg.phys(base.file(), base.index(), 2);
            }
            Reg ub = a.group(3) == null ? null : reg(a.group(3));
            long off = a.group(4) == null ? 0 : Long.decode(a.group(4));
            if (base == null || (a.group(1) == null && ub != null)) {
                return null;
            }
            return new Addr(base, ub, off);
        }
        Matcher c = CBANK.matcher(o);
        if (c.matches()) {
            Reg idx = c.group(2) == null ? null : reg(c.group(2));
            int off = c.group(3) == null ? 0 : Integer.parseInt(c.group(3), 16);
            return new CBank(Integer.parseInt(c.group(1), 16), off, idx);
        }
        if (o.matches("-?0x[0-9a-f]+")) {
            long v = Long.decode(o);
            return new Imm(v < 0 ? v & 0xffffffffL : v);
        }
        if (o.matches("[-+]?(\\d+(\\.\\d+)?(e[-+]\\d+)?|INF|QNAN)")) {
            if (mnemonic.startsWith("H") || o.contains("QNAN")) {
                return null;
            }
            double d = o.endsWith("INF") ? (o.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY)
                    : Double.parseDouble(o);
            if (mnemonic.startsWith("D")) {
                long bits = Double.doubleToRawLongBits(d);
                return (bits & 0xffffffffL) == 0 ? new Imm(bits) : null;
            }
            float f = (float) d;
            return (double) f == d || Double.isInfinite(d) ? Imm.ofFloat(f) : null;
        }
        return null;
    }

    private static Reg reg(String s) {
        Matcher m = REG.matcher(s);
        if (!m.matches()) {
            return null;
        }
        RegFile f = switch (m.group(1)) {
            case "R" -> RegFile.R;
            case "UR" -> RegFile.UR;
            case "P" -> RegFile.P;
            default -> RegFile.UP;
        };
        String n = m.group(2);
        if (n.equals("Z") || n.equals("T")) {
            if ((n.equals("Z")) == f.isPredicate()) {
                return null;
            }
            return Reg.phys(f, f.count(), 1);
        }
        int i = Integer.parseInt(n);
        return i >= f.count() ? null : Reg.phys(f, i, 1);
    }
}
