package org.jptxas.sass;

import java.util.Arrays;
import java.util.Objects;

/**
 * A selected machine instruction, typed: its encoding form and the value of each of the form's operand fields, with
 * branch targets kept by label name until the code is laid out. The encoder consumes it directly
 * ({@link SassEncoder}); text is made from it only for printing ({@link #text}). Immutable.
 *
 * @param values  the unsigned field content per slot of the form (0 for literal slots and for targets by name; the
 *                target address for a {@link SlotKind#LABEL} field given as an address)
 * @param targets per slot, the label a {@link SlotKind#LABEL} field branches to, or null
 * @param descriptor the uniform pair the code loaded the memory descriptor into ({@code ULDC.64 UR4, c[0x0][0x118]}),
 *                   which a memory instruction of sm_80 … sm_89 names in an unprinted field
 *                   ({@link SassIsa#descriptorField}); -1 where the code loads none
 */
public record SassOp(SassForm form, long[] values, String[] targets, int descriptor) {
    /** An instruction of code that loads no memory descriptor. */
    public SassOp(SassForm form, long[] values, String[] targets) {
        this(form, values, targets, -1);
    }

    public SassOp {
        Objects.requireNonNull(form, "form");
        if (values.length != form.slots.length || targets.length != form.slots.length) {
            throw new IllegalArgumentException("an operand value per slot of " + form);
        }
        values = values.clone();
        targets = targets.clone();
    }

    /** The mnemonic with its modifiers, without guard: {@code IMAD.WIDE.U32}. */
    public String mnemonic() {
        return form.mnemonic;
    }

    /** The value of slot {@code slot}. */
    public long value(int slot) {
        return values[slot];
    }

    /** The label slot {@code slot} branches to, or null. */
    public String target(int slot) {
        return targets[slot];
    }

    /** Whether the instruction has a guard other than {@code @PT} (a negated or uniform guard counts). */
    public boolean guarded() {
        SassOperands layout = form.operands();
        int g = layout.guardSlot();
        if (g < 0) {
            return false;
        }
        boolean pt = form.slots[g] instanceof SassSlot.Field f ? f.kind() == SlotKind.PRED && values[g] == 7
                : ((SassSlot.Literal) form.slots[g]).text().equals("PT");
        return !pt || layout.guardNegated();
    }

