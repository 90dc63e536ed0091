package org.jptxas.simulator.suite;

import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;

/** The size of the kernel suite the backends' end-to-end tests run: the README's figures. */
class SuiteInventoryTest {
    @Test
    void kernelsAndPairs() {
        Figures.check("suite.kernels", KernelSuite.all().size());
        Figures.check("suite.pairs", SuiteRun.pairs(KernelSuite.all()).size());
    }
}
