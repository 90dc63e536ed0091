package org.jptxas.scheduler.control;

import static org.jptxas.scheduler.TestInstrs.alu;
import static org.jptxas.scheduler.TestInstrs.fma;
import static org.jptxas.scheduler.TestInstrs.ldg;
import static org.jptxas.scheduler.TestInstrs.s2r;
import static org.jptxas.scheduler.TestInstrs.stg;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.SchedFlag;
import org.jptxas.scheduler.model.SimpleInstr;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

class ControlWordTest {
    private final ControlWordGenerator gen = new ControlWordGenerator(LatencyModel.of(TestTargets.of("sm_80")));

    @Test
    void decodesPtxasWordsFromTheFactsSheet() {
        ControlWord exit = ControlWord.fromHighQword(0x000fea0003800000L);
        assertEquals(new ControlWord(5, true, 7, 7, 0, 0), exit);
        assertEquals(0x7f5, exit.pack());
        ControlWord s2r = ControlWord.fromHighQword(0x000e2e0000002100L);
        assertEquals(7, s2r.stall());
        assertEquals(0, s2r.writeSb());
        assertEquals(7, s2r.readSb());
        ControlWord nop = ControlWord.fromHighQword(0x000fc00000000000L);
        assertEquals(0x7e0, nop.pack());
        ControlWord fmul = ControlWord.fromHighQword(0x044fe20000400000L);
        assertEquals(4, fmul.waitMask());
        assertEquals(1, fmul.reuse());
    }

    @Test
    void packRoundTripsEveryField() {
        ControlWord w = new ControlWord(13, false, 3, 5, 0x2a, 0b101);
        assertEquals(w, ControlWord.unpack(w.pack()));
        assertThrows(IllegalArgumentException.class, () -> new ControlWord(16, true, 7, 7, 0, 0));
    }

    @Test
    void fixedLatencyDependenceIsCoveredByTheStallBeforeTheConsumer() {
        List<ControlWord> cw = gen.generate(List.of(alu(1, 2, 3), alu(4, 5, 6), alu(7, 1, 1)));
        assertEquals(2, cw.get(0).stall(), "two ALU ops: the pipe's issue interval");
        assertEquals(2, cw.get(1).stall(), "R1 is ready 4 cycles after issue: 2 + 2");
        assertTrue(cw.get(0).yield());
        List<ControlWord> three = gen.generate(List.of(alu(1, 2, 3), fma(4, 5, 6, 7), alu(7, 1, 1)));
        assertEquals(3, three.get(1).stall(), "1 + 3");
        assertFalse(three.get(1).yield(), "a stall of 3 on a fixed-latency instruction clears bit 109");
    }

    @Test
    void samePipeIssueIntervalIsRespected() {
        List<ControlWord> cw = gen.generate(List.of(alu(1, 2, 3), alu(4, 5, 6), fma(7, 8, 9, 10)));
        assertEquals(2, cw.get(0).stall(), "two ALU ops need 2 cycles");
        assertEquals(1, cw.get(1).stall(), "ALU then FMA dual-pipe: 1");
    }

    @Test
    void variableLatencyProducerGetsAScoreboardThatTheConsumerWaitsOn() {
        List<ControlWord> cw = gen.generate(List.of(ldg(2, 4), alu(3, 2, 2)));
        assertNotEquals(ControlWord.NONE, cw.get(0).writeSb());
        assertEquals(1 << cw.get(0).writeSb(), cw.get(1).waitMask());
        assertTrue(cw.get(0).writeSb() >= 2, "global loads prefer SB2..5");
    }

