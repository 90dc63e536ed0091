package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;

/** A decoded (or assembled) 128-bit instruction. */
public sealed interface SassInstruction {
    long lo();

    long hi();

    Control control();

    /**
     * An instruction of a known form.
     *
     * @param values one entry per slot: the unsigned field content (0 for literal slots)
     */
    record Known(SassForm form, long[] values, Control control, long lo, long hi) implements SassInstruction {
        public String mnemonic() {
            return form.mnemonic;
        }

        /** Absolute targets of this instruction's branch-offset fields, for an instruction at {@code address}. */
        public List<Long> branchTargets(long address) {
            List<Long> out = new ArrayList<>(1);
            for (int i = 0; i < form.slots.length; i++) {
                if (form.slots[i] instanceof SassSlot.Field f && f.kind() == SlotKind.LABEL) {
                    out.add(address + 16 + (SlotKind.signExtend(values[i], f.field().width()) << f.shift()));
                }
            }
            return out;
        }

        /** The operands as typed values, in print order. */
        public List<Operand> operands() {
            List<Operand> out = new ArrayList<>(values.length);
            for (int i = 0; i < form.slots.length; i++) {
                SassSlot s = form.slots[i];
                out.add(s instanceof SassSlot.Field f ? new Operand.Value(f.kind(), values[i])
                        : new Operand.Fixed(((SassSlot.Literal) s).text()));
            }
            return out;
        }
    }

    /** Bits no form of the table explains: printed as such, never guessed. */
    record Unknown(long lo, long hi) implements SassInstruction {
        @Override
        public Control control() {
            return Control.fromHi(hi);
        }
    }

    /** A typed operand of a {@link Known} instruction. */
    sealed interface Operand {
        /** A field value of a kind (register number, immediate bits, branch offset). */
        record Value(SlotKind kind, long value) implements Operand {}

        /** An operand the form fixes. */
        record Fixed(String text) implements Operand {}
    }
}
