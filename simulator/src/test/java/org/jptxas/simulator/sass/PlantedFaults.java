package org.jptxas.simulator.sass;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.RegRange;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.scheduler.sass.DecodedListing;
import org.jptxas.scheduler.sass.SassLine;
import org.jptxas.spi.TestTargets;

/**
 * Faults planted in a cubin's encoded control bits, for the tests that prove a hazard gate fails on bad code (shared
 * with cli's gates on jptxas's own cubins through this module's test jar).
 */
public final class PlantedFaults {
    private PlantedFaults() {}

    /** The mutated cubin, and which wait of which instruction was dropped. */
    public record Planted(byte[] cubin, String function, int index, int scoreboard, String text) {
        public String where() {
            return String.format("%s+0x%04x: wait on SB%d dropped (%s)", function, 16 * index, scoreboard, text);
        }
    }

    /**
     * Drops the first needed scoreboard wait of the cubin's code: the instruction reads a register the nearest earlier
     * setter of the scoreboard writes, nothing between them waits on that scoreboard, and fewer cycles pass between
     * them than the producer's latency class may take (its {@code maxLatency}). The bit is cleared in the encoded
     * word ([121:116] of the instruction); nothing else changes.
     */
    public static Optional<Planted> dropNeededWait(byte[] cubinBytes, String sm) {
        LatencyModel model = LatencyModel.of(TestTargets.of(sm));
        int smNumber = Integer.parseInt(sm.replaceAll("\\D", ""));
        for (Map.Entry<String, List<SassLine>> f : DecodedListing.fromCubin(cubinBytes, TestTargets.of(sm).isa()).entrySet()) {
            ControlAgreement.Decoded d = ControlAgreement.decode(f.getValue(), model, smNumber < 90);
            for (int i = 0; i < d.instrs().size(); i++) {
                int sb = neededWait(d, i, model);
                if (sb >= 0) {
                    return Optional.of(new Planted(clearWait(cubinBytes, f.getKey(), i, sb), f.getKey(), i, sb,
                            f.getValue().get(i).text()));
                }
            }
        }
        return Optional.empty();
    }

    /** The scoreboard instruction {@code i} must wait on for a read (see {@link #dropNeededWait}), or -1. */
    static int neededWait(ControlAgreement.Decoded d, int i, LatencyModel model) {
        ControlWord w = d.fileControl().get(i);
        for (int sb = 0; sb < 6; sb++) {
            if ((w.waitMask() >> sb & 1) == 0) {
                continue;
            }
            int cycles = 0;
            for (int p = i - 1; p >= 0; p--) {
                ControlWord pw = d.fileControl().get(p);
                cycles += pw.stall();
                if (pw.writeSb() == sb) {
                    int max = model.findClass(d.instrs().get(p).latencyClass()).map(c -> c.maxLatency()).orElse(0);
                    if (overlaps(d.instrs().get(p).defs(), d.instrs().get(i).uses()) && (max == 0 || cycles < max)) {
                        return sb;
                    }
                    break;
                }
                if ((pw.waitMask() >> sb & 1) != 0) {
                    break;
                }
            }
        }
        return -1;
    }

    private static boolean overlaps(List<RegRange> a, List<RegRange> b) {
        return a.stream().anyMatch(r -> b.stream().anyMatch(r::overlaps));
    }

    /** The cubin with the wait on {@code sb} of instruction {@code index} of {@code function} cleared. */
    public static byte[] clearWait(byte[] cubinBytes, String function, int index, int sb) {
        Cubin cubin = Cubin.read(cubinBytes);
        for (int s = 0; s < cubin.sections().size(); s++) {
            Section text = cubin.section(s);
            if (text.isText() && text.functionName().equals(function)) {
                byte[] code = text.data().clone();
                ByteBuffer b = ByteBuffer.wrap(code).order(ByteOrder.LITTLE_ENDIAN);
                long hi = b.getLong(16 * index + 8);
                long bit = 1L << (41 + 11 + sb); // the wait mask sits at bits 11..16 of the control field at [105]
                if ((hi & bit) == 0) {
                    throw new IllegalArgumentException(function + "[" + index + "] does not wait on SB" + sb);
                }
                b.putLong(16 * index + 8, hi & ~bit);
                return cubin.withSection(s, text.withData(code)).write();
            }
        }
        throw new IllegalArgumentException("no .text section for " + function);
    }
}
