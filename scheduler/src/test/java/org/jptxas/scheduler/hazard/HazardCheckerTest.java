package org.jptxas.scheduler.hazard;

import static org.jptxas.scheduler.TestInstrs.alu;
import static org.jptxas.scheduler.TestInstrs.ldg;
import static org.jptxas.scheduler.TestInstrs.stg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.scheduler.TestInstrs;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.control.ControlWordGenerator;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.SimpleInstr;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

class HazardCheckerTest {
    private final LatencyModel model = LatencyModel.of(TestTargets.of("sm_80"));
    private final HazardChecker checker = new HazardChecker(model);

    private static ControlWord cw(int stall, int wr, int rd, int wait) {
        return new ControlWord(stall, true, wr, rd, wait, 0);
    }

    @Test
    void shortStallOnAFixedLatencyProducerIsARawHazard() {
        List<Hazard> h = checker.check(List.of(alu(1, 2, 3), alu(4, 1, 1)), List.of(cw(2, 7, 7, 0), cw(1, 7, 7, 0)));
        assertEquals(1, h.size());
        assertEquals(HazardKind.RAW_STALL, h.get(0).kind());
        assertEquals(0, h.get(0).producer());
        assertTrue(checker.check(List.of(alu(1, 2, 3), alu(4, 1, 1)), List.of(cw(4, 7, 7, 0), cw(1, 7, 7, 0))).isEmpty());
    }

    @Test
    void readingALoadWithoutWaitingIsAScoreboardHazard() {
        List<SimpleInstr> code = List.of(ldg(2, 4), alu(3, 2, 2));
        assertEquals(HazardKind.RAW_SCOREBOARD, checker.check(code, List.of(cw(2, 2, 7, 0), cw(1, 7, 7, 0))).get(0).kind());
        assertEquals(HazardKind.RAW_SCOREBOARD, checker.check(code, List.of(cw(2, 7, 7, 0), cw(1, 7, 7, 0))).get(0).kind(),
                "no scoreboard at all");
        assertTrue(checker.check(code, List.of(cw(2, 2, 7, 0), cw(1, 7, 7, 0b100))).isEmpty());
    }

    @Test
    void waitingTooSoonAfterTheProducerIsReported() {
        List<SimpleInstr> code = List.of(ldg(2, 4), alu(3, 2, 2));
        assertEquals(HazardKind.WAIT_TOO_EARLY, checker.check(code, List.of(cw(1, 2, 7, 0), cw(1, 7, 7, 0b100))).get(0).kind());
    }

    @Test
    void overwritingAStoreSourceNeedsItsReadScoreboard() {
        List<SimpleInstr> code = List.of(stg(4, 2), alu(2, 3, 3));
        assertEquals(HazardKind.WAR, checker.check(code, List.of(cw(2, 7, 1, 0), cw(1, 7, 7, 0))).get(0).kind());
        assertTrue(checker.check(code, List.of(cw(2, 7, 1, 0), cw(1, 7, 7, 0b10))).isEmpty());
    }

    @Test
    void overwritingAPendingLoadIsAWawHazard() {
        List<SimpleInstr> code = List.of(ldg(2, 4), alu(2, 3, 3));
        assertEquals(HazardKind.WAW, checker.check(code, List.of(cw(2, 3, 7, 0), cw(1, 7, 7, 0))).get(0).kind());
    }

    @Test
    void sharedScoreboardIsNotAnError() {
        List<SimpleInstr> code = List.of(ldg(2, 4), ldg(3, 4), alu(5, 2, 3));
        List<Hazard> h = checker.check(code, List.of(cw(1, 2, 7, 0), cw(2, 2, 7, 0), cw(1, 7, 7, 0b100)));
        assertEquals(1, h.size());
        assertEquals(HazardKind.SCOREBOARD_SHARED, h.get(0).kind());
        assertTrue(!h.get(0).isError());
    }

    private static SimpleInstr xu(int d, int a) {
        return SimpleInstr.builder("xu").name("I2F R" + d + ", R" + a).def(org.jptxas.scheduler.model.RegFile.R, d)
                .use(org.jptxas.scheduler.model.RegFile.R, a).build();
    }

