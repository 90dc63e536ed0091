package org.jptxas.cli.generality;

import java.util.List;
import org.jptxas.cli.generality.RandomProgram.Program;
import org.jptxas.cli.generality.ThreeWay.Compiled;
import org.jptxas.cli.generality.ThreeWay.Compiler;
import org.jptxas.cli.generality.ThreeWay.LegResult;

/**
 * One random program three ways: the interpreter on its text, the emulator on jptxas's cubin and on ptxas 13's. The
 * outputs are compared bit for bit, except that a NaN equals any NaN (the programs do not control NaN payloads,
 * which the GPU and the models propagate differently; the instruction-form suite compares them exactly).
 */
final class RandomDifferential {
    private RandomDifferential() {}

    /** SMs by seed: seed n runs on {@code SMS[n mod 5]}. */
    static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    static String smOf(long seed) {
        return SMS.get((int) Math.floorMod(seed, SMS.size()));
    }

    /** How a program ended. */
    enum Verdict {
        /** Interpreter, jptxas's cubin and ptxas's cubin agree. */
        AGREE(true),
        /** Interpreter and jptxas's cubin agree; the emulator cannot run ptxas's cubin (its SASS tables lack forms). */
        AGREE_PTXAS_UNRUN(true),
        PTXAS_REJECTS(false),
        JPTXAS_CANNOT_COMPILE(false),
        JPTXAS_CRASH(false),
        INTERPRETER_FAILS(false),
        /** jptxas's cubin computes something else than the interpreter (or faults where it completes). */
        JPTXAS_MISMATCH(false),
        /** ptxas's cubin runs and computes something else than the interpreter: a finding (ptxas or interpreter). */
        PTXAS_MISMATCH(false);

        final boolean agrees;

        Verdict(boolean agrees) {
            this.agrees = agrees;
        }
    }

    record Outcome(long seed, String sm, Verdict verdict, String detail) {}

    /** The program of a seed, three ways. */
    static Outcome run(long seed, Compiler jptxas, Compiler ptxas) {
        String sm = smOf(seed);
        return run(seed, sm, RandomProgram.generate(seed, sm), jptxas, ptxas);
    }

    static Outcome run(long seed, String sm, Program p, Compiler jptxas, Compiler ptxas) {
        String text = RandomProgram.module(p, sm);
        FormKernels.Kernel k = RandomProgram.kernel(p);
        Compiled theirs = ptxas.compile("rp.ptx", text, sm);
        if (!theirs.ok()) {
            return new Outcome(seed, sm, Verdict.PTXAS_REJECTS, FormSuite.firstError(theirs));
        }
        Compiled ours = jptxas.compile("rp.ptx", text, sm);
        if (!ours.ok()) {
            return new Outcome(seed, sm, ours.crash() != null ? Verdict.JPTXAS_CRASH : Verdict.JPTXAS_CANNOT_COMPILE,
                    FormSuite.firstError(ours));
        }
        LegResult a = ThreeWay.run(ThreeWay.interpreter("rp.ptx", text), sm, k);
        if (!a.completed()) {
            return new Outcome(seed, sm, Verdict.INTERPRETER_FAILS, FormSuite.describe(a));
        }
        LegResult j = ThreeWay.run(ThreeWay.emulator(sm, ours.cubin()), sm, k);
        String dj = FormSuite.differs(null, true, k, a, j);
        if (dj != null) {
            return new Outcome(seed, sm, Verdict.JPTXAS_MISMATCH, dj);
        }
        LegResult pl = ThreeWay.run(ThreeWay.emulator(sm, theirs.cubin()), sm, k);
        if (!pl.completed() && unrunnable(pl)) {
            return new Outcome(seed, sm, Verdict.AGREE_PTXAS_UNRUN, FormSuite.describe(pl));
        }
        String dp = FormSuite.differs(null, true, k, a, pl);
        if (dp != null) {
            return new Outcome(seed, sm, Verdict.PTXAS_MISMATCH, dp);
        }
        return new Outcome(seed, sm, Verdict.AGREE, "");
    }

    /** The emulator stopped at an instruction it cannot decode or execute (a gap of its tables, not a result). */
    static boolean unrunnable(LegResult r) {
        return r.detail() != null && r.detail().contains("unimplemented instruction");
    }

    /** Whether {@code p} still fails the way {@code o} did (for the reducer). */
    static boolean stillFails(Outcome o, Program p, Compiler jptxas, Compiler ptxas) {
        Outcome again = run(o.seed(), o.sm(), p, jptxas, ptxas);
        return again.verdict() == o.verdict();
    }
}
