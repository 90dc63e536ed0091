package org.jptxas.isel.select;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * What {@link SassTextPrinter#print}'s outcome depends on (the line number only names errors), compared and hashed
 * cheaply: the printer's memo is asked several times per instruction, and a large function's keys fill it with tens
 * of thousands of entries, so each lookup's comparison must not walk a list of operand objects spread over the heap.
 * Operands that are all physical registers and immediates, nearly all instructions, are packed into one array of
 * longs (which also keeps the memo from holding on to the function's operands); other operand lists are kept as they are.
 */
final class PrintKey {
    private static final int REGISTER = 1;
    private static final int IMMEDIATE = 2;

    private final Guard guard;
    private final String mnemonic;
    /** The operands packed (see {@link #packed}), or null when they do not pack. */
    private final long[] packed;
    /** The operands, when they do not pack; else null. */
    private final List<Src> operands;
    private final int descriptor;
    private final List<String> labels;
    private final int hash;

    PrintKey(Guard guard, String mnemonic, List<Src> operands, int descriptor, List<String> labels) {
        this.guard = guard;
        this.mnemonic = mnemonic;
        this.packed = packed(operands);
        this.operands = packed == null ? List.copyOf(operands) : null;
        this.descriptor = descriptor;
        this.labels = labels;
        int h = guard == null ? 0 : guard.predicate().hashCode() * 2 + (guard.negated() ? 1 : 0);
        h = h * 31 + mnemonic.hashCode();
        h = h * 31 + (packed != null ? mixed(packed) : this.operands.hashCode());
        this.hash = (h * 31 + descriptor) * 31 + labels.hashCode();
    }

    /**
     * The operands as longs, or null: a physical register is one word (tag, modifier bits, file, components, index,
     * part), an immediate two (tag and modifier bits, then its bits). Each operand's first word names its length, so
     * two lists are equal exactly when their packings are.
     */
    private static long[] packed(List<Src> operands) {
        int words = 0;
        for (Src s : operands) {
            if (s.value() instanceof Reg r) {
                if (r.virtual() || r.index() > 0xffff || r.part() < -1 || r.part() > 0xfffe) {
                    return null;
                }
                words++;
            } else if (s.value() instanceof Imm) {
                words += 2;
            } else {
                return null;
            }
        }
        long[] out = new long[words];
        int w = 0;
        for (Src s : operands) {
            long modifiers = (s.neg() ? 1 : 0) | (s.abs() ? 2 : 0) | (s.not() ? 4 : 0);
            if (s.value() instanceof Reg r) {
                out[w++] = REGISTER | modifiers << 2 | (long) r.file().ordinal() << 8 | (long) r.comps() << 16
                        | (long) r.index() << 24 | (long) (r.part() + 1) << 40;
            } else {
                out[w++] = IMMEDIATE | modifiers << 2;
                out[w++] = ((Imm) s.value()).bits();
            }
        }
        return out;
    }

    /**
     * A hash of the packed words in which every bit of every word counts in the low bits: {@link Arrays#hashCode}
     * folds a register's index into bits 24 to 31 only (the words' low halves are the same for all registers of a
     * file and shape), which left a mnemonic's register-only keys at most 256 distinct hashes and made the memo's
     * buckets long.
     */
    private static int mixed(long[] words) {
        long h = 1;
        for (long w : words) {
            h = (h + w) * 0x9E3779B97F4A7C15L;
            h ^= h >>> 29;
        }
        return (int) (h ^ h >>> 32);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrintKey k && hash == k.hash && descriptor == k.descriptor && sameGuard(guard, k.guard)
                && (packed != null ? Arrays.equals(packed, k.packed) : k.packed == null && operands.equals(k.operands))
                && mnemonic.equals(k.mnemonic) && labels.equals(k.labels);
    }

    private static boolean sameGuard(Guard a, Guard b) {
        return a == b || a != null && b != null && a.negated() == b.negated() && a.predicate().equals(b.predicate());
    }
}
