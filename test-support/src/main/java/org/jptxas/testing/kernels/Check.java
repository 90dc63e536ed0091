package org.jptxas.testing.kernels;

/**
 * How an output buffer is compared with the reference. {@code EXACT}: every bit. {@code FLOAT}: every bit, except
 * that any NaN matches any NaN (PTX produces canonical NaNs, Java keeps payloads). {@code TOLERANCE}: floats within
 * {@code abs + rel * |expected|} (for documented approximations such as {@code sin.approx}); NaN matches NaN and an
 * infinity only itself.
 */
public record Check(Mode mode, double abs, double rel) {
    public enum Mode { EXACT, FLOAT, TOLERANCE }

    public static final Check EXACT = new Check(Mode.EXACT, 0, 0);
    public static final Check FLOAT = new Check(Mode.FLOAT, 0, 0);

    public static Check within(double abs, double rel) {
        return new Check(Mode.TOLERANCE, abs, rel);
    }

    boolean matches(Elem elem, long expected, long actual) {
        if (expected == actual) {
            return true;
        }
        if (mode == Mode.EXACT || !elem.floating()) {
            return false;
        }
        double e = elem.toDouble(expected);
        double a = elem.toDouble(actual);
        if (Double.isNaN(e) || Double.isNaN(a)) {
            return Double.isNaN(e) && Double.isNaN(a);
        }
        if (mode == Mode.FLOAT || Double.isInfinite(e) || Double.isInfinite(a)) {
            return false;
        }
        return Math.abs(a - e) <= abs + rel * Math.abs(e);
    }

    @Override
    public String toString() {
        return mode == Mode.TOLERANCE ? "within " + abs + " + " + rel + "*|expected|" : mode.name().toLowerCase();
    }
}
