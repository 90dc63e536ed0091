package org.jptxas.scheduler.sass;

import java.nio.file.Files;
import java.util.List;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.jptxas.spi.TestTargets;

/**
 * Calibration aid: the hazards the checker reports in ptxas 13's cubins of the kernel suite, per SM
 * ({@code java ... SuiteHazardProbe [sm_80 ...]}; all five SMs by default).
 */
public final class SuiteHazardProbe {
    public static void main(String[] args) throws Exception {
        List<String> sms = args.length > 0 ? List.of(args) : List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
        for (String sm : sms) {
            int total = 0;
            for (KernelCase k : KernelSuite.all()) {
                if (!k.supports(Integer.parseInt(sm.substring(3)))) {
                    continue;
                }
                OracleCubins.Compiled c = OracleCubins.ptxas13(k.ptx(), sm);
                if (!c.ok()) {
                    continue;
                }
                List<String> h = ControlAgreement.checkHazards(Files.readAllBytes(c.cubin().orElseThrow()), TestTargets.of(sm));
                total += h.size();
                h.forEach(x -> System.out.println(sm + " " + k.name() + " " + x));
            }
            System.out.println(sm + ": hazards in ptxas's suite cubins: " + total);
        }
    }
}
