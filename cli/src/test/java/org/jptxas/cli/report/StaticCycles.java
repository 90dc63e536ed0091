package org.jptxas.cli.report;

import java.util.List;
import java.util.Map;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.sass.DecodedListing;
import org.jptxas.scheduler.sass.SassLine;
import org.jptxas.scheduler.sass.SassReader;
import org.jptxas.spi.TestTargets;

/**
 * A static issue-cycle estimate of a cubin's code, for comparing schedules: the instructions are issued once each in
 * address order (no branch taken); each advances the clock by its stall count, a scoreboard wait holds issue until
 * the producer that set the scoreboard is due — at the latency model's expected latency of its class for results,
 * its read latency for sources. Hides memory latency or not, as the schedule does; ignores loops and divergence.
 */
final class StaticCycles {
    private StaticCycles() {}

    /** The estimate per function name, over each function's first {@code counted.get(name)} instructions. */
    static long of(byte[] cubin, int sm, Map<String, Integer> counted) {
        LatencyModel model = java.util.Optional.of(LatencyModel.of(TestTargets.of("sm_" + sm))).orElse(null);
        if (model == null) {
            return 0;
        }
        SassReader parser = new SassReader(model, sm < 90);
        long total = 0;
        for (Map.Entry<String, List<SassLine>> f : DecodedListing.fromCubin(cubin, TestTargets.of("sm_" + sm).isa()).entrySet()) {
            List<SassLine> lines = f.getValue();
            int n = Math.min(lines.size(), counted.getOrDefault(f.getKey(), lines.size()));
            long t = 0;
            long[] due = new long[6];
            for (int i = 0; i < n; i++) {
                SassLine l = lines.get(i);
                ControlWord w = ControlWord.fromHighQword(l.hi());
                for (int b = 0; b < 6; b++) {
                    if ((w.waitMask() >> b & 1) != 0) {
                        t = Math.max(t, due[b]);
                    }
                }
                OpClass c = model.findClass(parser.parse(l).instr().latencyClass()).orElse(null);
                if (c != null && w.writeSb() < 6) {
                    due[w.writeSb()] = Math.max(due[w.writeSb()], t + model.expectedLatency(c));
                }
                if (c != null && w.readSb() < 6) {
                    due[w.readSb()] = Math.max(due[w.readSb()], t + Math.max(1, c.war()));
                }
                t += Math.max(1, w.stall());
            }
            total += t;
        }
        return total;
    }
}
