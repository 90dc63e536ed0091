package org.jptxas.simulator.exec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Locale;
import java.util.Optional;
import org.jptxas.simulator.launch.ScalarType;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * How two runs' copies of one buffer are compared, and the comparison itself (jptxas-run's {@code --compare} and
 * {@code --differential}). Integers and untyped buffers: every bit. Float elements: equal bits, or both NaN (PTX
 * produces canonical NaNs, other executors may keep payloads), or, with a tolerance, finite values within
 * {@code abs + rel * |reference|} (an infinity matches only itself) — the rules of the kernel suite's checks.
 *
 * @param type the element type; {@link Optional#empty} for raw bytes
 * @param abs absolute tolerance for float elements (0: bit-exact apart from NaNs)
 * @param rel relative tolerance for float elements
 */
public record BufferComparison(Optional<ScalarType> type, double abs, double rel) {
    /** Every byte equal. */
    public static final BufferComparison EXACT = new BufferComparison(Optional.empty(), 0, 0);

    public BufferComparison {
        if (abs < 0 || rel < 0 || Double.isNaN(abs) || Double.isNaN(rel)) {
            throw new IllegalArgumentException("tolerances must be non-negative numbers");
        }
    }

    /**
     * Parses {@code TYPE[:ABS:REL]}, e.g. {@code f32:1e-6:1e-5}, {@code f64} (bit-exact floats, NaN matches NaN) or
     * {@code u32}.
     *
     * @throws IllegalArgumentException when the text is not of that form
     */
    public static BufferComparison parse(String text) {
        String[] parts = text.split(":", -1);
        ScalarType t = ScalarType.bySpecName(parts[0].toLowerCase(Locale.ROOT))
                .orElseThrow(() -> new IllegalArgumentException("unknown element type '" + parts[0] + "'"));
        if (parts.length == 1) {
            return new BufferComparison(Optional.of(t), 0, 0);
        }
        if (parts.length != 3) {
            throw new IllegalArgumentException("expected TYPE or TYPE:ABS:REL, not '" + text + "'");
        }
        if (!t.floating()) {
            throw new IllegalArgumentException("tolerances apply to float types only, not " + t.specName());
        }
        try {
            return new BufferComparison(Optional.of(t), Double.parseDouble(parts[1]), Double.parseDouble(parts[2]));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not a number in '" + text + "'");
        }
    }

    /**
     * The outcome for one buffer: how many elements differ, and the first of them.
     *
     * @param differing elements (bytes for raw buffers) that do not match
     * @param elements elements compared
     * @param first the first differing element's index, or -1
     * @param firstDetail the first difference as text ("" when none)
     */
    public record Outcome(int differing, int elements, int first, String firstDetail) {
        public boolean same() {
            return differing == 0;
        }
    }

    /** Compares {@code actual} with {@code reference} (the first run's copy; tolerances scale with it). */
    public Outcome compare(byte[] reference, byte[] actual) {
        int size = type.map(ScalarType::size).orElse(1);
        if (reference.length != actual.length) {
            return new Outcome(1, 0, 0, "sizes differ: " + reference.length + " vs " + actual.length + " bytes");
        }
        ByteBuffer x = ByteBuffer.wrap(reference).order(ByteOrder.LITTLE_ENDIAN);
        ByteBuffer y = ByteBuffer.wrap(actual).order(ByteOrder.LITTLE_ENDIAN);
        int n = reference.length / size, differing = 0, first = -1;
        String detail = "";
        for (int i = 0; i < n; i++) {
            long a = element(x, i, size), b = element(y, i, size);
            if (a == b || matches(a, b)) {
                continue;
            }
            if (differing++ == 0) {
                first = i;
                detail = String.format(Locale.ROOT, "element %d at offset 0x%x: %s vs %s", i, i * size, format(a), format(b));
            }
        }
        for (int k = n * size; k < reference.length; k++) { // a tail shorter than one element: bytes
            if (reference[k] != actual[k] && differing++ == 0) {
                first = n;
                detail = String.format(Locale.ROOT, "byte at offset 0x%x: 0x%02x vs 0x%02x", k, reference[k] & 0xff, actual[k] & 0xff);
            }
        }
        return new Outcome(differing, n, first, detail);
    }

    private boolean matches(long reference, long actual) {
        if (type.isEmpty() || !type.get().floating()) {
            return false;
        }
        double e = toDouble(reference), a = toDouble(actual);
        if (Double.isNaN(e) || Double.isNaN(a)) {
            return Double.isNaN(e) && Double.isNaN(a);
        }
        if (Double.isInfinite(e) || Double.isInfinite(a)) {
            return false;
        }
        return Math.abs(a - e) <= abs + rel * Math.abs(e);
    }

    private double toDouble(long bits) {
        return switch (type.orElseThrow()) {
            case F16 -> SmallFloats.halfToFloat((int) bits);
            case BF16 -> SmallFloats.bf16ToFloat((int) bits);
            case F32 -> Float.intBitsToFloat((int) bits);
            case F64 -> Double.longBitsToDouble(bits);
            default -> bits;
        };
    }

    private String format(long bits) {
        if (type.isEmpty()) {
            return String.format(Locale.ROOT, "0x%02x", bits);
        }
        String hex = "0x" + Long.toHexString(bits);
        return switch (type.get()) {
            case F16, BF16, F32, F64 -> toDouble(bits) + " (" + hex + ")";
            case S8 -> (byte) bits + " (" + hex + ")";
            case S16 -> (short) bits + " (" + hex + ")";
            case S32 -> (int) bits + " (" + hex + ")";
            case U64 -> Long.toUnsignedString(bits) + " (" + hex + ")";
            default -> bits + " (" + hex + ")";
        };
    }

    private static long element(ByteBuffer b, int i, int size) {
        return switch (size) {
            case 1 -> b.get(i) & 0xffL;
            case 2 -> b.getShort(2 * i) & 0xffffL;
            case 4 -> b.getInt(4 * i) & 0xffffffffL;
            default -> b.getLong(8 * i);
        };
    }

    @Override
    public String toString() {
        if (type.isEmpty()) {
            return "bytes, exact";
        }
        ScalarType t = type.get();
        if (!t.floating()) {
            return t.specName() + ", exact";
        }
        return abs == 0 && rel == 0 ? t.specName() + ", exact (NaN = NaN)"
                : t.specName() + ", within " + abs + " + " + rel + "*|reference|";
    }
}
