package org.jptxas.sass;

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
 * those bits.
 * Forms seen only unguarded also get their guarded spellings. Generalized forms are used only after every learned form failed: by the assembler for text no learned
 * form encodes, by the decoder for words no learned form explains.
 */
final class FormGeneralizer {
    private FormGeneralizer() {}

    /** Every generalized form of the forms the assembler writes, most specific first. */
    static List<SassForm> generalize(SassForm[][] byKey) {
        return generalize(byKey, false);
    }

    /**
     * With {@code decodeOnly}, the generalized forms of the decode-only forms instead (decode-only too: a guarded
     * copy of IADD3's hidden-PT-carry form reads {@code @P0 IADD3 R66, P1, ...}); each form's siblings are the forms
     * of its kind, so the forms the assembler writes generalize as if there were no decode-only ones.
     */
    static List<SassForm> generalize(SassForm[][] byKey, boolean decodeOnly) {
        Map<String, SassForm> unique = new LinkedHashMap<>();
        for (SassForm[] all : byKey) {
            SassForm[] forms = Arrays.stream(all).filter(f -> f.decodeOnly == decodeOnly).toArray(SassForm[]::new);
            for (SassForm f : forms) {
                SassForm g = generalize(f, forms);
                List<SassForm> out = new ArrayList<>();
                if (g != null) {
                    out.add(g);
                }
                SlotKind guardKind = guardKind(f, forms);
                for (SassForm base : g == null ? List.of(f) : List.of(f, g)) {
                    out.addAll(guarded(base, guardKind));
                }
                for (SassForm base : concat(f, out)) {
                    SassForm plain = withoutReuse(base);
                    if (plain != null) {
                        out.add(plain);
                    }
                }
                for (SassForm o : out) {
                    unique.putIfAbsent(o.skeleton + "|" + Arrays.toString(o.slots) + "|" + o.maskLo + "|" + o.maskHi
                            + "|" + o.bitsLo + "|" + o.bitsHi, o);
                }
            }
        }
        List<SassForm> all = new ArrayList<>(unique.values());
        all.sort(java.util.Comparator.comparingInt((SassForm f) -> -f.specificity));
        return List.copyOf(all);
    }

    private static List<SassForm> concat(SassForm f, List<SassForm> more) {
        List<SassForm> all = new ArrayList<>(more.size() + 1);
        all.add(f);
        all.addAll(more);
        return all;
    }

    /** The operand-reuse flags, bits [125:122] (one per source slot). */
    private static final long REUSE_HI = 0xfL << (122 - 64);

