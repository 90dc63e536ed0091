package org.jptxas.sass;

import java.util.List;

/**
 * One encoding form: a dispatch key (bits [11:0] plus bit 91), the fixed bits ({@code mask}/{@code bits}) that select
 * its modifiers, and the operand slots in print order between literal {@code pieces}. Immutable.
 */
public final class SassForm {
    final int key;
    final String mnemonic;
    final String[] pieces;
    final SassSlot[] slots;
    final long maskLo, maskHi, bitsLo, bitsHi;
    final int specificity;
    final String skeleton;
    /** Per exclusion: slot indexes and values; the form does not apply when all values match. */
    final int[][] excludeSlots;
    final long[][] excludeValues;
    /**
     * The decoder reads words by this form but the assembler never writes it: its text is another form's that ptxas
     * writes (IADD3's copy hiding a PT first carry-out prints the one-carry text of the [83:81] form). Forms composed
     * or otherwise derived from it inherit the flag.
     */
    final boolean decodeOnly;

    SassForm(int key, String mnemonic, List<String> pieces, List<SassSlot> slots, long maskLo, long maskHi,
             long bitsLo, long bitsHi, List<String> exclude) {
        this(key, mnemonic, pieces, slots, maskLo, maskHi, bitsLo, bitsHi, exclude, false);
    }

    SassForm(int key, String mnemonic, List<String> pieces, List<SassSlot> slots, long maskLo, long maskHi,
             long bitsLo, long bitsHi, List<String> exclude, boolean decodeOnly) {
        if (pieces.size() != slots.size() + 1) {
            throw new IllegalArgumentException("pieces/slots mismatch in " + mnemonic);
        }
        if ((bitsLo & ~maskLo) != 0 || (bitsHi & ~maskHi) != 0) {
            throw new IllegalArgumentException("form " + mnemonic + " sets bits outside its mask");
        }
        if ((maskHi & Control.HI_MASK) != 0 || ((maskHi & Control.OPEX_MASK) != 0 && (maskHi & Control.OPEX_MASK) != Control.OPEX_MASK)) {
            throw new IllegalArgumentException("form " + mnemonic + " fixes control bits (or part of [125:122])");
        }
        long fieldLo = 0, fieldHi = 0;
        int[] repeats = new int[slots.size()];
        java.util.Arrays.fill(repeats, -1);
        for (int i = 0; i < slots.size(); i++) {
            if (slots.get(i) instanceof SassSlot.Field f) {
                long[] m = f.field().mask();
                int earlier = repeatOf(slots, i);
                if (earlier >= 0) {
                    // nvdisasm prints one field twice (BAR.SYNC R4, R4: one register holds the barrier and the count)
                    repeats[i] = earlier;
                    continue;
                }
                if ((m[0] & (maskLo | fieldLo)) != 0
                        || (m[1] & (maskHi | fieldHi | Control.HI_MASK | Control.OPEX_MASK)) != 0) {
                    throw new IllegalArgumentException("form " + mnemonic + ": field " + f.field() + " overlaps");
                }
                fieldLo |= m[0];
                fieldHi |= m[1];
            }
        }
        this.repeats = repeats;
        this.decodeOnly = decodeOnly;
        this.key = key;
        this.mnemonic = mnemonic;
        this.pieces = pieces.toArray(String[]::new);
        this.slots = slots.toArray(SassSlot[]::new);
        this.maskLo = maskLo;
        this.maskHi = maskHi;
        this.bitsLo = bitsLo;
        this.bitsHi = bitsHi;
        this.specificity = Long.bitCount(maskLo) + Long.bitCount(maskHi);
        this.skeleton = String.join("{}", pieces);
        this.excludeSlots = new int[exclude.size()][];
        this.excludeValues = new long[exclude.size()][];
        for (int e = 0; e < exclude.size(); e++) {
            String[] terms = exclude.get(e).split("&");
            excludeSlots[e] = new int[terms.length];
            excludeValues[e] = new long[terms.length];
            for (int t = 0; t < terms.length; t++) {
                String[] kv = terms[t].split("=");
                excludeSlots[e][t] = Integer.parseInt(kv[0]);
                excludeValues[e][t] = Long.parseUnsignedLong(kv[1].substring(2), 16);
                if (!(this.slots[excludeSlots[e][t]] instanceof SassSlot.Field)) {
                    throw new IllegalArgumentException("form " + mnemonic + ": exclusion names a literal slot");
                }
            }
        }
    }

