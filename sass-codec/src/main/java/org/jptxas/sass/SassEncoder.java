package org.jptxas.sass;

import java.util.Arrays;
import java.util.List;

/**
 * Encodes typed instructions ({@link SassOp}) at their final address: the form's fixed bits, each field's value, the
 * branch offsets from the labels' addresses, and the control bits. No text is read. A branch whose offset does not
 * fit its form's field (or whose words another form would claim) takes the next form the assembler would have
 * tried for its text, as long as that form takes the same kinds of operands.
 */
public final class SassEncoder {
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
        if (a.slots.length != b.slots.length) {
            return false;
        }
        for (int i = 0; i < a.slots.length; i++) {
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
