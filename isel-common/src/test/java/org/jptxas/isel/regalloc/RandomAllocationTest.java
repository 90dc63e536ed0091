package org.jptxas.isel.regalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.OptionalInt;
import org.jptxas.ori.analysis.IrPrinter;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.ir.OriFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;
import org.jptxas.ori.target.TargetProfile;

/** Random functions allocated under several limits, each checked by the allocation verifier. */
class RandomAllocationTest {
    private static final TargetProfile SM80 = TestTargets.profile("sm_80");

    @ParameterizedTest
    @ValueSource(ints = {24, 32, 64, 255})
    void randomFunctionsVerify(int limit) {
        RegisterLimits limits = RegisterLimits.of(SM80, OptionalInt.of(limit), OptionalInt.empty());
        for (long seed = 1; seed <= 60; seed++) {
            OriFunction f = RandomFunctions.generate(seed, 400);
            assertEquals(java.util.List.of(), IrVerifier.verify("k", f.body()), "generator, seed " + seed);
            Allocation a = RegisterAllocator.allocate(f, limits, true);
            assertTrue(a.registers() <= limit, "seed " + seed + ": " + a);
        }
    }

    @Test
    void sameSeedSameCode() {
        RegisterLimits limits = RegisterLimits.of(SM80, OptionalInt.of(32), OptionalInt.empty());
        OriFunction a = RandomFunctions.generate(7, 2000);
        OriFunction b = RandomFunctions.generate(7, 2000);
        RegisterAllocator.allocate(a, limits);
        RegisterAllocator.allocate(b, limits);
        assertEquals(IrPrinter.print(a), IrPrinter.print(b));
    }

    @Test
    void largeFunctionAllocatesQuickly() {
        OriFunction f = RandomFunctions.generate(11, 30000, 2000);
        long t0 = System.nanoTime();
        Allocation a = RegisterAllocator.allocate(f, RegisterLimits.of(SM80));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        System.out.println("30000 random instructions: " + ms + " ms, " + a);
        assertTrue(ms < 60_000, ms + " ms");
    }
}
