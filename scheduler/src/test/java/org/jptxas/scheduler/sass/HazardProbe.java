package org.jptxas.scheduler.sass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.spi.TestTargets;

/** Calibration aid: prints the hazards the checker finds in ptxas's own control words, with context. */
public final class HazardProbe {
    public static void main(String[] args) throws Exception {
        int sm = Integer.parseInt(args[0]);
        LatencyModel model = LatencyModel.of(TestTargets.of("sm_" + sm));
        for (int a = 1; a < args.length; a++) {
            for (List<SassLine> f : NvdisasmListing.parse(Files.readString(Path.of(args[a]))).values()) {
                for (Hazard h : ControlAgreement.checkHazards(f, model, sm < 90)) {
                    if (!h.isError()) {
                        continue;
                    }
                    System.out.println(args[a] + " " + h);
                    int from = Math.max(0, Math.min(h.producer() < 0 ? h.index() : h.producer(), h.index()) - 1);
                    for (int i = from; i <= h.index() && i < from + 12; i++) {
                        SassLine l = f.get(i);
                        System.out.printf("   %04x %-50.50s %s%n", l.address(), l.text(),
                                org.jptxas.scheduler.control.ControlWord.fromHighQword(l.hi()));
                    }
                }
            }
        }
    }
}
