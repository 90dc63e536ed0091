package org.jptxas.scheduler.dag;

import static org.jptxas.scheduler.TestInstrs.alu;
import static org.jptxas.scheduler.TestInstrs.fma;
import static org.jptxas.scheduler.TestInstrs.ldg;
import static org.jptxas.scheduler.TestInstrs.lds;
import static org.jptxas.scheduler.TestInstrs.stg;
import static org.jptxas.scheduler.TestInstrs.sts;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.scheduler.TestInstrs;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.MemKind;
import org.jptxas.scheduler.model.MemSpace;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SimpleInstr;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

class DagBuilderTest {
    private final LatencyModel model = LatencyModel.of(TestTargets.of("sm_80"));
    private final DagBuilder builder = new DagBuilder(model);
    private final DagBuilder afterAllocation = new DagBuilder(model, true);

    @Test
    void registerDependencesCarryTableLatencies() {
        DepGraph g = builder.build(List.of(alu(1, 2, 3), fma(4, 1, 1, 1), alu(2, 5, 5), alu(1, 6, 6)));
        assertTrue(g.hasEdge(0, 1, DepKind.RAW));
        assertEquals(5, latency(g, 0, 1), "ALU result read by the FMA pipe: 5 cycles");
        assertTrue(g.hasEdge(0, 2, DepKind.WAR), "R2 read by 0, rewritten by 2");
        assertTrue(g.hasEdge(0, 3, DepKind.WAW));
        assertTrue(g.hasEdge(1, 3, DepKind.WAR));
        assertFalse(g.hasEdge(1, 2, DepKind.RAW));
    }

    @Test
    void predicatesUniformRegistersAndGuardsAreTracked() {
        SimpleInstr setp = TestInstrs.isetp(0, 1, 2);
        SimpleInstr guarded = SimpleInstr.builder("alu").def(RegFile.R, 9).use(RegFile.R, 8).guard(RegFile.P, 0).build();
        SimpleInstr branch = SimpleInstr.builder("branch").guard(RegFile.P, 0).flag(SchedFlag.BRANCH).build();
        SimpleInstr uw = SimpleInstr.builder("udp").def(RegFile.UR, 4).build();
        SimpleInstr ur = SimpleInstr.builder("alu").def(RegFile.R, 3).use(RegFile.UR, 4).build();
        DepGraph g = builder.build(List.of(setp, guarded, uw, ur, branch));
        assertTrue(g.hasEdge(0, 1, DepKind.RAW));
        assertEquals(13, latency(g, 0, 4), "predicate to a branch: 13 cycles");
        assertTrue(g.hasEdge(2, 3, DepKind.RAW));
        assertTrue(g.hasEdge(3, 4, DepKind.ORDER), "the branch stays last");
    }

    @Test
    void zeroRegistersCreateNoDependences() {
        DepGraph g = builder.build(List.of(alu(255, 1, 1), alu(2, 255, 255)));
        assertEquals(0, g.edgeCount());
    }

    @Test
    void memoryIsOrderedPerStateSpace() {
        DepGraph g = builder.build(List.of(stg(10, 1), ldg(2, 12), lds(3, 4), sts(5, 6), lds(7, 8)));
        assertTrue(g.hasEdge(0, 1, DepKind.MEMORY), "global store before global load");
        assertFalse(g.hasEdge(0, 2, DepKind.MEMORY), "shared does not alias global");
        assertTrue(g.hasEdge(2, 3, DepKind.MEMORY), "shared load before shared store");
        assertTrue(g.hasEdge(3, 4, DepKind.MEMORY));
        assertFalse(g.hasEdge(1, 2, DepKind.MEMORY), "loads do not order loads");
    }

    @Test
    void genericAliasesEverySpaceAndFencesOrderAll() {
        SimpleInstr st = SimpleInstr.builder("stg").use(RegFile.R, 1).mem(MemKind.STORE, MemSpace.GENERIC).build();
        SimpleInstr fence = SimpleInstr.builder("membar").flag(SchedFlag.FENCE).build();
        DepGraph g = builder.build(List.of(lds(3, 4), st, ldg(5, 6), fence, lds(7, 8)));
        assertTrue(g.hasEdge(0, 1, DepKind.MEMORY));
        assertTrue(g.hasEdge(1, 2, DepKind.MEMORY));
        assertTrue(g.hasEdge(2, 3, DepKind.MEMORY));
        assertTrue(g.hasEdge(3, 4, DepKind.MEMORY));
    }

    @Test
    void callsAreFullOrderingPoints() {
        SimpleInstr call = SimpleInstr.builder("call").flag(SchedFlag.CALL).build();
        DepGraph g = builder.build(List.of(alu(1, 2, 3), alu(4, 5, 6), call, alu(7, 8, 9)));
        assertTrue(g.hasEdge(0, 2, DepKind.ORDER));
        assertTrue(g.hasEdge(1, 2, DepKind.ORDER));
        assertTrue(g.hasEdge(2, 3, DepKind.ORDER));
    }

