package org.jptxas.isel.sass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Fallback forms for operand values the learned tables saw only once. The learner keeps a value that never
 * varied in its pool as literal text ({@code S2R R11, SR_CTAID.Z} only with R11), so the assembler refuses any other
 * register there although the hardware field exists. Where another form of the same dispatch key and mnemonic, with
 * the same operands (guard aside), has a field of a compatible kind at that operand, and the literal form's fixed
 * bits at the field's positions encode exactly the literal, the field is the literal's: the generalized form frees
 * those bits. Generalized forms are used only after every learned form failed: by the assembler for text no learned
 * form encodes, by the decoder for words no learned form explains.
 */
final class FormGeneralizer {
    private FormGeneralizer() {}

    /** Every generalized form, most specific first. */
    static List<SassForm> generalize(SassForm[][] byKey) {
        Map<String, SassForm> unique = new LinkedHashMap<>();
        for (SassForm[] forms : byKey) {
            if (forms.length < 2) {
                continue;
            }
            for (SassForm f : forms) {
                SassForm g = generalize(f, forms);
                if (g != null) {
                    unique.putIfAbsent(g.skeleton + "|" + Arrays.toString(g.slots) + "|" + g.maskLo + "|" + g.maskHi
                            + "|" + g.bitsLo + "|" + g.bitsHi, g);
                }
            }
        }
        List<SassForm> all = new ArrayList<>(unique.values());
        all.sort(java.util.Comparator.comparingInt((SassForm f) -> -f.specificity));
        return List.copyOf(all);
    }

    private static int guardSlots(SassForm f) {
        return f.pieces[0].startsWith("@") ? 1 : 0;
    }

    private static SassForm generalize(SassForm f, SassForm[] siblings) {
        SassSlot[] slots = f.slots.clone();
        long maskLo = f.maskLo, maskHi = f.maskHi, bitsLo = f.bitsLo, bitsHi = f.bitsHi;
        long usedLo = 0, usedHi = 0;
        for (SassSlot s : f.slots) {
            if (s instanceof SassSlot.Field fs) {
                usedLo |= fs.field().mask()[0];
                usedHi |= fs.field().mask()[1];
            }
            if (s instanceof SassSlot.Field fs && fs.kind() == SlotKind.LABEL) {
                return null;
            }
        }
        boolean changed = false;
        int gf = guardSlots(f);
        for (int i = gf; i < slots.length; i++) {
            if (!(slots[i] instanceof SassSlot.Literal lit)) {
                continue;
            }
            Set<SlotKind> kinds = kindsFor(lit.text());
            if (kinds.isEmpty()) {
                continue;
            }
            Lexeme lex = lexeme(lit.text());
            if (lex == null) {
                continue;
            }
            for (SassForm d : siblings) {
                int gd = guardSlots(d);
                if (d == f || !d.mnemonic.equals(f.mnemonic) || d.slots.length - gd != f.slots.length - gf) {
                    continue;
                }
                if (!(d.slots[i - gf + gd] instanceof SassSlot.Field df) || !kinds.contains(df.kind())) {
                    continue;
                }
                long[] m = df.field().mask();
                if ((m[0] & ~maskLo) != 0 || (m[1] & ~maskHi) != 0 || (m[0] & usedLo) != 0 || (m[1] & usedHi) != 0) {
                    continue;
                }
                long value;
                try {
                    value = df.kind().encode(lex, df.field().width(), df.shift(), 0, null);
                } catch (IllegalArgumentException e) {
                    continue;
                }
                if (df.field().extract(bitsLo, bitsHi) != value) {
                    continue;
                }
                slots[i] = df;
                maskLo &= ~m[0];
                maskHi &= ~m[1];
                bitsLo &= ~m[0];
                bitsHi &= ~m[1];
                usedLo |= m[0];
                usedHi |= m[1];
                changed = true;
                break;
            }
        }
        if (!changed) {
            return null;
        }
        try {
            return new SassForm(f.key, f.mnemonic, List.of(f.pieces), List.of(slots), maskLo, maskHi, bitsLo, bitsHi,
                    f.exclusions());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static Lexeme lexeme(String text) {
        List<Lexeme> l = SassLexer.lex("X " + text).lexemes();
        return l.size() == 1 ? l.get(0) : null;
    }

    /** The slot kinds a literal operand text could be a value of. */
    private static Set<SlotKind> kindsFor(String t) {
        if (t.matches("R(\\d+|Z)")) {
            return EnumSet.of(SlotKind.GPR);
        }
        if (t.matches("UR(\\d+|Z)")) {
            return EnumSet.of(SlotKind.UGPR);
        }
        if (t.matches("P(\\d|T)")) {
            return EnumSet.of(SlotKind.PRED);
        }
        if (t.matches("UP(\\d|T)")) {
            return EnumSet.of(SlotKind.UPRED);
        }
        if (t.matches("0x[0-9a-f]+")) {
            return EnumSet.of(SlotKind.HEX, SlotKind.SHEX);
        }
        if (t.matches("-0x[0-9a-f]+")) {
            return EnumSet.of(SlotKind.SHEX);
        }
        if (t.matches("[-+]?\\d+(\\.\\d+)?(e[-+]\\d+)?")) {
            return EnumSet.of(SlotKind.F32, SlotKind.F64HI);
        }
        return Set.of();
    }
}