    private static SimpleInstr nop() {
        return SimpleInstr.builder("nop").name("NOP").build();
    }

    @Test
    void aConversionReadWithoutScoreboardIsSafeOnlyPastItsLatencyBound() {
        // ptxas reads I2F/F2I results without a scoreboard 10 or more cycles later (sm80 "xu" maxLatency 10).
        List<SimpleInstr> code = List.of(xu(2, 4), alu(5, 6, 6), alu(3, 2, 2));
        List<Hazard> early = checker.check(code, List.of(cw(1, 7, 7, 0), cw(8, 7, 7, 0), cw(1, 7, 7, 0)));
        assertEquals(HazardKind.RAW_SCOREBOARD, early.get(0).kind(), "read 9 cycles after the I2F");
        assertTrue(checker.check(code, List.of(cw(1, 7, 7, 0), cw(9, 7, 7, 0), cw(1, 7, 7, 0))).isEmpty());
        // A load has no such bound: any distance without a scoreboard is a hazard.
        List<SimpleInstr> load = List.of(ldg(2, 4), alu(5, 6, 6), alu(3, 2, 2));
        assertEquals(HazardKind.RAW_SCOREBOARD,
                checker.check(load, List.of(cw(1, 7, 7, 0), cw(15, 7, 7, 0), cw(1, 7, 7, 0))).get(0).kind());
    }

    @Test
    void overwritingAConversionResultEarlyIsAWawHazard() {
        List<SimpleInstr> code = List.of(xu(2, 4), alu(2, 3, 3));
        assertEquals(HazardKind.WAW, checker.check(code, List.of(cw(2, 7, 7, 0), cw(1, 7, 7, 0))).get(0).kind());
        assertTrue(checker.check(code, List.of(cw(10, 7, 7, 0), cw(1, 7, 7, 0))).isEmpty());
    }

    @Test
    void callsWaitForEveryOutstandingWrite() {
        LatencyModel hopper = LatencyModel.of(TestTargets.of("sm_90"));
        SimpleInstr call = SimpleInstr.builder("call").name("CALL").flag(org.jptxas.scheduler.model.SchedFlag.CALL).build();
        List<ControlWord> words = new ControlWordGenerator(hopper).generate(List.of(alu(2, 3, 3), call));
        assertEquals(7, words.get(0).stall(), "Hopper: an ALU write completes 7 cycles before a CALL may issue");
        assertEquals(2, new ControlWordGenerator(model).generate(List.of(alu(2, 3, 3), call)).get(0).stall());
    }

    @Test
    void aLongWaitIsFrontLoadedOverPaddingAndStaysHazardFree() {
        SimpleInstr mma = SimpleInstr.builder("mmaLong").name("HMMA.16816").def(org.jptxas.scheduler.model.RegFile.R, 8, 4)
                .use(org.jptxas.scheduler.model.RegFile.R, 8, 4).build();
        List<SimpleInstr> code = List.of(mma, nop(), nop(), mma);
        List<ControlWord> words = new ControlWordGenerator(model).generate(code);
        assertEquals(List.of(11, 11, 2), words.subList(0, 3).stream().map(ControlWord::stall).toList(), "as ptxas: 11+11+2");
        assertTrue(checker.check(code, words).isEmpty());
        List<ControlWord> shortened = new java.util.ArrayList<>(words);
        shortened.set(1, cw(10, 7, 7, 0));
        assertEquals(HazardKind.RAW_STALL, checker.check(code, shortened).get(0).kind());
    }

    @Test
    void generatedControlWordsAreHazardFree() {
        ControlWordGenerator gen = new ControlWordGenerator(model);
        for (long seed = 1; seed <= 30; seed++) {
            List<SimpleInstr> code = TestInstrs.random(seed, 400);
            List<Hazard> h = checker.check(code, gen.generate(code)).stream().filter(Hazard::isError).toList();
            assertTrue(h.isEmpty(), "seed " + seed + ": " + h.subList(0, Math.min(5, h.size())));
        }
    }
}
