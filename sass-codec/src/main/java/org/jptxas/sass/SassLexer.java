package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits nvdisasm-syntax instruction text into literal pieces and {@link Lexeme}s. The mnemonic (with its
 * modifiers) is always literal; the guard predicate and the operands carry lexemes. No regular expressions: this
 * runs once per assembled line.
 */
public final class SassLexer {
    /** The result: {@code pieces.size() == lexemes.size() + 1}. */
    public record Lexed(List<String> pieces, List<Lexeme> lexemes) {
        /** The pieces joined with {@code "{}"} for every lexeme: the lookup key of a form. */
        public String skeleton() {
            return String.join("{}", pieces);
        }
    }

    private SassLexer() {}

    /** Collapses runs of blanks to one space and trims, as the differential comparison does. */
    public static String normalize(String text) {
        StringBuilder sb = new StringBuilder(text.length());
        boolean space = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == ' ' || c == '\t') {
                space = sb.length() > 0;
            } else {
                if (space) {
                    sb.append(' ');
                }
                space = false;
                sb.append(c);
            }
        }
        return sb.toString();
    }

    public static Lexed lex(String normalized) {
        List<String> pieces = new ArrayList<>();
        List<Lexeme> lexemes = new ArrayList<>();
        StringBuilder lit = new StringBuilder();
        String s = normalized;
        int n = s.length();
        int i = 0;
        // Guard: "@P0 " or "@!UP1 ".
        if (i < n && s.charAt(i) == '@') {
            lit.append('@');
            i++;
            if (i < n && s.charAt(i) == '!') {
                lit.append('!');
                i++;
            }
            int end = s.indexOf(' ', i);
            if (end < 0) {
                end = n;
            }
            Lexeme reg = register(s.substring(i, end));
            if (reg != null) {
                pieces.add(lit.toString());
                lit.setLength(0);
                lexemes.add(reg);
            } else {
                lit.append(s, i, end);
            }
            i = end;
            if (i < n) {
                lit.append(' ');
                i++;
            }
        }
        // Mnemonic: literal up to the first space.
        int sp = s.indexOf(' ', i);
        int mEnd = sp < 0 ? n : sp;
        lit.append(s, i, mEnd);
        i = mEnd;
        while (i < n) {
            char c = s.charAt(i);
            if (c == '`' && i + 1 < n && s.charAt(i + 1) == '(') {
                int close = s.indexOf(')', i);
                if (close < 0) {
                    lit.append(s, i, n);
                    break;
                }
                pieces.add(lit.toString());
                lit.setLength(0);
                lexemes.add(new Lexeme(Lexeme.Type.LABEL, s.substring(i, close + 1), null, 0));
                i = close + 1;
            } else if (isIdentStart(c)) {
                int j = i + 1;
                while (j < n && isIdentPart(s.charAt(j))) {
                    j++;
                }
                String ident = s.substring(i, j);
                // Only whole operands or operands followed by '.', ']', '|', ',', ' ', '+' are registers.
                Lexeme reg = (i > 0 && isIdentPart(s.charAt(i - 1))) ? null : register(ident);
                if (reg != null) {
                    pieces.add(lit.toString());
                    lit.setLength(0);
                    lexemes.add(reg);
                } else {
                    lit.append(ident);
                }
                i = j;
            } else if (isDigit(c) && !(i > 0 && (isIdentPart(s.charAt(i - 1)) || s.charAt(i - 1) == '.'))) {
                int j = number(s, i);
                pieces.add(lit.toString());
                lit.setLength(0);
                lexemes.add(numberLexeme(s.substring(i, j)));
                i = j;
            } else if (c == '+' && s.startsWith("-0x", i + 1)) {
                int j = number(s, i + 2);
                pieces.add(lit.toString());
                lit.setLength(0);
                String t = s.substring(i, j);
                lexemes.add(new Lexeme(Lexeme.Type.HEX, t, null, -hex(t.substring(4), t)));
                i = j;
            } else if ((c == '+' || c == '-') && i + 1 < n && (isDigit(s.charAt(i + 1)) || s.startsWith("INF", i + 1)
                    || s.startsWith("QNAN", i + 1) || s.startsWith("SNAN", i + 1))) {
                int j;
                if (isDigit(s.charAt(i + 1))) {
                    j = number(s, i + 1);
                } else {
                    j = i + 1 + (s.startsWith("INF", i + 1) ? 3 : 4);
                    // jptxas's own assembly text may name a NaN's bits, -QNAN(0xffc00001): nvdisasm's QNAN keeps none
                    if (s.startsWith("(0x", j) && s.indexOf(')', j) > 0) {
                        j = s.indexOf(')', j) + 1;
                    }
                    // nvdisasm writes a blank after INF/QNAN/SNAN ("+INF , PT"): it belongs to the value's text.
                    if (j < n && s.charAt(j) == ' ') {
                        j++;
                    }
                }
                pieces.add(lit.toString());
                lit.setLength(0);
                lexemes.add(numberLexeme(s.substring(i, j)));
                i = j;
            } else {
                lit.append(c);
                i++;
            }
        }
        pieces.add(lit.toString());
        return new Lexed(pieces, lexemes);
    }

    private static Lexeme numberLexeme(String t) {
        int k = (t.charAt(0) == '+' || t.charAt(0) == '-') ? 1 : 0;
        if (t.startsWith("0x", k)) {
            long v = hex(t.substring(k + 2), t);
            return new Lexeme(Lexeme.Type.HEX, t, null, t.charAt(0) == '-' ? -v : v);
        }
        return new Lexeme(Lexeme.Type.DEC, t, null, 0);
    }

    /** The value of hexadecimal digits; text that is not a 64-bit number ("0x", 17 digits) cannot be assembled. */
    private static long hex(String digits, String text) {
        if (digits.isEmpty() || digits.length() > 16) {
            throw new SassAssembler.AssemblyException("not a 64-bit hexadecimal number: '" + text + "'");
        }
        return Long.parseUnsignedLong(digits, 16);
    }

    private static int number(String s, int i) {
        int n = s.length();
        if (s.startsWith("0x", i)) {
            int j = i + 2;
            while (j < n && Character.digit(s.charAt(j), 16) >= 0) {
                j++;
            }
            return j;
        }
        int j = i;
        while (j < n && (isDigit(s.charAt(j)) || s.charAt(j) == '.')) {
            j++;
        }
        if (j + 1 < n && (s.charAt(j) == 'e' || s.charAt(j) == 'E')) {
            int k = j + 1;
            if (s.charAt(k) == '+' || s.charAt(k) == '-') {
                k++;
            }
            if (k < n && isDigit(s.charAt(k))) {
                while (k < n && isDigit(s.charAt(k))) {
                    k++;
                }
                j = k;
            }
        }
        return j;
    }

    /** A register lexeme for {@code R12}, {@code RZ}, {@code UR3}, {@code URZ}, {@code P0}, {@code PT}, ..., else null. */
    public static Lexeme register(String ident) {
        switch (ident) {
            case "RZ": return new Lexeme(Lexeme.Type.REG, ident, "R", 255);
            case "URZ": return new Lexeme(Lexeme.Type.REG, ident, "UR", 63);
            case "PT": return new Lexeme(Lexeme.Type.REG, ident, "P", 7);
            case "UPT": return new Lexeme(Lexeme.Type.REG, ident, "UP", 7);
            default:
        }
        int k = 0;
        while (k < ident.length() && Character.isUpperCase(ident.charAt(k))) {
            k++;
        }
        if (k == 0 || k == ident.length() || k > 2) {
            return null;
        }
        String prefix = ident.substring(0, k);
        if (!(prefix.equals("R") || prefix.equals("UR") || prefix.equals("P") || prefix.equals("UP")
                || prefix.equals("B") || prefix.equals("SB"))) {
            return null;
        }
        long v = 0;
        for (int j = k; j < ident.length(); j++) {
            char c = ident.charAt(j);
            if (!isDigit(c) || j - k > 3) {
                return null;
            }
            v = v * 10 + (c - '0');
        }
        return new Lexeme(Lexeme.Type.REG, ident, prefix, v);
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    private static boolean isIdentStart(char c) {
        return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
    }

    private static boolean isIdentPart(char c) {
        return isIdentStart(c) || isDigit(c);
    }
}