    @Test
    void barriersOrderMemoryAndControlButNotRegisterArithmetic() {
        SimpleInstr bar = SimpleInstr.builder("bar").flag(SchedFlag.BARRIER).build();
        SimpleInstr shfl = SimpleInstr.builder("shfl").def(RegFile.R, 20).use(RegFile.R, 21).flag(SchedFlag.FENCE).build();
        SimpleInstr branch = SimpleInstr.builder("branch").guard(RegFile.P, 0).flag(SchedFlag.BRANCH).build();
        // 0 alu, 1 sts, 2 bar, 3 alu (compare for the branch), 4 lds, 5 shfl, 6 alu, 7 branch
        DepGraph g = afterAllocation.build(List.of(alu(1, 2, 3), sts(4, 5), bar, TestInstrs.isetp(0, 6, 7), lds(8, 9), shfl,
                alu(10, 11, 12), branch));
        assertFalse(g.hasEdge(0, 2, DepKind.ORDER), "register arithmetic may sink below the barrier");
        assertFalse(g.hasEdge(2, 3, DepKind.ORDER), "or rise above it");
        assertFalse(g.hasEdge(2, 6, DepKind.ORDER));
        assertTrue(g.hasEdge(1, 2, DepKind.MEMORY) || g.hasEdge(1, 2, DepKind.ORDER), "the store stays above");
        assertTrue(g.hasEdge(2, 4, DepKind.MEMORY) || g.hasEdge(2, 4, DepKind.ORDER), "the load stays below");
        assertTrue(g.hasEdge(2, 5, DepKind.MEMORY) || g.hasEdge(2, 5, DepKind.ORDER), "a warp collective stays below");
        for (int i : new int[] {0, 3, 6}) {
            assertTrue(g.hasEdge(i, 7, DepKind.ORDER) || g.hasEdge(i, 7, DepKind.RAW), "the branch stays last: " + i);
        }
        assertTrue(g.hasEdge(2, 7, DepKind.ORDER));
    }

    @Test
    void beforeAllocationNothingCrossesABarrier() {
        SimpleInstr bar = SimpleInstr.builder("barSync").flag(SchedFlag.BARRIER).build();
        DepGraph g = builder.build(List.of(alu(1, 2, 3), bar, alu(7, 8, 9)));
        assertTrue(g.hasEdge(0, 1, DepKind.ORDER));
        assertTrue(g.hasEdge(1, 2, DepKind.ORDER));
    }

    @Test
    void barrierResultsAndWarpBarriersKeepTheirPlace() {
        SimpleInstr bar = SimpleInstr.builder("barSync").flag(SchedFlag.BARRIER).build();
        SimpleInstr b2r = SimpleInstr.builder("s2r").def(RegFile.R, 30).build(); // B2R.RESULT: variable latency
        DepGraph g = afterAllocation.build(List.of(bar, b2r));
        assertTrue(g.hasEdge(0, 1, DepKind.ORDER), "a barrier's result is read after it");
        SimpleInstr warpsync = SimpleInstr.builder("bssy").use(RegFile.R, 9).flag(SchedFlag.BARRIER)
                .flag(SchedFlag.CONTROL).build();
        DepGraph w = afterAllocation.build(List.of(alu(1, 2, 3), warpsync, alu(4, 5, 6)));
        assertTrue(w.hasEdge(0, 1, DepKind.ORDER), "nothing crosses a warp barrier");
        assertTrue(w.hasEdge(1, 2, DepKind.ORDER));
    }

    @Test
    void edgeCountStaysLinear() {
        int n = 50_000;
        DepGraph g = builder.build(TestInstrs.random(7, n));
        assertEquals(n, g.size());
        assertTrue(g.edgeCount() < 20L * n, "edges: " + g.edgeCount());
        for (int i = 0; i < n; i++) {
            for (int e = g.succBegin(i); e < g.succEnd(i); e++) {
                assertTrue(g.succ(e) > i, "edges go forward");
            }
        }
    }

    @Test
    void regionsSplitAndChunk() {
        assertEquals(List.of(new Regions.Range(0, 4095), new Regions.Range(4095, 8190), new Regions.Range(8190, 10000)),
                Regions.splitBlock(10000));
        assertEquals(List.of(new Regions.Range(0, 2), new Regions.Range(2, 3), new Regions.Range(3, 4)),
                Regions.chunkBlocks(new int[] {8000, 8000, 20000, 5}));
    }

    private static int latency(DepGraph g, int from, int to) {
        for (int e = g.succBegin(from); e < g.succEnd(from); e++) {
            if (g.succ(e) == to) {
                return g.succLatency(e);
            }
        }
        return -1;
    }
}
