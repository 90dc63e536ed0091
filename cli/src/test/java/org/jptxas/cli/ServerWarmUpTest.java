package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.Writer;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The compile server's warm-up compiles its kernel cleanly, with line tables, for the first request's target. */
class ServerWarmUpTest {
    @Test
    void theKernelCompilesWithoutAMessageButTheReport() {
        for (String target : List.of("sm_75", "sm_80", "sm_90a")) {
            StringWriter err = new StringWriter();
            int rc = ServerWarmUp.compile(Registries.fresh(), null, target, new PrintWriter(Writer.nullWriter()),
                    new PrintWriter(err));
            assertEquals(0, rc, err.toString());
            assertTrue(err.toString().contains("Compiling entry function 'saxpy' for '" + target + "'"), err.toString());
            assertTrue(err.toString().lines().noneMatch(l -> l.contains("warning") || l.contains("error")),
                    err.toString());
        }
    }

    @Test
    void targetIsTheRequestsOrPtxasDefault() {
        assertEquals("sm_90a", ServerWarmUp.targetOf(List.of("-lineinfo", "-v", "--gpu-name=sm_90a", "k.ptx")));
        assertEquals("sm_86", ServerWarmUp.targetOf(List.of("k.ptx", "-o", "k.cubin", "-arch", "sm_86")));
        assertEquals("sm_75", ServerWarmUp.targetOf(List.of("-arch=compute_80", "k.ptx")));
        assertEquals("sm_75", ServerWarmUp.targetOf(List.of("--version")));
    }
}
