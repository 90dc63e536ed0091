package org.jptxas.scheduler.sass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.spi.TestTargets;

/** Calibration aid: {@code java ... AgreementProbe <sm> <cubin>...} prints the agreement and optionally diffs. */
public final class AgreementProbe {
    public static void main(String[] args) throws Exception {
        String sm = args[0];
        LatencyModel model = LatencyModel.of(TestTargets.of("sm_" + sm));
        ControlAgreement.Tally total = ControlAgreement.Tally.empty();
        boolean diff = Boolean.getBoolean("diff");
        for (int a = 1; a < args.length; a++) {
            Map<String, List<SassLine>> fns = args[a].endsWith(".sass") ? NvdisasmListing.parse(Files.readString(Path.of(args[a])))
                    : DecodedListing.fromCubin(Files.readAllBytes(Path.of(args[a])), TestTargets.of("sm_" + sm).isa());
            for (List<SassLine> f : fns.values()) {
                total = total.plus(ControlAgreement.compare(f, model, Integer.parseInt(sm) < 90));
                if (diff) {
                    System.out.println(ControlAgreement.diff(f, model, Integer.parseInt(sm) < 90));
                }
            }
        }
        System.out.println(total.report("sm_" + sm));
    }
}
