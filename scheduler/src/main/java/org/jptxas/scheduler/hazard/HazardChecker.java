package org.jptxas.scheduler.hazard;

import java.util.List;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.control.HazardScan;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.SchedInstr;

/**
 * Checks an instruction sequence and its control words against a latency model: reads before a fixed-latency
 * producer completes, reads of variable-latency results without a scoreboard wait, waits issued before their
 * scoreboard is set, overwrites of registers a store may still read (WAR) or a load may still write (WAW), and
 * shared scoreboards (legal, reported for information). State merges at branch targets. Stateless; thread-safe;
 * the simulator reuses it, and {@code jnvdisasm --check-hazards} prints its findings.
 */
public final class HazardChecker {
    private final HazardScan scan;

    public HazardChecker(LatencyModel model) {
        this.scan = new HazardScan(model);
    }

    /** Every hazard of straight-line code, in instruction order. */
    public List<Hazard> check(List<? extends SchedInstr> code, List<ControlWord> control) {
        return check(code, control, ControlFlow.linear(code.size()));
    }

    /** Every hazard, in instruction order, with state merged over {@code flow}'s branch edges. */
    public List<Hazard> check(List<? extends SchedInstr> code, List<ControlWord> control, ControlFlow flow) {
        return scan.check(code, control, flow);
    }
}