    /**
     * The spelling without {@code .reuse} of a form learned only with reuse flags. The flags are hints that the next
     * instruction reads the same register in the same slot; code generation must never set them by accident (and
     * nvdisasm rejects some flag/control combinations), so a form ptxas happened to emit with them also gets its
     * flag-free encoding: the same bits with [125:122] clear.
     */
    private static SassForm withoutReuse(SassForm f) {
        boolean any = false;
        List<String> pieces = new ArrayList<>(f.pieces.length);
        for (String p : f.pieces) {
            String q = p.replace(".reuse", "");
            any |= !q.equals(p);
            pieces.add(q);
        }
        if (!any || (f.maskHi & REUSE_HI) != REUSE_HI) {
            return null;
        }
        try {
            return new SassForm(f.key, f.mnemonic, pieces, List.of(f.slots), f.maskLo, f.maskHi, f.bitsLo,
                    f.bitsHi & ~REUSE_HI, f.exclusions(), f.decodeOnly);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static final long GUARD_REG = 7L << 12;
    private static final long GUARD_NEG = 1L << 15;
    private static final BitField GUARD = BitField.parse("14:12");

    /**
     * The guarded spellings ({@code @P0 X}, {@code @!P0 X}) of an unguarded form: every Volta-family instruction
     * holds its guard predicate in bits [14:12] and its negation in bit 15, so a form seen only unguarded (its
     * guard fixed to PT) is the same encoding with those bits free.
     */
    private static List<SassForm> guarded(SassForm f, SlotKind guardKind) {
        if (f.pieces[0].startsWith("@") || (f.maskLo & (GUARD_REG | GUARD_NEG)) != (GUARD_REG | GUARD_NEG)
                || (f.bitsLo & (GUARD_REG | GUARD_NEG)) != GUARD_REG) {
            return List.of();
        }
        List<SassSlot> slots = new ArrayList<>();
        slots.add(new SassSlot.Field(guardKind, GUARD, 0));
        slots.addAll(List.of(f.slots));
        List<String> shifted = new ArrayList<>();
        for (String e : f.exclusions()) {
            StringBuilder sb = new StringBuilder();
            for (String term : e.split("&")) {
                String[] kv = term.split("=");
                sb.append(sb.length() == 0 ? "" : "&").append(Integer.parseInt(kv[0]) + 1).append('=').append(kv[1]);
            }
            shifted.add(sb.toString());
        }
        List<SassForm> out = new ArrayList<>(2);
        for (boolean negated : new boolean[] {false, true}) {
            List<String> pieces = new ArrayList<>();
            pieces.add(negated ? "@!" : "@");
            pieces.add(" " + f.pieces[0]);
            pieces.addAll(List.of(f.pieces).subList(1, f.pieces.length));
            List<String> excl = new ArrayList<>(shifted);
            if (!negated) {
                excl.add("0=0x7");
            }
            try {
                out.add(new SassForm(f.key, f.mnemonic, pieces, slots, f.maskLo & ~GUARD_REG, f.maskHi,
                        (f.bitsLo & ~GUARD_REG) | (negated ? GUARD_NEG : 0), f.bitsHi, excl, f.decodeOnly));
            } catch (IllegalArgumentException e) {
                // a form whose fields overlap the guard bits is no ordinary instruction: leave it
            }
        }
        return out;
    }

    /**
     * The guard's register file: that of a guarded form of the same key, else UP for the uniform datapath (whose
     * mnemonics start with U) and P for the rest.
     */
    private static SlotKind guardKind(SassForm f, SassForm[] siblings) {
        for (SassForm d : siblings) {
            if (d.pieces[0].startsWith("@") && d.slots.length > 0 && d.slots[0] instanceof SassSlot.Field g) {
                return g.kind();
            }
        }
        return f.mnemonic.startsWith("U") || f.mnemonic.startsWith("S2UR") ? SlotKind.UPRED : SlotKind.PRED;
    }

    /** The text around the operands, without guard, mnemonic and .reuse: sibling forms must agree on it. */
    private static List<String> operandText(SassForm f) {
        int g = f.guardSlots();
        List<String> out = new ArrayList<>();
        for (int i = g; i < f.pieces.length; i++) {
            String p = f.pieces[i].replace(".reuse", "");
            if (i == g) {
                int sp = p.indexOf(f.mnemonic);
                p = sp < 0 ? p : p.substring(sp + f.mnemonic.length());
            }
            // Names (SR_CTAID.X) may differ between siblings; operand decorations (-, |, [, ~) may not.
            out.add(p.replaceAll("[A-Za-z0-9_.]", ""));
        }
        return out;
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
        int gf = f.guardSlots();
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
            boolean found = false;
            // Donors of another mnemonic of the key (pass 1) gave a wrong f64 result in the suite: same mnemonic only.
            for (int pass = 0; pass < 1 && !found; pass++) {
            for (SassForm d : siblings) {
                int gd = d.guardSlots();
                // First pass: the same mnemonic; second: any form of the key (modifiers are other bits).
                if (d == f || (pass == 0) != d.mnemonic.equals(f.mnemonic) || d.slots.length - gd != f.slots.length - gf
                        || !operandText(d).equals(operandText(f))) {
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
                found = true;
                break;
            }
            }
        }
        if (!changed) {
            return null;
        }
        try {
            return new SassForm(f.key, f.mnemonic, List.of(f.pieces), List.of(slots), maskLo, maskHi, bitsLo, bitsHi,
                    f.exclusions(), f.decodeOnly);
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
