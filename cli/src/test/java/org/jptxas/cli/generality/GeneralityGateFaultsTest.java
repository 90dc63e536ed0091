package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jptxas.cli.generality.FormSuite.Report;
import org.jptxas.cli.generality.RandomDifferential.Outcome;
import org.jptxas.cli.generality.RandomProgram.Program;
import org.jptxas.cli.generality.ThreeWay.Compiler;
import org.jptxas.tables.ptx.PtxInstructionSet;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Test;

/**
 * Planted faults for the generators' gates: each gate passes on good input and fails on a compiler that
 * miscompiles, one that crashes, an empty input and a stale known failure. jptxas stands in for ptxas (no oracle
 * needed): the gates' logic is under test, not the compilers.
 */
class GeneralityGateFaultsTest {
    static final List<String> KEYS = List.of("add.s32 r, r, r", "mul.lo.u32 r, r, i", "setp.lt.s32 p, r, r",
            "ld.global.u32 r, [rd]", "@p sub.s64 r, r, r");

    static List<FormCase> cases() {
        Map<String, FormCase> all = FormCatalog.all(PtxInstructionSet.bundled()).stream()
                .collect(Collectors.toMap(FormCase::key, c -> c, (a, b) -> a));
        return KEYS.stream().map(all::get).toList();
    }

    /** jptxas on a text with {@code from} replaced by {@code to}: a compiler that miscompiles one instruction. */
    static Compiler miscompiling(String from, String to) {
        return (name, ptx, sm) -> ThreeWay.JPTXAS.compile(name, ptx.replace(from, to), sm);
    }

    static final Compiler CRASHING = (name, ptx, sm) -> ThreeWay.Compiled.crashed(new IllegalStateException("boom"));

    static Gate formGate(List<FormCase> cases, Compiler jptxas, Map<String, String> known) {
        Report r = FormSuite.run("sm_80", cases, jptxas, ThreeWay.JPTXAS, 1);
        return FormFailures.gate(List.of(r), known);
    }

    @Test
    void formGatePassesOnGoodInputAndFailsOnEachFault() {
        List<FormCase> cases = cases();
        Gate good = formGate(cases, ThreeWay.JPTXAS, Map.of());
        assertTrue(good.passes(cases.size()), good.summary() + good.differences());

        Gate wrong = formGate(cases, miscompiling("mul.lo.u32 %o0", "add.u32 %o0"), Map.of());
        assertFalse(wrong.passes(cases.size()), "a miscompiled instruction must fail the gate");
        assertEquals(1, wrong.differences().size(), wrong.differences().toString());

        Gate crash = formGate(cases, CRASHING, Map.of());
        assertFalse(crash.passes(1), "a crashing compiler must fail the gate");
        assertEquals(cases.size(), crash.crashes().size());

        Gate empty = formGate(List.of(), ThreeWay.JPTXAS, Map.of());
        assertFalse(empty.passes(1), "nothing compared must fail the gate");

        Gate stale = formGate(cases, ThreeWay.JPTXAS, Map.of("sm_80 | JPTXAS_DIFFERS | add.s32", "planted"));
        assertFalse(stale.passes(cases.size()), "a listed failure that does not occur must fail the gate");
        assertEquals(1, stale.stale().size());

        // the failure listed by its key is excused; unlisted it fails
        String key = FormFailures.key("sm_80", FormSuite.run("sm_80", cases,
                miscompiling("mul.lo.u32 %o0", "add.u32 %o0"), ThreeWay.JPTXAS, 1).failures().get(0));
        Gate excused = formGate(cases, miscompiling("mul.lo.u32 %o0", "add.u32 %o0"), Map.of(key, "planted"));
        assertTrue(excused.passes(cases.size()), excused.summary());
    }

    static Gate randomGate(long from, int n, Compiler jptxas, Map<String, String> known) {
        List<Outcome> outcomes = RandomProgramDifferentialTest.runAll(from, n, jptxas, ThreeWay.JPTXAS, 1);
        return RandomProgramDifferentialTest.gate(outcomes, known);
    }

    @Test
    void randomGatePassesOnGoodInputAndFailsOnEachFault() {
        Gate good = randomGate(1, 2, ThreeWay.JPTXAS, Map.of());
        assertTrue(good.passes(2), good.summary() + good.differences());

        // every program ends by storing its variables, the first a 32-bit one at offset 0: store it 4 bytes off
        Gate wrong = randomGate(1, 2, miscompiling("st.global.b32 [%addr+0],", "st.global.b32 [%addr+4],"), Map.of());
        assertFalse(wrong.passes(2), "a miscompiled instruction must fail the gate: " + wrong.summary());

        Gate crash = randomGate(1, 2, CRASHING, Map.of());
        assertFalse(crash.passes(1));
        assertEquals(2, crash.crashes().size());

        Gate empty = randomGate(1, 0, ThreeWay.JPTXAS, Map.of());
        assertFalse(empty.passes(1));

        Gate stale = randomGate(1, 2, ThreeWay.JPTXAS, Map.of("seed 1", "planted"));
        assertFalse(stale.passes(2));
    }

    @Test
    void reducerKeepsTheFailureAndShrinksTheProgram() {
        Program p = RandomProgram.generate(7, "sm_80");
        // a planted failure: the program has a division (or, if not, an addition)
        String n = RandomProgram.render(p).contains("div.") ? "div." : "add.";
        Program small = Reducer.reduce(p, q -> RandomProgram.render(q).contains(n), 2000);
        assertTrue(RandomProgram.render(small).contains(n), "the reduced program must still fail");
        assertTrue(Reducer.size(small) < Reducer.size(p) / 3,
                "reduced from " + Reducer.size(p) + " to " + Reducer.size(small) + " statements only");
    }
}
