package org.jptxas.frontend.ptx.ast;

import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Optional;

/** Structural equality of model trees that ignores source positions (what a parse/print round trip preserves). */
public final class ModelEquality {
    private ModelEquality() {}

    public static boolean equalIgnoringPositions(Object a, Object b) {
        return firstDifference(a, b).isEmpty();
    }

    /** A path to the first difference, for test messages; empty when equal. */
    public static Optional<String> firstDifference(Object a, Object b) {
        return diff(a, b, "");
    }

    private static Optional<String> diff(Object a, Object b, String path) {
        if (a == b) {
            return Optional.empty();
        }
        if (a == null || b == null) {
            return Optional.of(path + ": " + a + " vs " + b);
        }
        if (a instanceof SourcePos && b instanceof SourcePos) {
            return Optional.empty();
        }
        if (a.getClass() != b.getClass()) {
            return Optional.of(path + ": " + a.getClass().getSimpleName() + " vs " + b.getClass().getSimpleName());
        }
        if (a instanceof List<?> la) {
            List<?> lb = (List<?>) b;
            if (la.size() != lb.size()) {
                return Optional.of(path + ": list size " + la.size() + " vs " + lb.size());
            }
            for (int i = 0; i < la.size(); i++) {
                Optional<String> d = diff(la.get(i), lb.get(i), path + "[" + i + "]");
                if (d.isPresent()) {
                    return d;
                }
            }
            return Optional.empty();
        }
        if (a.getClass().isRecord()) {
            for (RecordComponent c : a.getClass().getRecordComponents()) {
                try {
                    Object va = c.getAccessor().invoke(a);
                    Object vb = c.getAccessor().invoke(b);
                    Optional<String> d = diff(va, vb, path + "." + c.getName());
                    if (d.isPresent()) {
                        return d;
                    }
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException("record accessor " + c, e);
                }
            }
            return Optional.empty();
        }
        return a.equals(b) ? Optional.empty() : Optional.of(path + ": " + a + " vs " + b);
    }
}
