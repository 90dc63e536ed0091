package org.jptxas.ori.opt;

import java.util.List;
import java.util.function.Function;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Src;

/**
 * Evaluates 32-bit integer instructions whose inputs are known, with the semantics of the SASS instruction the Ori
 * opcode names. Returns null for anything it does not model exactly (carry chains, 64-bit tuples, unusual modes),
 * so callers fold only what is certain.
 */
final class IntFolder {
    private IntFolder() {}

    /** The 32-bit result of the instruction's single R destination, or null. {@code value} gives a source's value. */
    static Long fold(Instr in, Function<Src, Long> value, Function<Src, Boolean> pred) {
        List<Src> s = in.srcs();
        List<String> m = in.mods();
        switch (in.op().name()) {
            case "MOV" -> {
                Src src = OpInfo.movSource(in);
                return src == null ? null : value.apply(src);
            }
            case "IADD3" -> {
                if (s.size() != 3 || m.contains("X")) {
                    return null;
                }
                Long a = value.apply(s.get(0));
                Long b = value.apply(s.get(1));
                Long c = value.apply(s.get(2));
                return a == null || b == null || c == null ? null : (a + b + c) & 0xffffffffL;
            }
            case "IMAD" -> {
                if (s.size() != 3 || m.contains("X") || m.contains("WIDE")) {
                    return null;
                }
                Long a = value.apply(s.get(0));
                Long b = value.apply(s.get(1));
                Long c = value.apply(s.get(2));
                if (a == null || b == null || c == null) {
                    return null;
                }
                if (m.contains("HI")) {
                    // Folded only without an addend: whether the addend joins the 64-bit sum is not modelled.
                    if (c != 0) {
                        return null;
                    }
                    long prod = m.contains("U32") ? a * b : (long) (int) (long) a * (long) (int) (long) b;
                    return (prod >>> 32) & 0xffffffffL;
                }
                return (a * b + c) & 0xffffffffL;
            }
            case "LOP3" -> {
                if (s.size() < 4 || !m.contains("LUT")) {
                    return null;
                }
                Long a = value.apply(s.get(0));
                Long b = value.apply(s.get(1));
                Long c = value.apply(s.get(2));
                Long lut = OpInfo.imm(s.get(3));
                if (a == null || b == null || c == null || lut == null) {
                    return null;
                }
                return lop3(a, b, c, (int) (long) lut);
            }
            case "SHF" -> {
                if (s.size() != 3) {
                    return null;
                }
                Long lo = value.apply(s.get(0));
                Long sh = value.apply(s.get(1));
                Long hi = value.apply(s.get(2));
                if (lo == null || sh == null || hi == null) {
                    return null;
                }
                return shf(m, lo, sh, hi);
            }
            case "SEL" -> {
                if (s.size() != 3) {
                    return null;
                }
                Boolean p = pred.apply(s.get(2));
                if (p == null) {
                    return null;
                }
                return value.apply(s.get(p ? 0 : 1));
            }
            case "LEA" -> {
                if (s.size() != 3 || !m.isEmpty()) {
                    return null;
                }
                Long a = value.apply(s.get(0));
                Long b = value.apply(s.get(1));
                Long sh = value.apply(s.get(2));
                if (a == null || b == null || sh == null || sh > 31) {
                    return null;
                }
                return ((a << sh) + b) & 0xffffffffL;
            }
            case "PRMT" -> {
                if (s.size() != 3 || !m.isEmpty()) {
                    return null;
                }
                Long a = value.apply(s.get(0));
                Long sel = value.apply(s.get(1));
                Long b = value.apply(s.get(2));
                return a == null || sel == null || b == null ? null : prmt(a, sel, b);
            }
            case "BMSK" -> {
                // the clamping form (no .W) bfi's lowering emits: bits [pos, min(32, pos+len)) set
                if (s.size() != 2 || !m.isEmpty()) {
                    return null;
                }
                Long pos = value.apply(s.get(0));
                Long len = value.apply(s.get(1));
                if (pos == null || len == null) {
                    return null;
                }
                long p = pos & 0xff;
                long end = Math.min(32, p + (len & 0xff));
                return p >= 32 ? 0L : ((1L << end) - 1) & ~((1L << p) - 1) & 0xffffffffL;
            }
            case "IABS" -> {
                // |INT_MIN| wraps to INT_MIN, as the hardware's does
                if (s.size() != 1 || !m.isEmpty()) {
                    return null;
                }
                Long a = value.apply(s.get(0));
                return a == null ? null : Math.abs((int) (long) a) & 0xffffffffL;
            }
            case "IMNMX" -> {
                if (s.size() != 3 || !(m.isEmpty() || m.equals(List.of("U32")))) {
                    return null;
                }
                Long a = value.apply(s.get(0));
                Long b = value.apply(s.get(1));
                Boolean min = pred.apply(s.get(2));
                if (a == null || b == null || min == null) {
                    return null;
                }
                int cmp = m.contains("U32") ? Long.compare(a, b) : Integer.compare((int) (long) a, (int) (long) b);
                return (min ? cmp <= 0 : cmp >= 0) ? a : b;
            }
            default -> {
                return null;
            }
        }
    }

