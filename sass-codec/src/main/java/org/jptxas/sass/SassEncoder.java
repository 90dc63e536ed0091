package org.jptxas.sass;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Encodes typed instructions ({@link SassOp}) at their final address: the form's fixed bits, each field's value, the
 * branch offsets from the labels' addresses, and the control bits. No text is read. A branch whose offset does not
 * fit its form's field (or whose words another form would claim) takes the next form the assembler would have
 * tried for its text, as long as that form takes the same kinds of operands.
 */
public final class SassEncoder {
    private static final Control NO_CONTROL = new Control(0, false, Control.NONE, Control.NONE, 0);
    private final SassIsa isa;

    public SassEncoder(SassIsa isa) {
        this.isa = isa;
    }

    /** The two words of {@code op} at {@code address} with {@code control}; {@code labels} places its targets. */
    public long[] encode(SassOp op, Control control, long address, LabelResolver labels) {
        if (!control.legal()) {
            throw new SassAssembler.AssemblyException("illegal scheduling value " + control.text() + " for '" + op
                    + "': the Y bit needs a stall of 1 to 11");
        }
        if (op.target() == null && !hasAddressTarget(op.form())) {
            return namingDescriptor(op.form(), op,
                    words(op.form(), op.values(), op.targets(), control, address, labels));
        }
        String[] firstError = {null};
        for (List<SassForm> candidates : List.of(List.of(op.form()), isa.formsWithSkeleton(op.form().skeleton))) {
            for (SassForm f : candidates) {
                if (!sameOperandKinds(f, op.form())) {
                    continue;
                }
                long[] w;
                try {
                    w = namingDescriptor(f, op, words(f, op.values(), op.targets(), control, address, labels));
                } catch (IllegalArgumentException e) {
                    if (firstError[0] == null) {
                        firstError[0] = e.getMessage();
                    }
                    continue;
                }
                if (f.excludeSlots.length != 0 && f.excluded(fieldValues(f, w))) {
                    continue;
                }
                SassInstruction back = isa.decode(w[0], w[1]);
                if (back instanceof SassInstruction.Known k && (k.form() == f
                        || f == op.form() && SassPrinter.text(k, address, a -> nameOf(op, labels, a)).equals(op.text()))) {
                    return w;
                }
            }
        }
        throw new SassAssembler.AssemblyException("cannot encode '" + op + "' at 0x" + Long.toHexString(address)
                + " for " + isa.sm() + (firstError[0] == null ? "" : ": " + firstError[0]));
    }

    /**
     * The instruction spelled {@code skeleton} (a form's skeleton: {@code NOP}, {@code BRA {}}) with {@code values}
     * and branch {@code targets} by slot, built without text: the first learned form of the skeleton whose slots are
     * all fields, whose exclusions allow the values and whose words (at address 0, every target there too) decode with
     * that form; the form the assembler picks for the same text. Empty where no form does.
     */
    public Optional<SassOp> instruction(String skeleton, long[] values, String[] targets) {
        for (SassForm f : isa.formsWithSkeleton(skeleton)) {
            if (f.slots.length != values.length || !Arrays.stream(f.slots).allMatch(s -> s instanceof SassSlot.Field)) {
                continue;
            }
            if (decodesAs(f, values, targets)) {
                return Optional.of(new SassOp(f, values, targets));
            }
        }
        return Optional.empty();
    }

    /**
     * {@code op} spelled {@code skeleton} with slot {@code slot} branching to {@code label}: the first learned form
     * of the skeleton with the op's literal operands and field kinds elsewhere and a branch target at {@code slot},
     * whose words (at address 0, the label there too) decode with that form ({@code CALL.ABS.NOINC 0x0} as
     * {@code CALL.REL.NOINC `(f)}). Empty where no form does.
     */
    public Optional<SassOp> branching(SassOp op, String skeleton, int slot, String label) {
        long[] values = op.values().clone();
        String[] targets = new String[values.length];
        values[slot] = 0;
        targets[slot] = label;
        for (SassForm f : isa.formsWithSkeleton(skeleton)) {
            if (f.slots.length != values.length || !(f.slots[slot] instanceof SassSlot.Field t)
                    || t.kind() != SlotKind.LABEL || !sameOperandKindsBut(f, op.form(), slot)) {
                continue;
            }
            if (decodesAs(f, values, targets)) {
                return Optional.of(new SassOp(f, values, targets));
            }
        }
        return Optional.empty();
    }