    /** Per slot: the earlier slot whose field it prints again, or -1. */
    final int[] repeats;

    /** The earlier slot with exactly slot {@code i}'s field and kind, or -1. */
    private static int repeatOf(List<SassSlot> slots, int i) {
        if (!(slots.get(i) instanceof SassSlot.Field f)) {
            return -1;
        }
        for (int j = 0; j < i; j++) {
            if (slots.get(j) instanceof SassSlot.Field g && g.kind() == f.kind() && g.shift() == f.shift()
                    && java.util.Arrays.equals(g.field().positions(), f.field().positions())) {
                return j;
            }
        }
        return -1;
    }

    /** Whether the values give every repeated field its earlier slot's value (else the word cannot hold them). */
    boolean repeatsAgree(long[] values) {
        for (int i = 0; i < repeats.length; i++) {
            if (repeats[i] >= 0 && values[i] != values[repeats[i]]) {
                return false;
            }
        }
        return true;
    }

    /** 1 when this form prints a guard predicate first (its slot 0), else 0: the offset of its operand slots. */
    int guardSlots() {
        return pieces[0].startsWith("@") ? 1 : 0;
    }

    /**
     * Whether {@code values} put this form's guard at {@code PT}, unnegated: nvdisasm never prints such a guard, so
     * the instruction reads as its unguarded text (the printer, and the typed shape the scheduler reads).
     */
    public boolean guardAlwaysTrue(long[] values) {
        return pieces[0].equals("@") && slots.length > 0 && slots[0] instanceof SassSlot.Field g
                && g.kind() == SlotKind.PRED && values[0] == 7;
    }

    private volatile SassOperands operands;

    /** The form's guard and operands as its text shows them (computed once). */
    public SassOperands operands() {
        SassOperands o = operands;
        if (o == null) {
            o = SassOperands.of(this);
            operands = o;
        }
        return o;
    }

    /** Whether field values {@code values} hit one of this form's exclusions. */
    boolean excluded(long[] values) {
        for (int e = 0; e < excludeSlots.length; e++) {
            int[] sl = excludeSlots[e];
            long[] vs = excludeValues[e];
            boolean all = true;
            for (int t = 0; t < sl.length && all; t++) {
                all = values[sl[t]] == vs[t];
            }
            if (all) {
                return true;
            }
        }
        return false;
    }

    /** The exclusions in table notation. */
    public List<String> exclusions() {
        List<String> out = new java.util.ArrayList<>();
        for (int e = 0; e < excludeSlots.length; e++) {
            StringBuilder sb = new StringBuilder();
            for (int t = 0; t < excludeSlots[e].length; t++) {
                sb.append(t > 0 ? "&" : "").append(excludeSlots[e][t]).append("=0x")
                        .append(Long.toHexString(excludeValues[e][t]));
            }
            out.add(sb.toString());
        }
        return out;
    }

    /** Whether only the decoder reads by this form (see the field). */
    public boolean decodeOnly() {
        return decodeOnly;
    }

    public int key() {
        return key;
    }

    public String mnemonic() {
        return mnemonic;
    }

    public List<String> pieces() {
        return List.of(pieces);
    }

    public List<SassSlot> slots() {
        return List.of(slots);
    }

    /** Slot {@code i} (no copy of the slot list). */
    public SassSlot slot(int i) {
        return slots[i];
    }

    public int slotCount() {
        return slots.length;
    }

    /**
     * What a refusal names: the skeleton, followed for a form with literal operands by their texts
     * ({@code "IMAD.SHL {}, {}, {}, {} [_,_,_,RZ]"}), so that nvdisasm refusing one spelling of a skeleton (IMAD.SHL
     * with a register addend prints as IMAD) does not refuse the others (IMAD.SHL with RZ).
     */
    public String refusalKey() {
        boolean literal = false;
        for (SassSlot slot : slots) {
            literal |= slot instanceof SassSlot.Literal;
        }
        if (!literal) {
            return skeleton;
        }
        StringBuilder sb = new StringBuilder(skeleton).append(" [");
        for (int i = 0; i < slots.length; i++) {
            sb.append(i > 0 ? "," : "").append(slots[i] instanceof SassSlot.Literal l ? l.text() : "_");
        }
        return sb.append(']').toString();
    }

