package org.jptxas.frontend.ptx.lower;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.Reg;

/**
 * The scaled reciprocals of {@code div.approx.f32} / {@code div.full.f32} divisors a function has computed so far in
 * its current PTX block, so that a later division by the same register reuses the range tests and the {@code MUFU.RCP}
 * and only scales its own dividend, as ptxas does (softmax normalisation divides 64 values by one row sum).
 *
 * <p>An entry is valid while everything emitted after it runs only after it and its divisor keeps its value: it is
 * recorded only by an unguarded division, dropped when any instruction writes the divisor register, and all entries
 * are dropped at a label or a call. Its own registers are fresh and written once, so they keep their values.
 */
final class SharedReciprocals {
    /** The range tests ({@code null} when the form has none) and the reciprocal of the scaled divisor. */
    record Scaled(Reg big, Reg small, Reg reciprocal) {
    }

    private record Key(Reg divisor, boolean ftz, boolean full) {
    }

    private final Map<Key, Scaled> known = new HashMap<>();

    /** What an earlier division by {@code divisor} of the same form computed, or null. */
    Scaled lookup(Reg divisor, boolean ftz, boolean full) {
        return known.get(new Key(divisor, ftz, full));
    }

    void remember(Reg divisor, boolean ftz, boolean full, Scaled scaled) {
        known.put(new Key(divisor, ftz, full), scaled);
    }

    /** An instruction writes {@code dsts}: entries whose divisor overlaps one of them no longer hold. */
    void written(List<Reg> dsts) {
        if (known.isEmpty()) {
            return;
        }
        for (Reg d : dsts) {
            known.keySet().removeIf(k -> k.divisor().sameRegister(d));
        }
    }

    /** Control may arrive from elsewhere (a label) or registers change behind the lowering's back (a call). */
    void forgetAll() {
        known.clear();
    }
}
