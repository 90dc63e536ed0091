package org.jptxas.sass.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.jptxas.sass.SassForm;
import org.jptxas.sass.SassSlot;

/**
 * Random instruction words built from the tables' forms: a form's fixed bits (its opcode and modifier values) with a
 * random value of its full width in every operand field, and ptxas's usual control word (stall 2, yield; nvdisasm
 * refuses some stores with an all-zero one). Bits neither fixed nor a field stay zero. Seeded: the same forms, count
 * and seed give the same words.
 */
public final class FormWords {
    private FormWords() {}

    /** The control bits the words carry: stall 2 with the yield bit, no barriers (as ptxas writes most words). */
    static final long CONTROL_HI = 0x000fe2L << 40;

    /** One word of {@code form} with random operand fields. */
    public static long[] random(SassForm form, SplittableRandom random) {
        long[] w = {form.bitsLo(), form.bitsHi() | CONTROL_HI};
        java.util.Set<org.jptxas.sass.BitField> done = new java.util.HashSet<>();
        for (SassSlot slot : form.slots()) {
            // a field printed twice (BAR.SYNC R4, R4) holds one value
            if (slot instanceof SassSlot.Field f && done.add(f.field())) {
                int width = f.field().width();
                f.field().insert(random.nextLong() & (width == 64 ? -1L : (1L << width) - 1), w);
            }
        }
        return w;
    }

    /**
     * {@code perForm} random words of each form, in the forms' order. Each form draws from its own sequence, seeded
     * by {@code seed}, the SM and the form ({@link #formSeed}): a form added to or dropped from the tables leaves the
     * other forms' words as they were.
     */
    public static List<long[]> of(String sm, List<SassForm> forms, int perForm, long seed) {
        List<long[]> out = new ArrayList<>(forms.size() * perForm);
        for (SassForm f : forms) {
            SplittableRandom random = new SplittableRandom(formSeed(seed, sm, f));
            for (int i = 0; i < perForm; i++) {
                out.add(random(f, random));
            }
        }
        return out;
    }

    /** A seed of {@code seed}, the SM and what tells a form from another: key, fixed bits, skeleton and literals. */
    static long formSeed(long seed, String sm, SassForm f) {
        long h = mix(seed ^ sm.hashCode());
        for (long part : new long[] {f.key(), f.maskLo(), f.maskHi(), f.bitsLo(), f.bitsHi(),
                f.refusalKey().hashCode(), f.mnemonic().hashCode()}) {
            h = mix(h ^ part);
        }
        return h;
    }

    /** A 64-bit finalizer (the SplitMix64 constants): nearby inputs give unrelated seeds. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /**
     * A subset of {@code forms} in which every modifier value of every key appears: forms in order, each kept if its
     * mnemonic has a modifier token (or its operands a shape) no kept form of its key has shown. The composed forms
     * are every combination of a class's values; this keeps each value at least once in a few thousand forms.
     */
    public static List<SassForm> covering(List<SassForm> forms) {
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<SassForm> out = new ArrayList<>();
        for (SassForm f : forms) {
            boolean fresh = seen.add(f.key() + " " + f.skeleton().replace(f.mnemonic(), "#"));
            String[] tokens = f.mnemonic().split("\\.");
            for (int i = 1; i < tokens.length; i++) {
                fresh |= seen.add(f.key() + " " + tokens[0] + " ." + tokens[i]);
            }
            if (fresh) {
                out.add(f);
            }
        }
        return out;
    }
}
