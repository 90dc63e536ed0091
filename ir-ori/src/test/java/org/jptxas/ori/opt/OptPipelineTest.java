package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** The fixed point runs a pass again only when the body changed after the pass last left it unchanged. */
class OptPipelineTest {
    /** Records its runs; changes the body (reports true) on the runs listed in {@code changing}. */
    private static final class Recording implements Pass {
        private final String name;
        private final List<Integer> changing;
        private final List<String> log;
        private int runs;

        Recording(String name, List<Integer> changing, List<String> log) {
            this.name = name;
            this.changing = changing;
            this.log = log;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean run(FunctionBody body, OptContext cx) {
            log.add(name + runs);
            return changing.contains(runs++);
        }
    }

    private static List<String> run(List<Integer> aChanges, List<Integer> bChanges, List<Integer> cChanges) {
        List<String> log = new ArrayList<>();
        List<String> observed = new ArrayList<>();
        OptPipeline.of(List.of(new Recording("a", aChanges, log), new Recording("b", bChanges, log),
                        new Recording("c", cChanges, log)))
                .observedBy((pass, fn, changed) -> observed.add(pass.name()))
                .run(exitOnly(), TestProfiles.of("sm_80"));
        log.add("observed " + observed.size());
        return log;
    }

    @Test
    void aRoundWithoutChangeRunsEveryPassOnce() {
        assertEquals(List.of("a0", "b0", "c0", "observed 3"), run(List.of(), List.of(), List.of()));
    }

    @Test
    void theConfirmingRoundRunsOnlyThePassesBeforeAndAtTheLastChange() {
        // b changes in round 0: a and b run again in round 1 (a's input changed, b changed it itself), c ran on
        // b's result and nothing changed it since, so it is not run; every pass is still observed each round
        assertEquals(List.of("a0", "b0", "c0", "a1", "b1", "observed 6"),
                run(List.of(), List.of(0), List.of()));
    }

    @Test
    void aChangeInALaterRoundRunsThePassesAfterItAgain() {
        assertEquals(List.of("a0", "b0", "c0", "a1", "b1", "c1", "a2", "b2", "observed 9"),
                run(List.of(), List.of(0, 1), List.of()));
    }

    @Test
    void aPassListedTwiceIsNotRerunOnTheBodyItConfirmed() {
        // d appears before and after c: its second place in round 0 confirms the body c changed, so round 1 does
        // not run it at its first place either; as two instances, the first would run again
        List<String> log = new ArrayList<>();
        Recording d = new Recording("d", List.of(), log);
        Recording c = new Recording("c", List.of(0), log);
        runPasses(List.of(d, c, d));
        assertEquals(List.of("d0", "c0", "d1", "c1"), log);
        log.clear();
        runPasses(List.of(new Recording("d", List.of(), log), new Recording("c", List.of(0), log),
                new Recording("e", List.of(), log)));
        assertEquals(List.of("d0", "c0", "e0", "d1", "c1"), log);
    }

    @Test
    void aSharedPassThatChangedRunsAgainAtItsSecondPlace() {
        List<String> log = new ArrayList<>();
        Recording d = new Recording("d", List.of(0), log);
        runPasses(List.of(d, new Recording("c", List.of(), log), d));
        // round 1 runs nothing: d's second run confirmed the body c had confirmed before it
        assertEquals(List.of("d0", "c0", "d1"), log);
    }

    private static void runPasses(List<Pass> passes) {
        OptPipeline.of(passes).run(exitOnly(), TestProfiles.of("sm_80"));
    }

    /** A kernel whose one block only exits: the recording passes never look at it. */
    private static OriFunction exitOnly() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        b.instrs().add(new Instr(OpInfo.op("EXIT"), List.of(), List.of(), List.of(), Guard.ALWAYS, 0));
        return new OriFunction("k", true, 0, f);
    }
}
