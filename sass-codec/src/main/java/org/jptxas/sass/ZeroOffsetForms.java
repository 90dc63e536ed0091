package org.jptxas.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Learned forms that leave an address offset unprinted but whose mask does not fix it: nvdisasm omits a zero
 * {@code +0x..} offset, so a form with the same fixed bits as a rival that prints the offset field (and whose other
 * fields are the rival's) is that rival's zero-offset case. The learner sometimes left the offset out of such a form's
 * mask (sm_90 {@code ATOMS.EXCH.128 R, [R], R}); the two then explain the same words equally well and every such word
 * decoded as ambiguous. Fixing the offset field at zero in the unprinted form restores the pair the other tables
 * have: the zero-offset form wins zero offsets, the offset form takes the rest.
 */
final class ZeroOffsetForms {
    private ZeroOffsetForms() {
    }

    /** {@code forms} with each zero-offset form's missing offset field added to its mask (fixed at zero). */
    static List<SassForm> fixOffsets(List<SassForm> forms) {
        Map<String, List<SassForm>> byEncoding = new HashMap<>();
        for (SassForm f : forms) {
            byEncoding.computeIfAbsent(encoding(f), k -> new ArrayList<>()).add(f);
        }
        List<SassForm> out = new ArrayList<>(forms.size());
        for (SassForm f : forms) {
            out.add(fixed(f, byEncoding.get(encoding(f))));
        }
        return out;
    }

    private static String encoding(SassForm f) {
        return f.key + ":" + f.maskHi + ":" + f.maskLo + ":" + f.bitsHi + ":" + f.bitsLo;
    }

    private static SassForm fixed(SassForm f, List<SassForm> sameBits) {
        for (SassForm g : sameBits) {
            BitField offset = extraOffset(f, g);
            if (offset != null) {
                long[] m = offset.mask();
                return new SassForm(f.key, f.mnemonic, List.of(f.pieces), List.of(f.slots), f.maskLo | m[0],
                        f.maskHi | m[1], f.bitsLo, f.bitsHi, f.exclusions());
            }
        }
        return f;
    }

    /**
     * The offset field {@code g} prints beyond {@code f}'s fields, when {@code g} is {@code f} with one
     * {@code +0x..} offset more (same mnemonic, same fields otherwise, in order); else null.
     */
    private static BitField extraOffset(SassForm f, SassForm g) {
        if (g == f || !g.mnemonic.equals(f.mnemonic) || g.slots.length != f.slots.length + 1) {
            return null;
        }
        BitField extra = null;
        int j = 0;
        for (SassSlot s : g.slots) {
            if (j < f.slots.length && s.equals(f.slots[j])) {
                j++;
            } else if (extra == null && s instanceof SassSlot.Field field && field.kind() == SlotKind.SHEX_PLUS) {
                extra = field.field();
            } else {
                return null;
            }
        }
        if (extra == null || j != f.slots.length) {
            return null;
        }
        long[] m = extra.mask();
        return (m[0] & f.maskLo) == 0 && (m[1] & f.maskHi) == 0 ? extra : null;
    }
}
