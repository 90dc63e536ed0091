package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.junit.jupiter.api.Test;

/** Divisions by one divisor share its range tests and reciprocal while the divisor keeps its value, as ptxas's do. */
class SharedReciprocalsTest {
    private static final String REGS = ".reg .pred %p<2>; .reg .b32 %r<8>;\n";

    private static long count(String body, String prefix) throws CompilationException {
        List<String> code = LowerersTest.kernel("", REGS + body + "\nret;");
        return code.stream().filter(l -> l.startsWith(prefix)).count();
    }

    @Test
    void aSecondDivisionBySameRegisterReusesTheReciprocal() throws CompilationException {
        String body = "div.full.f32 %r4, %r1, %r3;\ndiv.full.f32 %r5, %r2, %r3;";
        assertEquals(1, count(body, "MUFU.RCP"));
        assertEquals(2, count(body, "FSETP"));
        assertEquals(1, count("div.approx.f32 %r4, %r1, %r3;\ndiv.approx.f32 %r5, %r2, %r3;", "MUFU.RCP"));
    }

    @Test
    void aChangedDivisorOrAJoinComputesItAgain() throws CompilationException {
        assertEquals(2, count("div.full.f32 %r4, %r1, %r3;\nmov.f32 %r3, %r6;\ndiv.full.f32 %r5, %r2, %r3;", "MUFU.RCP"));
        assertEquals(2, count("div.full.f32 %r3, %r1, %r3;\ndiv.full.f32 %r5, %r2, %r3;", "MUFU.RCP"));
        assertEquals(2, count("div.full.f32 %r4, %r1, %r3;\n$L1:\ndiv.full.f32 %r5, %r2, %r3;\n@%p1 bra $L1;",
                "MUFU.RCP"));
        // a guarded division's reciprocal exists only where its guard held
        assertEquals(2, count("@%p1 div.full.f32 %r4, %r1, %r3;\ndiv.full.f32 %r5, %r2, %r3;", "MUFU.RCP"));
        assertEquals(2, count("div.full.f32 %r4, %r1, %r3;\ndiv.approx.f32 %r5, %r2, %r3;", "MUFU.RCP"));
    }

    @Test
    void aGuardedDivisionMayUseAnEarlierOne() throws CompilationException {
        assertEquals(1, count("div.full.f32 %r4, %r1, %r3;\n@%p1 div.full.f32 %r5, %r2, %r3;", "MUFU.RCP"));
    }
}
