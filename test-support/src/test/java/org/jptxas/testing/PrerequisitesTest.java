package org.jptxas.testing;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** A missing prerequisite skips a test on a developer machine and fails it under CI. */
class PrerequisitesTest {
    @Test
    void missingSkipsLocallyAndFailsUnderCi() {
        assertDoesNotThrow(() -> Prerequisites.require(true, "x", true));
        assertThrows(TestAbortedException.class, () -> Prerequisites.require(false, "nvdisasm", false));
        AssertionFailedError e = assertThrows(AssertionFailedError.class,
                () -> Prerequisites.require(false, "nvdisasm", true));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("nvdisasm"));
    }
}
