package org.jptxas.scheduler.sass;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.testing.Processes;

/** Calibration aid: {@code java ... AgreementProbe <sm> <cubin>...} prints the agreement and optionally diffs. */
public final class AgreementProbe {
    public static void main(String[] args) throws Exception {
        String sm = args[0];
        LatencyModel model = LatencyModel.forTarget("sm_" + sm).orElseThrow();
        Path nvdisasm = Path.of(System.getProperty("user.home"), ".cache/cuda-oracle/12.5/usr/bin/nvdisasm");
        ControlAgreement.Tally total = ControlAgreement.Tally.empty();
        boolean diff = Boolean.getBoolean("diff");
        for (int a = 1; a < args.length; a++) {
            String text = args[a].endsWith(".sass") ? Files.readString(Path.of(args[a]))
                    : Processes.run(List.of(nvdisasm.toString(), "-hex", "-c", args[a]), Path.of(".")).stdout();
            Map<String, List<SassLine>> fns = NvdisasmListing.parse(text);
            for (List<SassLine> f : fns.values()) {
                total = total.plus(ControlAgreement.compare(f, model, Integer.parseInt(sm)));
                if (diff) {
                    System.out.println(ControlAgreement.diff(f, model, Integer.parseInt(sm)));
                }
            }
        }
        System.out.println(total.report("sm_" + sm));
    }
}
