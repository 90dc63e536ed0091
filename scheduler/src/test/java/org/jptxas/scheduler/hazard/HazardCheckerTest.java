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

class HazardCheckerTest {
    private final LatencyModel model = LatencyModel.of("sm80");
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
