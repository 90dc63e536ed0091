package org.jptxas.simulator.kernels;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;

/** Every suite kernel's PTX is accepted by ptxas 13 for each SM the suite targets (cubins are cached on disk). */
class KernelSuitePtxasTest {
    static final List<String> ARCHES = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    @Test
    void ptxas13AcceptsEveryKernelForEveryTargetSm() {
        Oracles.assumePtxas13();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        KernelSuite.all().parallelStream().forEach(k -> {
            for (String arch : ARCHES) {
                if (!k.supports(Integer.parseInt(arch.substring(3)))) {
                    continue;
                }
                OracleCubins.Compiled c = OracleCubins.ptxas13(k.ptx(), arch);
                if (!c.ok()) {
                    failures.add(k.name() + " " + arch + ": " + c.diagnostics().strip());
                }
            }
        });
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }

    @Test
    void kernelsNeedingSm80AreMarked() {
        for (KernelCase k : KernelSuite.all()) {
            if (k.name().equals("warp_redux")) {
                assertTrue(!k.supports(75) && k.supports(80));
            }
        }
    }
}