    /**
     * LDGDEPBAR (cp.async.commit_group) sets SB0, which {@code DEPBAR.LE SB0, n} counts; in code with copy groups no
     * other producer may take SB0 (an S2R prefers it elsewhere), or the wait would count it as a group.
     */
    @Test
    void copyGroupsOwnScoreboardZero() {
        SimpleInstr commit = SimpleInstr.builder("bar").name("LDGDEPBAR").flag(SchedFlag.FENCE)
                .flag(SchedFlag.COPY_GROUP).build();
        List<ControlWord> alone = gen.generate(List.of(s2r(0), alu(1, 0, 0)));
        assertEquals(0, alone.get(0).writeSb(), "without copy groups S2R takes SB0");
        List<ControlWord> cw = gen.generate(List.of(commit, s2r(0), ldg(2, 4), s2r(3), alu(1, 0, 3), alu(5, 2, 2)));
        assertEquals(0, cw.get(0).writeSb(), "LDGDEPBAR sets SB0");
        for (int i = 1; i < cw.size(); i++) {
            assertNotEquals(0, cw.get(i).writeSb(), "instruction " + i + " took the copy groups' scoreboard");
            assertEquals(0, cw.get(i).waitMask() & 1, "instruction " + i + " waits on SB0");
        }
    }

    @Test
    void producersWithTheSameFirstConsumerShareAScoreboard() {
        List<ControlWord> cw = gen.generate(List.of(s2r(0), s2r(3), alu(0, 0, 3)));
        assertEquals(cw.get(0).writeSb(), cw.get(1).writeSb());
        assertEquals(1 << cw.get(0).writeSb(), cw.get(2).waitMask());
    }

    @Test
    void overwritingAStoresSourceWaitsOnItsReadScoreboard() {
        List<ControlWord> cw = gen.generate(List.of(stg(4, 2), alu(2, 3, 3)));
        assertNotEquals(ControlWord.NONE, cw.get(0).readSb());
        assertEquals(1 << cw.get(0).readSb(), cw.get(1).waitMask());
    }

    @Test
    void scoreboardsAreRecycledWhenAllAreBusy() {
        List<SimpleInstr> code = new java.util.ArrayList<>();
        for (int i = 0; i < 8; i++) {
            code.add(ldg(20 + i, 2));
        }
        for (int i = 0; i < 8; i++) {
            code.add(alu(40 + i, 20 + i, 20 + i));
        }
        List<ControlWord> cw = gen.generate(code);
        for (int i = 0; i < 8; i++) {
            assertTrue(cw.get(i).writeSb() < 6);
        }
        assertTrue(new org.jptxas.scheduler.hazard.HazardChecker(LatencyModel.of(TestTargets.of("sm_80"))).check(code, cw).stream()
                .noneMatch(org.jptxas.scheduler.hazard.Hazard::isError));
    }

    @Test
    void reuseFlagMarksTheSameRegisterInTheSameSlot() {
        List<ControlWord> cw = gen.generate(List.of(fma(1, 2, 3, 4), fma(5, 2, 6, 4)));
        assertEquals(0b101, cw.get(0).reuse());
        assertTrue(cw.get(0).yield(), ".reuse needs bit 109");
    }

    @Test
    void branchesStallFiveAndNopsZero() {
        SimpleInstr bra = SimpleInstr.builder("branch").flag(SchedFlag.BRANCH).build();
        SimpleInstr nop = SimpleInstr.builder("nop").flag(SchedFlag.NOP).build();
        List<ControlWord> cw = gen.generate(List.of(bra, alu(1, 2, 3), nop));
        assertEquals(5, cw.get(0).stall());
        assertEquals(0, cw.get(2).stall());
        assertFalse(cw.get(2).yield());
    }

    @Test
    void predicateToBranchNeedsThirteenCycles() {
        SimpleInstr setp = SimpleInstr.builder("alu").def(RegFile.P, 0).use(RegFile.R, 1).build();
        SimpleInstr exit = SimpleInstr.builder("branch").guard(RegFile.P, 0).flag(SchedFlag.EXIT).build();
        assertEquals(13, gen.generate(List.of(setp, exit)).get(0).stall());
    }
}