    /** Whether the words of {@code f} with the operands at address 0 (targets there too) decode with {@code f}. */
    private boolean decodesAs(SassForm f, long[] values, String[] targets) {
        long[] w;
        try {
            w = words(f, values, targets, NO_CONTROL, 0, name -> 0);
        } catch (IllegalArgumentException e) {
            return false;
        }
        if (f.excludeSlots.length != 0 && f.excluded(fieldValues(f, w))) {
            return false;
        }
        return isa.decode(w[0], w[1]) instanceof SassInstruction.Known k && (k.form() == f || k.form().sameEncoding(f));
    }

    /**
     * {@code w} naming the op's descriptor pair in the form's unprinted descriptor field ({@link
     * SassIsa#descriptorField}) instead of the pair the learned form fixed. Only where the tables read the word as
     * the same instruction (they hold the form's copy without that field in its mask); otherwise the form's pair
     * stays, as before the field was known.
     */
    private long[] namingDescriptor(SassForm f, SassOp op, long[] w) {
        if (op.descriptor() < 0) {
            return w;
        }
        BitField field = isa.descriptorField(f);
        if (field == null || !field.fits(op.descriptor()) || field.extract(w[0], w[1]) == op.descriptor()) {
            return w;
        }
        long[] clear = field.mask();
        long[] named = {w[0] & ~clear[0], w[1] & ~clear[1]};
        field.insert(op.descriptor(), named);
        return isa.decode(named[0], named[1]) instanceof SassInstruction.Known k && k.form().skeleton.equals(f.skeleton)
                && Arrays.equals(fieldValues(k.form(), named), fieldValues(f, w)) ? named : w;
    }

    private static long[] fieldValues(SassForm f, long[] w) {
        long[] v = new long[f.slots.length];
        for (int i = 0; i < f.slots.length; i++) {
            if (f.slots[i] instanceof SassSlot.Field fs) {
                v[i] = fs.field().extract(w[0], w[1]);
            }
        }
        return v;
    }

    /** The name of the op's target at {@code address}, for comparing texts. */
    private static String nameOf(SassOp op, LabelResolver labels, long address) {
        for (String t : op.targets()) {
            if (t != null && labels.addressOf(t) == address) {
                return t;
            }
        }
        return null;
    }

    private static boolean hasAddressTarget(SassForm f) {
        for (SassSlot s : f.slots) {
            if (s instanceof SassSlot.Field fs && fs.kind() == SlotKind.LABEL) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameOperandKinds(SassForm a, SassForm b) {
        return sameOperandKindsBut(a, b, -1);
    }

    /** Whether {@code a} and {@code b} have the same literals and field kinds, slot {@code except} aside. */
    private static boolean sameOperandKindsBut(SassForm a, SassForm b, int except) {
        if (a.slots.length != b.slots.length) {
            return false;
        }
        for (int i = 0; i < a.slots.length; i++) {
            if (i == except) {
                continue;
            }
            SassSlot x = a.slots[i];
            SassSlot y = b.slots[i];
            if (x instanceof SassSlot.Field fx ? !(y instanceof SassSlot.Field fy && fx.kind() == fy.kind())
                    : !x.equals(y)) {
                return false;
            }
        }
        return true;
    }

    private static long[] words(SassForm f, long[] values, String[] targets, Control control, long address,
            LabelResolver labels) {
        if (!f.repeatsAgree(values)) {
            throw new IllegalArgumentException("form " + f.mnemonic + " prints one register twice; the operands differ");
        }
        long[] words = {f.bitsLo, f.bitsHi};
        for (int i = 0; i < f.slots.length; i++) {
            if (f.slots[i] instanceof SassSlot.Field fs) {
                long v = values[i];
                if (fs.kind() == SlotKind.LABEL) {
                    long target = targets[i] != null ? labels.addressOf(targets[i]) : values[i];
                    v = SlotKind.branchOffset(target, address, fs.field().width(), fs.shift());
                } else if (!fs.field().fits(v)) {
                    throw new IllegalArgumentException("0x" + Long.toHexString(v) + " does not fit " + fs.field());
                }
                fs.insert(v, words);
            }
        }
        words[1] |= control.toHi() & ~f.maskHi;
        return words;
    }
}
