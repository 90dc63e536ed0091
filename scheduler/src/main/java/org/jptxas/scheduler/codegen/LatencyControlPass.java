package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.CodeLine;
import org.jptxas.isel.codegen.ControlPass;
import org.jptxas.isel.sass.Control;
import org.jptxas.ori.target.Target;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.control.ControlWordGenerator;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.scheduler.sass.SassLine;

/**
 * Control bits from the target's latency model: the SASS text is read back into scheduler instructions
 * ({@link org.jptxas.scheduler.sass.SassText}), the control flow comes from the labels, and
 * {@link ControlWordGenerator} places stalls, scoreboards and waits. Keeps the order. Operand reuse is left off:
 * the reuse flags are part of the instruction text ({@code .reuse}), which the emitter owns.
 */
public final class LatencyControlPass implements ControlPass {
    private final LatencyModel model;

    public LatencyControlPass(LatencyModel model) {
        this.model = model;
    }

    /** The pass with the latency model of {@code target}. */
    public static LatencyControlPass forTarget(Target target) {
        return new LatencyControlPass(LatencyModel.forTarget(target.name()).or(() -> LatencyModel.forTarget("sm_" + target.sm()))
                .orElseThrow(() -> new IllegalArgumentException("no latency model for " + target.name())));
    }

    @Override
    public List<CodeLine> apply(List<CodeLine> code, Target target) {
        List<SassLine> lines = new ArrayList<>(code.size());
        for (int i = 0; i < code.size(); i++) {
            CodeLine c = code.get(i);
            lines.add(new SassLine("", i * 16, c.text(), 0, 0, c.label()));
        }
        ControlAgreement.Decoded d = ControlAgreement.decode(lines, model, target.sm());
        List<ControlWord> words = new ControlWordGenerator(model).generate(d.instrs(), d.flow());
        List<CodeLine> out = new ArrayList<>(code.size());
        for (int i = 0; i < code.size(); i++) {
            ControlWord w = words.get(i);
            out.add(code.get(i).withControl(new Control(w.stall(), w.yield(), w.writeSb(), w.readSb(), w.waitMask())));
        }
        return out;
    }
}
