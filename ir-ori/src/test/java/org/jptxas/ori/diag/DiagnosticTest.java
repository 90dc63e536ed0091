package org.jptxas.ori.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DiagnosticTest {
    @Test
    void formatsLikePtxas() {
        assertEquals("jptxas bad.ptx, line 7; error   : Unknown symbol '%q'",
                Diagnostic.error("bad.ptx", 7, "Unknown symbol '%q'").format("jptxas"));
        assertEquals("jptxas k.ptx, line 3; warning : w", Diagnostic.warning("k.ptx", 3, "w").format("jptxas"));
        assertEquals("jptxas fatal   : Ptx assembly aborted due to errors",
                Diagnostic.fatal("Ptx assembly aborted due to errors").format("jptxas"));
        assertEquals("jptxas info    : 0 bytes gmem", Diagnostic.info("0 bytes gmem").format("jptxas"));
    }
}
