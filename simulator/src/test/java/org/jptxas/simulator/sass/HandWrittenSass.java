package org.jptxas.simulator.sass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * Reads hand-written SASS text ({@code @!P0 IMAD.WIDE.U32 R2, R7, 0x4, R2}) straight into a {@link SassOp}, for the
 * few emulator tests whose programs use spellings no encoding table of their target has (HGMMA/QGMMA shapes, UBREV
 * on sm_80, VIADD with a register addend, sm_75 global accesses written as sm_80's): code decoded from a cubin never
 * reaches the emulator this way ({@link TypedOps} builds it from the decoder's typed forms), and every other test
 * assembles its text with the codec's assembler ({@link AssembledText}). Rewriting those programs in their targets'
 * spellings retires this class.
 */
final class HandWrittenSass {
    private HandWrittenSass() {}

    /** {@code code}, one instruction per line (entries may hold several), 16 bytes apart from address 0. */
    static java.util.List<SassOp> ops(java.util.List<String> entries, Map<String, Long> labels) {
        java.util.List<String> code = AssembledText.lines(entries);
        java.util.List<SassOp> ops = new ArrayList<>();
        for (int k = 0; k < code.size(); k++) {
            ops.add(parse(16L * k, code.get(k), labels));
        }
        return ops;
    }

    static SassOp parse(long address, String text, Map<String, Long> labels) {
        String s = text.trim();
        if (s.endsWith(";")) {
            s = s.substring(0, s.length() - 1).trim();
        }
        int guard = 7;
        boolean neg = false, uniform = false;
        if (s.startsWith("@")) {
            int sp = s.indexOf(' ');
            String g = s.substring(1, sp);
            if (g.startsWith("!")) {
                neg = true;
                g = g.substring(1);
            }
            if (g.startsWith("UP")) {
                uniform = true;
                guard = g.equals("UPT") ? 7 : Integer.parseInt(g.substring(2));
            } else {
                guard = g.equals("PT") ? 7 : Integer.parseInt(g.substring(1));
            }
            s = s.substring(sp + 1).trim();
        }
        int sp = s.indexOf(' ');
        String name = sp < 0 ? s : s.substring(0, sp);
        String rest = sp < 0 ? "" : s.substring(sp + 1).trim();
        List<String> words = new ArrayList<>(Arrays.asList(name.split("\\.")));
        String opcode = words.remove(0);
        List<SassOperand> ops = new ArrayList<>();
        for (String o : splitOperands(rest)) {
            String piece = o.trim();
            int tick = piece.indexOf(" `(");
            if (tick > 0) { // RET.REL.NODEC R2 `(kernel): the function the return address is relative to
                piece = piece.substring(0, tick).trim();
            }
            String[] regAndOffset = piece.split("\\s+");
            if (regAndOffset.length == 2 && operand(regAndOffset[0], labels) instanceof SassOperand.Reg r
                    && operand(regAndOffset[1], labels) instanceof SassOperand.Imm off && !off.floating()) {
                // BRX R6 -0xe0, RET.ABS.NODEC R20 0x0: a register pair and an offset, no comma between them
                ops.add(new SassOperand.RegisterOffset(r.index(), off.bits()));
                continue;
            }
            ops.add(operand(piece, labels));
        }
        return new SassOp(address, guard, neg, uniform, opcode, words, ops, text.trim());
    }

    static List<String> splitOperands(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0, start = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '[' || c == '(') {
                depth++;
            } else if (c == ']' || c == ')') {
                depth--;
            } else if (c == ',' && depth == 0) {
                out.add(s.substring(start, i));
                start = i + 1;
            }
        }
        if (!s.substring(start).isBlank()) {
            out.add(s.substring(start));
        }
        return out;
    }

    static SassOperand operand(String raw, Map<String, Long> labels) {
        String o = raw.replace(".reuse", "");
        if (o.startsWith("`(")) {
            String l = o.substring(2, o.length() - 1);
            Long a = labels.get(l);
            // A label of another function (a call target) stays text: executing it stops by name.
            return a == null ? new SassOperand.Other(o) : new SassOperand.Target(a);
        }
        boolean cNeg = false, cAbs = false;
        if (o.startsWith("-c[") || o.startsWith("-|c[")) {
            cNeg = true;
            o = o.substring(1);
        }
        if (o.startsWith("|c[") && o.endsWith("|")) {
            cAbs = true;
            o = o.substring(1, o.length() - 1);
        }
        if (o.startsWith("c[")) {
            int close = o.indexOf(']');
            if (close < 0 || !o.startsWith("[", close + 1) || !o.endsWith("]")) {
                // nvdisasm's spellings of operands the emulator does not model (c[0x2] [0x0].F32, .SIGN): an
                // operand that stops the instruction when it runs, not a cubin that cannot load
                return new SassOperand.Other(raw);
            }
            int bank = (int) number(o.substring(2, close));
            String inner = o.substring(close + 2, o.length() - 1);
            int base = -1;
            long off = 0;
            for (String part : inner.split("\\+")) {
                part = part.trim();
                if (part.equals("RZ")) {
                    base = -1;
                } else if (part.startsWith("R")) {
                    base = Integer.parseInt(part.substring(1));
                } else if (!part.isEmpty()) {
                    off += number(part);
                }
            }
            return new SassOperand.CBank(bank, base, off, cNeg, cAbs);
        }
        if (o.startsWith("desc[") || o.startsWith("[")) {
            int ureg = -1;
            String body = o;
            if (o.startsWith("desc[")) {
                int close = o.indexOf(']');
                body = o.substring(close + 1);
            }
            String inner = body.substring(1, body.length() - 1);
            int reg = -1;
            int scale = 1;
            boolean wide = false, zeroExtended = false;
            long off = 0;
            for (String part : inner.replace("+-", "+-").split("\\+")) {
                part = part.trim();
                if (part.isEmpty()) {
                    continue;
                }
                if (part.startsWith("UR")) {
                    ureg = part.equals("URZ") ? -1 : Integer.parseInt(part.substring(2));
                } else if (part.startsWith("R")) {
                    String r = part;
                    for (String suffix : new String[] {".64", ".U32", ".X4", ".X8", ".X16"}) {
                        if (r.endsWith(suffix)) {
                            wide |= suffix.equals(".64");
                            zeroExtended |= suffix.equals(".U32");
                            scale = suffix.startsWith(".X") ? Integer.parseInt(suffix.substring(2)) : scale;
                            r = r.substring(0, r.length() - suffix.length());
                        }
                    }
                    reg = r.equals("RZ") ? -1 : Integer.parseInt(r.substring(1));
                } else {
                    off += number(part);
                }
            }
            return new SassOperand.Mem(reg, wide, scale, ureg, off, zeroExtended);
        }
        if (o.startsWith("SR")) {
            return new SassOperand.Special(o);
        }
        if (o.matches("B\\d+")) {
            return new SassOperand.Barrier(Integer.parseInt(o.substring(1)));
        }
        if (o.matches("SB\\d+")) {
            return new SassOperand.Scoreboard(Integer.parseInt(o.substring(2)));
        }
        boolean not = o.startsWith("!");
        String p = not ? o.substring(1) : o;
        if (p.equals("PT") || p.matches("P[0-6]")) {
            return new SassOperand.Pred(p.equals("PT") ? 7 : p.charAt(1) - '0', not);
        }
        if (p.equals("UPT") || p.matches("UP[0-6]")) {
            return new SassOperand.UPred(p.equals("UPT") ? 7 : p.charAt(2) - '0', not);
        }
        boolean negate = false, abs = false, invert = false;
        String r = o;
        if (r.startsWith("-") && (r.startsWith("-R") || r.startsWith("-|") || r.startsWith("-UR"))) {
            negate = true;
            r = r.substring(1);
        }
        if (r.startsWith("~")) {
            invert = true;
            r = r.substring(1);
        }
        int closingBar = r.startsWith("|") ? r.indexOf('|', 1) : -1;
        if (closingBar > 0) {
            // |R4| and |R4|.H0_H0 (nvdisasm prints a half selector after the bars)
            abs = true;
            r = r.substring(1, closingBar) + r.substring(closingBar + 1);
        }
        String suffix = "";
        int dot = r.indexOf('.');
        if ((r.startsWith("R") || r.startsWith("UR")) && dot > 0) {
            suffix = r.substring(dot + 1).replace("reuse", "").replace("..", ".");
            if (suffix.startsWith(".")) {
                suffix = suffix.substring(1);
            }
            if (suffix.endsWith(".")) {
                suffix = suffix.substring(0, suffix.length() - 1);
            }
            r = r.substring(0, dot);
        }
        if (r.equals("RZ") || r.matches("R\\d+")) {
            return new SassOperand.Reg(r.equals("RZ") ? 255 : Integer.parseInt(r.substring(1)), negate, abs, invert, suffix);
        }
        if (r.equals("URZ") || r.matches("UR\\d+")) {
            return new SassOperand.UReg(r.equals("URZ") ? 63 : Integer.parseInt(r.substring(2)), negate, invert);
        }
        return immediate(o);
    }

    static SassOperand immediate(String o) {
        String t = o.trim();
        boolean neg = t.startsWith("-");
        String u = neg || t.startsWith("+") ? t.substring(1) : t;
        if (u.startsWith("|") && u.endsWith("|")) {
            u = u.substring(1, u.length() - 1);
        }
        if (u.startsWith("0x")) {
            long v = Long.parseUnsignedLong(u.substring(2), 16);
            return new SassOperand.Imm(neg ? -v : v, neg ? -v : v, false);
        }
        SassOperand value = TypedOps.decimal(neg ? "-" + u : u);
        // nvdisasm prints integer immediates in hex; decimal text is a floating-point value ("1" is 1.0).
        return value != null ? value : new SassOperand.Other(o);
    }

    static long number(String s) {
        s = s.trim();
        boolean neg = s.startsWith("-");
        if (neg) {
            s = s.substring(1);
        }
        long v = s.startsWith("0x") ? Long.parseUnsignedLong(s.substring(2), 16) : Long.parseLong(s);
        return neg ? -v : v;
    }
}
