package org.jptxas.testing;

import org.junit.jupiter.api.Assumptions;
import org.opentest4j.AssertionFailedError;

/**
 * What a test needs from the machine: an oracle tool or the shared corpus. On a developer's bare JDK a missing
 * prerequisite skips the test; under CI ({@code CI=true}, or {@code -Djptxas.strict=true}) every prerequisite must be
 * there, so a missing one fails the test instead of turning it into a skip that looks like a pass.
 */
public final class Prerequisites {
    private Prerequisites() {}

    /** Whether missing prerequisites fail (CI) rather than skip. */
    public static boolean strict() {
        return "true".equalsIgnoreCase(System.getenv("CI")) || Boolean.getBoolean("jptxas.strict");
    }

    /** Returns when {@code present}; otherwise skips the calling test, or fails it in {@link #strict()} mode. */
    public static void require(boolean present, String missing) {
        require(present, missing, strict());
    }

    static void require(boolean present, String missing, boolean strict) {
        if (present) {
            return;
        }
        if (strict) {
            throw new AssertionFailedError("CI requires what this test needs, and it is missing: " + missing);
        }
        Assumptions.assumeTrue(false, missing);
    }
}