    /** The predicate result of {@code ISETP.cmp[.U32].bop p, PT, a, b, pin}, or null. */
    static Boolean foldIsetp(Instr in, Function<Src, Long> value, Function<Src, Boolean> pred) {
        if (!OpInfo.is(in, "ISETP") || in.srcs().size() != 3 || in.mods().contains("EX")) {
            return null;
        }
        Long a = value.apply(in.srcs().get(0));
        Long b = value.apply(in.srcs().get(1));
        Boolean pin = pred.apply(in.srcs().get(2));
        if (a == null || b == null || pin == null) {
            return null;
        }
        Boolean cmp = compare(in.mods(), a, b);
        if (cmp == null) {
            return null;
        }
        return combine(in.mods(), cmp, pin);
    }

    /** The comparison of {@code ISETP}'s modifiers on 32-bit values; null for modes not modelled. */
    static Boolean compare(List<String> mods, long a, long b) {
        boolean unsigned = mods.contains("U32");
        int c = unsigned ? Long.compare(a & 0xffffffffL, b & 0xffffffffL) : Integer.compare((int) a, (int) b);
        for (String mod : mods) {
            switch (mod) {
                case "LT": return c < 0;
                case "LE": return c <= 0;
                case "GT": return c > 0;
                case "GE": return c >= 0;
                case "EQ": return c == 0;
                case "NE": return c != 0;
                case "F": return false;
                case "T": return true;
                default: break;
            }
        }
        return null;
    }

    static Boolean combine(List<String> mods, boolean cmp, boolean pin) {
        if (mods.contains("AND")) {
            return cmp && pin;
        }
        if (mods.contains("OR")) {
            return cmp || pin;
        }
        if (mods.contains("XOR")) {
            return cmp ^ pin;
        }
        return null;
    }

    static long lop3(long a, long b, long c, int lut) {
        long r = 0;
        for (int i = 0; i < 8; i++) {
            if ((lut >> i & 1) != 0) {
                long t = ((i & 4) != 0 ? a : ~a) & ((i & 2) != 0 ? b : ~b) & ((i & 1) != 0 ? c : ~c);
                r |= t;
            }
        }
        return r & 0xffffffffL;
    }

    /** SHF: a funnel shift of {@code hi:lo}; folded only for shift amounts inside the type's width. */
    static Long shf(List<String> m, long lo, long sh, long hi) {
        boolean left = m.contains("L");
        boolean right = m.contains("R");
        boolean wide = m.contains("U64") || m.contains("S64");
        boolean signed = m.contains("S32") || m.contains("S64");
        boolean narrow = m.contains("U32") || m.contains("S32");
        if (left == right || wide == narrow) {
            return null;
        }
        for (String mod : m) {
            if (!List.of("L", "R", "U32", "S32", "U64", "S64", "HI").contains(mod)) {
                return null;
            }
        }
        if (sh < 0 || sh >= (wide ? 64 : 32)) {
            return null;
        }
        long v = ((hi & 0xffffffffL) << 32) | (lo & 0xffffffffL);
        long r = left ? v << sh : signed ? v >> sh : v >>> sh;
        return (m.contains("HI") ? r >>> 32 : r) & 0xffffffffL;
    }

    static long prmt(long a, long sel, long b) {
        long bytes = ((b & 0xffffffffL) << 32) | (a & 0xffffffffL);
        long r = 0;
        for (int i = 0; i < 4; i++) {
            int nib = (int) (sel >> (4 * i)) & 0xf;
            long byteVal = (bytes >>> (8 * (nib & 7))) & 0xff;
            if ((nib & 8) != 0) {
                byteVal = (byteVal & 0x80) != 0 ? 0xff : 0;
            }
            r |= byteVal << (8 * i);
        }
        return r;
    }
}
