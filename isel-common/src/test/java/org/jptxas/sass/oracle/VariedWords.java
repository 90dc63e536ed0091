package org.jptxas.sass.oracle;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.sass.BitField;

/**
 * Words for the raw-word oracle tests: one instruction word ptxas wrote, then variants with random values in the
 * named fields. A field is {@code hi:lo} (or a {@link BitField} list of ranges), with a prefix where its values are
 * limited: {@code !} a predicate that never holds PT (nvdisasm hides a PT there), {@code ~} a boolean operation
 * (AND, OR, XOR), {@code +} never 0, {@code #} never all ones (RZ or URZ, which nvdisasm prints otherwise there).
 */
public final class VariedWords {
    private VariedWords() {}

    /** A word ptxas wrote (hi then lo, 32 hex digits as nvdisasm prints them) and the fields to vary in it. */
    public record Sample(String word, List<String> fields) {}

    /** Each sample's word and {@code count - 1} variants of it, in the samples' order, from one random sequence. */
    public static List<long[]> of(List<Sample> samples, int count, Random random) {
        List<long[]> out = new ArrayList<>();
        for (Sample s : samples) {
            out.addAll(of(s.word(), s.fields(), count, random));
        }
        return out;
    }

    /** {@code word} (hi then lo, 32 hex digits as nvdisasm prints them) and {@code count - 1} variants of it. */
    public static List<long[]> of(String word, List<String> fields, int count, Random random) {
        long hi = Long.parseUnsignedLong(word.substring(0, 16), 16);
        long lo = Long.parseUnsignedLong(word.substring(16), 16);
        List<long[]> out = new ArrayList<>();
        out.add(new long[] {lo, hi});
        for (int v = 1; v < count; v++) {
            long[] w = {lo, hi};
            for (String spec : fields) {
                char kind = "!~+#".indexOf(spec.charAt(0)) >= 0 ? spec.charAt(0) : ' ';
                BitField f = BitField.parse(kind == ' ' ? spec : spec.substring(1));
                long max = f.width() == 64 ? -1L : (1L << f.width()) - 1;
                long value = random.nextLong() & max;
                switch (kind) {
                    case '!' -> value = random.nextInt(7);
                    case '~' -> value = random.nextInt(3);
                    case '+' -> value = 1 + random.nextInt((int) max);
                    case '#' -> value = value == max ? max - 1 : value;
                    default -> { }
                }
                long[] m = f.mask();
                w[0] &= ~m[0];
                w[1] &= ~m[1];
                f.insert(value, w);
            }
            out.add(w);
        }
        return out;
    }
}