    /** {@link #pieces()} joined with {@code "{}"}: the assembler's lookup key. */
    public String skeleton() {
        return skeleton;
    }

    public long maskLo() {
        return maskLo;
    }

    public long maskHi() {
        return maskHi;
    }

    public long bitsLo() {
        return bitsLo;
    }

    public long bitsHi() {
        return bitsHi;
    }

    boolean matches(long lo, long hi) {
        return (lo & maskLo) == bitsLo && (hi & maskHi) == bitsHi;
    }

    /** Whether the form explains these bits: its fixed bits match and no exclusion applies. */
    boolean appliesTo(long lo, long hi) {
        if (!matches(lo, hi)) {
            return false;
        }
        if (excludeSlots.length == 0) {
            return true;
        }
        long[] values = new long[slots.length];
        for (int i = 0; i < slots.length; i++) {
            if (slots[i] instanceof SassSlot.Field field) {
                values[i] = field.field().extract(lo, hi);
            }
        }
        return !excluded(values);
    }

    /**
     * Like {@link #appliesTo} but honouring only exclusions on the guard predicate (bits [14:12]): for operand-value
     * aliases the learner's other exclusions stand in for the alias rule, which the caller applies itself.
     */
    boolean appliesToGuardOnly(long lo, long hi) {
        if (!matches(lo, hi)) {
            return false;
        }
        for (int e = 0; e < excludeSlots.length; e++) {
            boolean guardOnly = true;
            boolean all = true;
            for (int t = 0; t < excludeSlots[e].length; t++) {
                SassSlot.Field f = (SassSlot.Field) slots[excludeSlots[e][t]];
                guardOnly &= f.kind() == SlotKind.PRED && java.util.Arrays.equals(f.field().positions(), GUARD_POSITIONS);
                all &= f.field().extract(lo, hi) == excludeValues[e][t];
            }
            if (guardOnly && all) {
                return false;
            }
        }
        return true;
    }

    private static final int[] GUARD_POSITIONS = BitField.parse("14:12").positions();

    /**
     * Whether {@code other} is an equally specific form that could explain the same bits but prints differently:
     * the tables cannot tell which text nvdisasm would choose (an operand-value-dependent alias such as
     * {@code IMAD.SHL.U32} / {@code IMAD.U32}), so an instruction both explain must decode as unknown.
     */
    boolean rivals(SassForm other) {
        return other != this && other.key == key && other.specificity == specificity
                && ((bitsLo ^ other.bitsLo) & maskLo & other.maskLo) == 0
                && ((bitsHi ^ other.bitsHi) & maskHi & other.maskHi) == 0
                && !(other.mnemonic.equals(mnemonic) && other.skeleton.equals(skeleton)
                        && java.util.Arrays.equals(other.slots, slots));
    }

    /**
     * The same encoding printed under another name ({@code IMAD.MOV} for an {@code IMAD} form: nvdisasm names IMAD by
     * its operand values, see {@link ImadAlias}); null if the mnemonic is not the first token of its piece.
     */
    SassForm renamed(String name) {
        int mp = pieces[0].startsWith("@") && slots.length > 0 ? 1 : 0;
        String piece = pieces[mp];
        int at = piece.indexOf(mnemonic);
        int end = at + mnemonic.length();
        if (at < 0 || (end < piece.length() && piece.charAt(end) != ' ')) {
            return null;
        }
        List<String> p = new java.util.ArrayList<>(List.of(pieces));
        p.set(mp, piece.substring(0, at) + name + piece.substring(end));
        return new SassForm(key, name, p, List.of(slots), maskLo, maskHi, bitsLo, bitsHi, exclusions(), decodeOnly);
    }

    /** Whether {@code other} encodes exactly like this form (same fixed bits and fields), whatever it prints. */
    boolean sameEncoding(SassForm other) {
        return other.key == key && other.maskLo == maskLo && other.maskHi == maskHi && other.bitsLo == bitsLo
                && other.bitsHi == bitsHi && java.util.Arrays.equals(other.slots, slots);
    }

    @Override
    public String toString() {
        return mnemonic + " [" + skeleton + "]";
    }
}