    /** The first label this instruction branches to, or null. */
    public String target() {
        for (String t : targets) {
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /** How many operands the instruction has after its mnemonic ({@link SassOperands#operands()}). */
    public int operandCount() {
        return form.operands().operands().size();
    }

    /**
     * The number of the register operand {@code index} is when that operand is one register of {@code kind} and
     * nothing else ({@code R20}, not {@code -R20} or {@code R20.H1}), a field or fixed by the form; -1 otherwise.
     * The zero register gives its value ({@code RZ}: 255).
     */
    public int register(int index, SlotKind kind) {
        int slot = soleSlot(index);
        if (slot < 0) {
            return -1;
        }
        return slotRegister(slot, kind);
    }

    /**
     * The number of the register of {@code kind} slot {@code slot} holds, a field or fixed by the form ({@code RZ}:
     * 255), or -1 when the slot is something else.
     */
    public int slotRegister(int slot, SlotKind kind) {
        if (form.slots[slot] instanceof SassSlot.Field f) {
            return f.kind() == kind ? (int) values[slot] : -1;
        }
        Lexeme r = SassLexer.register(((SassSlot.Literal) form.slots[slot]).text());
        return r != null && kind.prefix() != null && kind.prefix().equals(r.prefix()) ? (int) r.number() : -1;
    }

    /**
     * The slot of operand {@code index} when that operand is a hexadecimal immediate and nothing else
     * ({@code 0xfffff0}: a field, or fixed by the form), else -1; {@link #immediate} gives its value.
     */
    public int immediateSlot(int index) {
        int slot = soleSlot(index);
        if (slot < 0) {
            return -1;
        }
        if (form.slots[slot] instanceof SassSlot.Field f) {
            return f.kind() == SlotKind.HEX || f.kind() == SlotKind.SHEX ? slot : -1;
        }
        String t = ((SassSlot.Literal) form.slots[slot]).text();
        return t.startsWith("0x") || t.startsWith("-0x") ? slot : -1;
    }

    /** The value immediate slot {@code slot} prints ({@link #immediateSlot}): signed and shifted as printed. */
    public long immediate(int slot) {
        if (form.slots[slot] instanceof SassSlot.Field f) {
            long v = f.kind() == SlotKind.SHEX ? SlotKind.signExtend(values[slot], f.field().width()) : values[slot];
            return v << f.shift();
        }
        String t = ((SassSlot.Literal) form.slots[slot]).text();
        boolean negative = t.startsWith("-");
        long v = Long.parseUnsignedLong(t.substring(negative ? 3 : 2), 16);
        return negative ? -v : v;
    }

    /** The slot of operand {@code index} when it is one slot with no text around it, else -1. */
    private int soleSlot(int index) {
        java.util.List<SassOperands.Operand> operands = form.operands().operands();
        if (index < 0 || index >= operands.size()) {
            return -1;
        }
        SassOperands.Operand o = operands.get(index);
        if (o.slots().size() != 1 || !o.texts().get(0).isBlank() || !o.texts().get(1).isBlank()
                || targets[o.slots().get(0)] != null) {
            return -1;
        }
        return o.slots().get(0);
    }

    /** The same instruction in another form with the same operands (its {@code .reuse} variant, say). */
    public SassOp withForm(SassForm other) {
        if (other.slots.length != form.slots.length) {
            throw new IllegalArgumentException(other + " does not take the operands of " + form);
        }
        return new SassOp(other, values, targets, descriptor);
    }

    /** The same instruction in code whose memory descriptor is in uniform pair {@code pair} (-1: none loaded). */
    public SassOp withDescriptor(int pair) {
        return pair == descriptor ? this : new SassOp(form, values, targets, pair);
    }

    /** The same instruction with slot {@code slot} set to {@code value} (a field's content, unsigned). */
    public SassOp withValue(int slot, long value) {
        long[] v = values.clone();
        v[slot] = value;
        return new SassOp(form, v, targets, descriptor);
    }

    /**
     * The same instruction with immediate slot {@code slot} printing {@code value} (signed and shifted as
     * {@link #immediate} reads it), or null where the slot cannot: a literal of another value, a value the field's
     * width, signedness or shift does not hold. A literal already printing the value keeps the instruction.
     */
    public SassOp withImmediate(int slot, long value) {
        if (!(form.slots[slot] instanceof SassSlot.Field f)) {
            return immediate(slot) == value ? this : null;
        }
        int width = f.field().width();
        boolean signed = f.kind() == SlotKind.SHEX;
        if (!signed && f.kind() != SlotKind.HEX || width >= 64 || (value & ((1L << f.shift()) - 1)) != 0) {
            return null;
        }
        long scaled = value >> f.shift();
        long raw = scaled & ((1L << width) - 1);
        boolean fits = signed ? SlotKind.signExtend(raw, width) == scaled : scaled >= 0 && raw == scaled;
        return fits ? withValue(slot, raw) : null;
    }

    /** The slot of the last hexadecimal immediate field ({@code BRX R2 -0x40}'s offset), or -1. */
    public int lastImmediateField() {
        for (int slot = form.slots.length - 1; slot >= 0; slot--) {
            if (form.slots[slot] instanceof SassSlot.Field f && (f.kind() == SlotKind.HEX || f.kind() == SlotKind.SHEX)) {
                return slot;
            }
        }
        return -1;
    }

    /** The same instruction with label slot {@code slot} branching to {@code label}. */
    public SassOp withTarget(int slot, String label) {
        if (!(form.slots[slot] instanceof SassSlot.Field f) || f.kind() != SlotKind.LABEL) {
            throw new IllegalArgumentException("slot " + slot + " of " + form + " is no branch target");
        }
        long[] v = values.clone();
        String[] t = targets.clone();
        v[slot] = 0;
        t[slot] = label;
        return new SassOp(form, v, t);
    }

    /** The same instruction branching to {@code label} where it branched to {@code from}. */
    public SassOp retargeted(String from, String label) {
        String[] t = targets.clone();
        for (int i = 0; i < t.length; i++) {
            if (from.equals(t[i])) {
                t[i] = label;
            }
        }
        return new SassOp(form, values, t, descriptor);
    }

    /**
     * The highest register of kind {@code kind} the instruction names, not counting the zero register, or -1: from
     * its fields, and from the form's literal operands ({@code R2} fixed by the form's bits).
     */
    public int highestRegister(SlotKind kind) {
        int highest = -1;
        for (int i = 0; i < form.slots.length; i++) {
            if (form.slots[i] instanceof SassSlot.Field f) {
                if (f.kind() == kind && values[i] != kind.zeroValue(f.field().width())) {
                    highest = Math.max(highest, (int) values[i]);
                }
            } else {
                String t = ((SassSlot.Literal) form.slots[i]).text();
                int k = t.startsWith(kind.prefix()) ? kind.prefix().length() : -1;
                if (k > 0 && k < t.length() && Character.isDigit(t.charAt(k))) {
                    int e = k;
                    while (e < t.length() && Character.isDigit(t.charAt(e))) {
                        e++;
                    }
                    highest = Math.max(highest, Integer.parseInt(t.substring(k, e)));
                }
            }
        }
        return highest;
    }

    /** nvdisasm's text of the instruction, its branch targets by label name. */
    public String text() {
        return text(-1, null);
    }

    /**
     * The text of the instruction with slot {@code slot} printed as {@code shown}: a relocated operand as the listing
     * names it ({@code 32@lo((f + .L_x_0@srel))}, {@code `(callee)}) where the words hold 0 for the linker.
     */
    public String text(int slot, String shown) {
        StringBuilder sb = new StringBuilder(48);
        String[] pieces = form.pieces;
        SassSlot[] slots = form.slots;
        for (int i = 0; i < slots.length; i++) {
            sb.append(pieces[i]);
            if (i == slot) {
                sb.append(shown);
            } else if (targets[i] != null) {
                sb.append("`(").append(targets[i]).append(')');
            } else if (slots[i] instanceof SassSlot.Field fs && fs.kind() == SlotKind.LABEL) {
                sb.append(values[i] < 0 ? "-0x" : "0x").append(Long.toHexString(Math.abs(values[i])));
            } else if (slots[i] instanceof SassSlot.Field fs) {
                fs.kind().render(values[i], fs.field().width(), fs.shift(), 0, null, sb);
            } else {
                sb.append(((SassSlot.Literal) slots[i]).text());
            }
        }
        sb.append(pieces[slots.length]);
        int end = sb.length();
        while (end > 0 && sb.charAt(end - 1) == ' ') {
            end--;
        }
        sb.setLength(end);
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SassOp op && op.form == form && Arrays.equals(op.values, values)
                && Arrays.equals(op.targets, targets) && op.descriptor == descriptor;
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(form) * 31 + Arrays.hashCode(values) * 17 + Arrays.hashCode(targets) + descriptor;
    }

    @Override
    public String toString() {
        return text();
    }
}
