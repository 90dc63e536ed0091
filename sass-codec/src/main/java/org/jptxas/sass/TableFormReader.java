package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassSlotData;

/** A table entry ({@link SassFormData}, as the JSON holds it) turned into the form the codec works with. */
final class TableFormReader {
    private TableFormReader() {}

    /** The form of table entry {@code d}: its slots typed, its mask and fixed bits as two 64-bit halves,
     * decode-only when the entry says so. */
    static SassForm form(SassFormData d) {
        List<SassSlot> slots = new ArrayList<>(d.slots().size());
        for (SassSlotData s : d.slots()) {
            if (s.literal() != null) {
                slots.add(new SassSlot.Literal(s.literal()));
            } else {
                SlotKind kind = SlotKind.valueOf(s.kind());
                if (kind == SlotKind.HEX && ImadAlias.signedImmediate(d.key(), d.mnemonic(), s.bits())) {
                    // the learner saw only non-negative values in some IMAD forms and guessed unsigned
                    kind = SlotKind.SHEX;
                }
                slots.add(new SassSlot.Field(kind, BitField.parse(s.bits()), s.shift(),
                        s.signCopy() == null ? null : BitField.parse(s.signCopy())));
            }
        }
        long[] mask = SassIsa.hex128(d.mask());
        long[] bits = SassIsa.hex128(d.bits());
        return new SassForm(d.key(), d.mnemonic(), d.pieces(), slots, mask[0], mask[1], bits[0], bits[1], d.exclude(),
                d.decodeOnly());
    }
}
