package org.jptxas.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The composed forms no word ever reaches ({@link ModifierComposer}): a composed form is a special case of a learned
 * or generalized form (or of another composed form) when that form matches every word it does and reads one of its
 * literal operands, or an immediate under another reading of the same bits, as a field. The comparison covers the
 * forms' exclusions and the predicates nvdisasm hides as PT.
 */
final class ComposedSpecialCases {
    private ComposedSpecialCases() {}

    /**
     * Drops each composed form that inherited a literal operand from its learned form (IMNMX R, R, 0x64, P; FADD R, R,
     * 1), or reads an immediate as the twin of another reading of the same bits (sm_80 IADD3's HEX and SHEX b), where
     * a learned or generalized form of the same key and spelling reads that operand as a field (of the other reading)
     * and matches every word the composed form matches, its exclusions included (see {@link #exclusionsCover}). The
     * decoder tries those forms first, so no word ever reaches the composed form. Of two composed twins the later in
     * decoder order goes likewise. With {@code skeleton} set, every composed form has that skeleton.
     */
    static void drop(List<ModifierComposer.Ranked> composed, Set<Integer> keys,
            Map<Integer, List<SassForm>> formsByKey, String skeleton) {
        // a shape includes the skeleton: with the composed forms all of one skeleton, only forms of it can match
        Map<String, List<SassForm>> bySpelling = new HashMap<>();
        for (int key : keys) {
            for (SassForm f : formsByKey.getOrDefault(key, List.of())) {
                if (skeleton != null && !f.skeleton.equals(skeleton)) {
                    continue;
                }
                bySpelling.computeIfAbsent(shape(f), k -> new ArrayList<>()).add(f);
            }
        }
        composed.removeIf(r -> {
            SassForm g = r.form();
            for (SassForm h : bySpelling.getOrDefault(shape(g), List.of())) {
                // a decode-only form reads the words but never writes them: the assembler keeps the composed form
                if (h.decodeOnly && !g.decodeOnly) {
                    continue;
                }
                if (specialCase(g, h, formsByKey.getOrDefault(g.key, List.of()))) {
                    return true;
                }
            }
            return false;
        });
        composed.sort(ModifierComposer.Ranked.ORDER);
        Map<String, List<SassForm>> kept = new HashMap<>();
        composed.removeIf(r -> {
            SassForm g = r.form();
            List<SassForm> same = kept.computeIfAbsent(shape(g), k -> new ArrayList<>());
            for (SassForm h : same) {
                if (specialCase(g, h, formsByKey.getOrDefault(g.key, List.of()))) {
                    return true;
                }
            }
            same.add(g);
            return false;
        });
    }

    private static String shape(SassForm f) {
        return f.key + "|" + f.skeleton + "|" + f.slots.length;
    }

    /**
     * Whether no word {@code g} reads hits an exclusion of {@code h}: each exclusion of {@code h} names a field that
     * {@code g} fixes to another value (a generalized guard excluding PT over a learned P0), or holds every term of
     * one of {@code g}'s own exclusions.
     */
    private static boolean exclusionsCover(SassForm g, SassForm h, List<SassForm> siblings) {
        int[] hideable = null;
        for (int e = 0; e < h.excludeSlots.length; e++) {
            if (fixedOtherwise(g, h, e) || holdsExclusionOf(g, h, e)) {
                continue;
            }
            if (hideable == null) {
                hideable = KeyTable.hideablePredicates(g, siblings.toArray(SassForm[]::new));
            }
            if (!hiddenPt(g, h, e, hideable)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether exclusion {@code e} of {@code h} asks a predicate {@code g} prints to be PT where the decoder never
     * picks {@code g} for PT: the guard (nvdisasm prints no @PT; the unguarded form reads those words) or a predicate
     * nvdisasm hides as PT.
     */
    private static boolean hiddenPt(SassForm g, SassForm h, int e, int[] hideable) {
        for (int t = 0; t < h.excludeSlots[e].length; t++) {
            int slot = h.excludeSlots[e][t];
            if (h.excludeValues[e][t] != 7 || !(g.slots[slot] instanceof SassSlot.Field gf)
                    || gf.kind() != SlotKind.PRED || g.pieces[slot].endsWith("!")) {
                continue;
            }
            boolean guard = slot < g.guardSlots();
            boolean hidden = false;
            for (int i : hideable) {
                hidden |= i == slot;
            }
            if (guard || hidden) {
                return true;
            }
        }
        return false;
    }

    private static boolean fixedOtherwise(SassForm g, SassForm h, int e) {
        for (int t = 0; t < h.excludeSlots[e].length; t++) {
            BitField field = ((SassSlot.Field) h.slots[h.excludeSlots[e][t]]).field();
            long[] m = field.mask();
            if ((g.maskLo & m[0]) == m[0] && (g.maskHi & m[1]) == m[1]
                    && field.extract(g.bitsLo, g.bitsHi) != h.excludeValues[e][t]) {
                return true;
            }
        }
        return false;
    }

    private static boolean holdsExclusionOf(SassForm g, SassForm h, int e) {
        for (int eg = 0; eg < g.excludeSlots.length; eg++) {
            boolean all = true;
            for (int tg = 0; tg < g.excludeSlots[eg].length && all; tg++) {
                long[] gm = ((SassSlot.Field) g.slots[g.excludeSlots[eg][tg]]).field().mask();
                boolean found = false;
                for (int t = 0; t < h.excludeSlots[e].length && !found; t++) {
                    long[] hm = ((SassSlot.Field) h.slots[h.excludeSlots[e][t]]).field().mask();
                    found = java.util.Arrays.equals(gm, hm) && g.excludeValues[eg][tg] == h.excludeValues[e][t];
                }
                all = found;
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    /** Immediate readings of the same bits that print alike for small values (unsigned and signed hex). */
    private static final Set<SlotKind> HEX_TWINS = java.util.EnumSet.of(SlotKind.HEX, SlotKind.SHEX);

    /**
     * Whether {@code h} matches every word {@code g} does and reads a literal operand of {@code g} as a field, or an
     * immediate field of {@code g} as another kind over the same bits.
     */
    private static boolean specialCase(SassForm g, SassForm h, List<SassForm> siblings) {
        if ((h.maskLo & ~g.maskLo) != 0 || (h.maskHi & ~g.maskHi) != 0 || (g.bitsLo & h.maskLo) != h.bitsLo
                || (g.bitsHi & h.maskHi) != h.bitsHi) {
            return false;
        }
        boolean widened = false;
        for (int i = 0; i < g.slots.length; i++) {
            if (g.slots[i] instanceof SassSlot.Literal && h.slots[i] instanceof SassSlot.Field) {
                widened = true;
            } else if (g.slots[i] instanceof SassSlot.Field gf && h.slots[i] instanceof SassSlot.Field hf
                    && gf.kind() != hf.kind() && HEX_TWINS.contains(gf.kind()) && HEX_TWINS.contains(hf.kind())
                    && gf.shift() == hf.shift() && java.util.Arrays.equals(gf.field().mask(), hf.field().mask())) {
                widened = true;
            } else if (!g.slots[i].equals(h.slots[i])) {
                return false;
            }
        }
        return widened && exclusionsCover(g, h, siblings);
    }

}
