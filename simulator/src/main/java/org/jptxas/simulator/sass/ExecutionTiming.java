package org.jptxas.simulator.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jptxas.spi.TargetDescription;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.hazard.HazardChecker;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.latency.OpClass;
import org.jptxas.scheduler.model.SimpleInstr;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.scheduler.sass.DecodedListing;
import org.jptxas.scheduler.sass.SassLine;

/**
 * Hazards and cycles along the paths warps actually executed, with the scheduler's latency model and the control
 * words encoded in the cubin: each distinct warp issue trace (the instruction addresses in issue order, loops
 * unrolled as they ran), split per thread (a thread reads only what it wrote, whatever other diverged groups of its
 * warp issued in between), is checked by the scheduler's {@link HazardChecker} as straight-line code, so every
 * register read is checked against the producer that really preceded it (stall counts, yields, scoreboard set and wait as
 * encoded). The cycle estimate per warp issues each instruction after its stall count and after the scoreboards it
 * waits on are released (variable-latency results at the model's expected latency).
 */
final class ExecutionTiming {
    /** Trace entries checked per launch at most (the rest is reported as not checked). */
    static final int CHECK_BUDGET = 2_000_000;

    private final LatencyModel model;
    private final boolean urInAddressBits;
    private final Map<String, List<SassLine>> lines;
    private final Map<String, ControlAgreement.Decoded> decoded = new HashMap<>();

    private ExecutionTiming(LatencyModel model, boolean urInAddressBits, Map<String, List<SassLine>> lines) {
        this.model = model;
        this.urInAddressBits = urInAddressBits;
        this.lines = lines;
    }

    static ExecutionTiming of(byte[] cubin, TargetDescription target) {
        return new ExecutionTiming(LatencyModel.of(target), ControlAgreement.urInAddressBits(target),
                DecodedListing.fromCubin(cubin, target.isa()));
    }

    private synchronized ControlAgreement.Decoded function(String name) {
        return decoded.computeIfAbsent(name, n -> {
            List<SassLine> l = lines.get(n);
            if (l == null) {
                throw new IllegalArgumentException("no code for " + n);
            }
            return ControlAgreement.decode(l, model, urInAddressBits);
        });
    }

    SassEmulator.Timing analyze(String function, Map<SassMachine.Trace, int[]> traces, boolean truncated) {
        ControlAgreement.Decoded d = function(function);
        List<SassLine> code = lines.get(function);
        for (int i = 0; i < code.size(); i++) {
            if (code.get(i).address() != 16L * i) {
                return SassEmulator.Timing.unavailable("the scheduler's listing of " + function + " is not one line per instruction");
            }
        }
        HazardChecker checker = new HazardChecker(model);
        Set<String> found = new LinkedHashSet<>();
        long warps = 0, min = Long.MAX_VALUE, max = 0, total = 0;
        long budget = CHECK_BUDGET;
        boolean partial = truncated;
        Set<SassMachine.Trace> threadTraces = new LinkedHashSet<>();
        for (Map.Entry<SassMachine.Trace, int[]> e : traces.entrySet()) {
            int[] issued = e.getKey().pcs();
            int count = e.getValue()[0];
            long cycles = cycles(d, issued);
            warps += count;
            total += cycles * count;
            min = Math.min(min, cycles);
            max = Math.max(max, cycles);
            // Hazards are per thread: diverged groups of a warp interleave, but a thread only reads what it wrote.
            int lanes = 0;
            for (int i = 1; i < issued.length; i += 2) {
                lanes |= issued[i];
            }
            for (int l = 0; l < 32; l++) {
                if ((lanes >>> l & 1) == 0) {
                    continue;
                }
                int[] mine = new int[issued.length / 2];
                int n = 0;
                for (int i = 0; i < issued.length; i += 2) {
                    if ((issued[i + 1] >>> l & 1) != 0) {
                        mine[n++] = issued[i];
                    }
                }
                threadTraces.add(new SassMachine.Trace(java.util.Arrays.copyOf(mine, n)));
            }
        }
        for (SassMachine.Trace t : threadTraces) {
            int[] pcs = t.pcs();
            if (budget < pcs.length) {
                partial = true;
                continue;
            }
            budget -= pcs.length;
            List<SimpleInstr> instrs = new ArrayList<>(pcs.length);
            List<ControlWord> control = new ArrayList<>(pcs.length);
            for (int pc : pcs) {
                instrs.add(d.instrs().get(pc));
                control.add(d.fileControl().get(pc));
            }
            for (Hazard h : checker.check(instrs, control)) {
                if (h.isError()) {
                    SassLine at = code.get(pcs[h.index()]);
                    found.add(String.format("%s+0x%04x: %s: %s (%s)", function, at.address(), h.kind(), h.detail(), at.text()));
                }
            }
        }
        return new SassEmulator.Timing(List.copyOf(found), warps, warps == 0 ? 0 : min, max, total, partial, Optional.empty());
    }

    /** Issue cycles of one warp trace: stall counts, scoreboard waits released at the producers' expected latency. */
    private long cycles(ControlAgreement.Decoded d, int[] issued) {
        long cycle = 0;
        long[] released = new long[Math.max(6, model.scoreboards())];
        for (int i = 0; i < issued.length; i += 2) {
            int pc = issued[i];
            ControlWord cw = d.fileControl().get(pc);
            for (int k = 0; k < released.length; k++) {
                if ((cw.waitMask() >>> k & 1) != 0) {
                    cycle = Math.max(cycle, released[k]);
                }
            }
            OpClass c = model.findClass(d.instrs().get(pc).latencyClass()).orElse(null);
            int latency = c == null ? 1 : model.expectedLatency(c);
            if (cw.writeSb() != ControlWord.NONE && cw.writeSb() < released.length) {
                released[cw.writeSb()] = cycle + latency;
            }
            if (cw.readSb() != ControlWord.NONE && cw.readSb() < released.length) {
                released[cw.readSb()] = Math.max(released[cw.readSb()], cycle + model.scoreboardSetup() + 1);
            }
            cycle += Math.max(1, cw.stall());
        }
        return cycle;
    }
}
