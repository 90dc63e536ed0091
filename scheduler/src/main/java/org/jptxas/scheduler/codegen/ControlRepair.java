package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.hazard.HazardChecker;
import org.jptxas.scheduler.hazard.HazardKind;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.SchedInstr;

/**
 * The code generator's last line of defence: the static {@link HazardChecker} verifies the generated control words,
 * and each hazard it reports is repaired conservatively — a read too soon after a fixed-latency producer lengthens
 * the stall of the instructions issuing just before it (on the fall-through and on every branch into it), a read of
 * a variable-latency result without its scoreboard gets the wait, and so does an overwrite of a register a late reader
 * may still read or a variable-latency producer may still write. Repeats until the checker is satisfied (or gives
 * up after a few rounds, leaving what is left for the checker's users to see).
 */
final class ControlRepair {
    private static final int ROUNDS = 8;
    private static final int ALL_SCOREBOARDS = 0x3f;

    private ControlRepair() {}

    /** Repaired control words and the hazards the checker still finds in them. */
    record Repaired(List<ControlWord> words, List<Hazard> hazards) {}

    static Repaired repair(LatencyModel model, List<? extends SchedInstr> code, List<ControlWord> words,
                           ControlFlow flow) {
        HazardChecker checker = new HazardChecker(model);
        List<ControlWord> out = new ArrayList<>(words);
        for (int round = 0; round < ROUNDS; round++) {
            boolean changed = false;
            List<Hazard> hazards = checker.check(code, out, flow);
            for (Hazard h : hazards) {
                if (h.isError()) {
                    changed |= fix(h, out, flow);
                }
            }
            if (!changed) {
                // the words the last check saw: its hazards are the final ones (a check of a large function is costly)
                return new Repaired(out, hazards);
            }
        }
        return new Repaired(out, checker.check(code, out, flow));
    }

    private static boolean fix(Hazard h, List<ControlWord> words, ControlFlow flow) {
        int i = h.index();
        if (h.kind() == HazardKind.RAW_SCOREBOARD && h.producer() >= 0) {
            int sb = words.get(h.producer()).writeSb();
            ControlWord w = words.get(i);
            if (sb != ControlWord.NONE && (w.waitMask() >> sb & 1) == 0) {
                words.set(i, new ControlWord(w.stall(), w.yield(), w.writeSb(), w.readSb(), w.waitMask() | 1 << sb, w.reuse()));
                return true;
            }
            // the named producer's scoreboard is waited already, but where paths merge the register is still covered
            // by another producer's: wait on the scoreboards the checker saw pending
            int missing = h.pendingSb() & ALL_SCOREBOARDS & ~w.waitMask();
            if (missing != 0) {
                words.set(i, new ControlWord(w.stall(), w.yield(), w.writeSb(), w.readSb(), w.waitMask() | missing, w.reuse()));
                return true;
            }
            return false;
        }
        if ((h.kind() == HazardKind.WAR || h.kind() == HazardKind.WAW) && h.producer() >= 0) {
            // a late read or a variable-latency write still pending (often from the previous loop iteration): wait on
            // the scoreboard that releases it
            ControlWord p = words.get(h.producer());
            int sb = h.kind() == HazardKind.WAR ? p.readSb() : p.writeSb();
            ControlWord w = words.get(i);
            if (sb != ControlWord.NONE && (w.waitMask() >> sb & 1) == 0) {
                words.set(i, new ControlWord(w.stall(), w.yield(), w.writeSb(), w.readSb(), w.waitMask() | 1 << sb, w.reuse()));
                return true;
            }
            // merged over paths, another scoreboard covers it: wait on every scoreboard set by then
            if (w.waitMask() != ALL_SCOREBOARDS) {
                words.set(i, new ControlWord(w.stall(), w.yield(), w.writeSb(), w.readSb(), ALL_SCOREBOARDS, w.reuse()));
                return true;
            }
        }
        int deficit = Math.max(1, h.shortBy());
        boolean changed = false;
        if (i > 0 && flow.fallsInto(i)) {
            changed |= lengthen(words, i - 1, deficit);
        }
        for (int p : flow.jumpPredecessors(i)) {
            changed |= lengthen(words, p, deficit);
        }
        return changed;
    }

    private static boolean lengthen(List<ControlWord> words, int at, int cycles) {
        ControlWord w = words.get(at);
        int stall = Math.min(15, w.stall() + cycles);
        if (stall == w.stall()) {
            return false;
        }
        words.set(at, new ControlWord(stall, w.yield(), w.writeSb(), w.readSb(), w.waitMask(), w.reuse()));
        return true;
    }
}
