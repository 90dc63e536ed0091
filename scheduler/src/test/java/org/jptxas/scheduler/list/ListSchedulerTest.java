package org.jptxas.scheduler.list;

import static org.jptxas.scheduler.TestInstrs.alu;
import static org.jptxas.scheduler.TestInstrs.fma;
import static org.jptxas.scheduler.TestInstrs.ldg;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.scheduler.TestInstrs;
import org.jptxas.scheduler.dag.DagBuilder;
import org.jptxas.scheduler.dag.DepGraph;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.SimpleInstr;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

class ListSchedulerTest {
    private final LatencyModel model = LatencyModel.of(TestTargets.of("sm_80"));
    private final ListScheduler scheduler = new ListScheduler(model);

    @Test
    void ilpHoistsTheLongLatencyLoadAboveIndependentWork() {
        List<SimpleInstr> block = List.of(alu(10, 11, 12), alu(13, 14, 15), alu(16, 17, 18), ldg(2, 4), alu(3, 2, 2));
        Schedule s = scheduler.schedule(block, SchedOptions.ilp());
        assertEquals(3, s.order()[0], "the load goes first: " + java.util.Arrays.toString(s.order()));
        assertEquals(4, s.order()[4], "its consumer last, the ALU work hides part of the load latency");
    }

    @Test
    void reduceRegIssuesASpecialRegisterReadBeforeLongerIndependentWork() {
        // A long ALU chain whose end consumes an S2R, and a shorter second chain still taller than the S2R's path: by
        // height the read would wait behind both chains' heads; ptxas starts it early, so its variable latency hides.
        List<SimpleInstr> block = new ArrayList<>();
        for (int k = 0; k < 40; k++) {
            block.add(alu(101 + k, 100 + k, 100 + k));
        }
        for (int k = 0; k < 20; k++) {
            block.add(alu(201 + k, 200 + k, 200 + k));
        }
        block.add(TestInstrs.s2r(30));
        block.add(alu(60, 140, 30));
        Schedule s = scheduler.schedule(block, SchedOptions.reduceReg(64));
        assertValid(block, s.order());
        int at = 0;
        while (s.order()[at] != 60) {
            at++;
        }
        assertTrue(at <= 1, "the S2R issues right after the critical chain's head: " + java.util.Arrays.toString(s.order()));
    }

    @Test
    void everyOrderRespectsEveryDependence() {
        for (SchedOptions opt : List.of(SchedOptions.ilp(), SchedOptions.reduceReg(24), SchedOptions.dynBatch())) {
            for (long seed = 1; seed <= 20; seed++) {
                List<SimpleInstr> block = TestInstrs.random(seed, 300);
                Schedule s = scheduler.schedule(block, opt);
                assertValid(block, s.order());
            }
        }
    }

    @Test
    void scheduleIsDeterministic() {
        List<SimpleInstr> block = TestInstrs.random(42, 2000);
        assertArrayEquals(scheduler.schedule(block, SchedOptions.ilp()).order(), scheduler.schedule(block, SchedOptions.ilp()).order());
        assertArrayEquals(scheduler.schedule(block, SchedOptions.reduceReg(32)).order(),
                scheduler.schedule(block, SchedOptions.reduceReg(32)).order());
    }

    @Test
    void reduceRegKeepsFewerValuesLiveThanIlp() {
        // Eight independent chains: load, then a long tail of work on the loaded value. ILP starts every load early
        // (eight values live at once); ReduceReg under a tight budget finishes chains before starting new ones.
        List<SimpleInstr> block = new ArrayList<>();
        for (int c = 0; c < 8; c++) {
            int base = 20 + c * 4;
            block.add(ldg(base, 2));
            block.add(fma(base + 1, base, base, base));
            block.add(fma(base + 2, base + 1, base + 1, base + 1));
            block.add(TestInstrs.sts(3, base + 2));
        }
        int ilp = scheduler.schedule(block, SchedOptions.ilp()).maxLive();
        int reduce = scheduler.schedule(block, SchedOptions.reduceReg(8)).maxLive();
        assertTrue(reduce < ilp, "ReduceReg max live " + reduce + " vs ILP " + ilp);
    }

    @Test
    void longBlocksAreSplitIntoRegions() {
        List<SimpleInstr> block = TestInstrs.random(3, 9000);
        Schedule s = scheduler.schedule(block, SchedOptions.ilp());
        assertValid(block, s.order());
        for (int k = 0; k < 4095; k++) {
            assertTrue(s.order()[k] < 4095, "region 1 stays in place");
        }
    }

    @Test
    void fiftyThousandInstructionBlockSchedulesUnderASecond() {
        // CPU time of this thread, best of three: the build machine is shared, so wall time measures the neighbours.
        List<SimpleInstr> block = TestInstrs.random(11, 50_000);
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        for (SchedOptions opt : List.of(SchedOptions.ilp(), SchedOptions.reduceReg(64))) {
            long best = Long.MAX_VALUE;
            for (int run = 0; run < 4; run++) {
                long t0 = mx.getCurrentThreadCpuTime();
                Schedule s = scheduler.schedule(block, opt);
                best = Math.min(best, mx.getCurrentThreadCpuTime() - t0);
                assertEquals(50_000, s.order().length);
            }
            assertTrue(best < 1_000_000_000L, opt.mode() + " took " + best / 1_000_000 + " ms of CPU");
        }
    }

    private void assertValid(List<SimpleInstr> block, int[] order) {
        int[] pos = new int[order.length];
        boolean[] seen = new boolean[order.length];
        for (int k = 0; k < order.length; k++) {
            assertTrue(!seen[order[k]], "each instruction once");
            seen[order[k]] = true;
            pos[order[k]] = k;
        }
        DepGraph g = new DagBuilder(model).build(block);
        for (int i = 0; i < g.size(); i++) {
            for (int e = g.succBegin(i); e < g.succEnd(i); e++) {
                int s = g.succ(e);
                boolean sameRegion = i / 4095 == s / 4095;
                assertTrue(!sameRegion || pos[i] < pos[s], "edge " + i + " -> " + s + " (" + g.succKind(e) + ") violated");
            }
        }
    }
}
