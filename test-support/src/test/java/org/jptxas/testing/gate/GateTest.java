package org.jptxas.testing.gate;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;

/** Each way a gate must fail: too little compared, a crash, an oracle failure, a difference, a stale exception. */
class GateTest {
    @Test
    void passesOnlyWithEnoughComparedAndNothingWrong() {
        Gate g = Gate.named("g");
        assertFalse(g.passes(1), "an empty run fails");
        g.pass(3);
        assertTrue(g.passes(3));
        assertFalse(g.passes(4));
        assertDoesNotThrow(() -> g.verify(3));
        assertThrows(IllegalArgumentException.class, () -> g.verify(0), "a gate must ask for a minimum");
    }

    @Test
    void crashesOracleFailuresAndDifferencesFail() {
        Gate crash = Gate.named("crash");
        crash.pass(5);
        crash.crash("k.ptx sm_80", new IllegalStateException("boom"));
        AssertionFailedError e = assertThrows(AssertionFailedError.class, () -> crash.verify(1));
        assertTrue(e.getMessage().contains("k.ptx sm_80: java.lang.IllegalStateException: boom"), e.getMessage());

        Gate oracle = Gate.named("oracle");
        oracle.pass();
        oracle.oracleFailed("k.ptx", "nvdisasm: exit 1");
        assertFalse(oracle.passes(1));

        Gate diff = Gate.named("diff");
        diff.differ("k.ptx", "want A got B");
        assertEquals(1, diff.compared());
        assertFalse(diff.passes(1));
    }

    @Test
    void knownExceptionsAreExactAndGoStale() {
        Gate g = Gate.withKnown("known", Map.of("a.ptx", "reason a", "b.ptx", "reason b"));
        g.differ("a.ptx", "differs for reason a");
        assertFalse(g.passes(1), "b.ptx did not occur: stale");
        assertEquals(1, g.stale().size());
        g.differ("b.ptx", "differs for reason b");
        assertTrue(g.passes(2));
        g.differ("c.ptx", "unlisted");
        assertFalse(g.passes(2));
    }
}
