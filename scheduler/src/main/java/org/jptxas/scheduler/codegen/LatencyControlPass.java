package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.hazard.HazardKind;
import java.util.List;
import java.util.Optional;
import org.jptxas.isel.codegen.CodeLine;
import org.jptxas.isel.codegen.CodegenContext;
import org.jptxas.isel.codegen.ControlPass;
import org.jptxas.isel.codegen.FunctionLayout;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassOp;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.spi.TargetDescription;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.control.ControlWordGenerator;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.model.ControlFlow;
import org.jptxas.scheduler.model.SimpleInstr;
import org.jptxas.scheduler.sass.ControlAgreement;

/**
 * The scheduler in the code generator, with the target's latency model. From -O1 on: the Ori of each block is
 * reordered before register allocation in ReduceReg mode ({@link PreRaScheduler}) and the allocated SASS of each
 * block in ILP mode ({@link PostRaScheduler}); at -O0 the order stays as generated. Then, always,
 * {@link ControlWordGenerator} places stalls, yields, scoreboards and waits, and {@link ReuseFlags} the operand-reuse
 * flags (written into the text as {@code .reuse}, where the encoding tables have the form). The static hazard checker
 * then verifies the words and {@link ControlRepair} lengthens stalls or adds waits where it objects.
 * {@link #apply(List, Target)} (no compilation context) keeps the order.
 */
public final class LatencyControlPass implements ControlPass {
    private final TargetDescription description;
    private final LatencyModel model;
    private final boolean repair;
    /** The lines' scheduling view, shared by every function this pass handles (see {@link SassView}). */
    private final SassView view;

    private LatencyControlPass(TargetDescription description, boolean repair) {
        this.description = description;
        this.model = LatencyModel.of(description);
        this.repair = repair;
        this.view = new SassView(description);
    }

    /** The pass with the latency model and encodings of a described target. */
    public static LatencyControlPass of(TargetDescription description) {
        return new LatencyControlPass(description, true);
    }

    /**
     * The same pass without {@link ControlRepair}: the control words exactly as {@link ControlWordGenerator} places
     * them. For tests only: checking its output measures the generator's own misses, which the repair would hide
     * from every check of the final code (the repair uses the same checker).
     */
    public LatencyControlPass withoutRepair() {
        return new LatencyControlPass(description, false);
    }

    @Override
    public void beforeAllocation(OriFunction function, CodegenContext cx) {
        if (cx.options().optLevel() > 0) {
            new PreRaScheduler(model).run(function, cx.maxRegisters());
        }
    }

    @Override
    public List<CodeLine> apply(List<CodeLine> code, CodegenContext cx) {
        if (cx.options().optLevel() > 0) {
            PostRaScheduler.Viewed ordered = new PostRaScheduler(model, view).scheduleViewed(code);
            return controlWords(ordered.lines(), ordered.views());
        }
        return controlWords(code, null);
    }

    @Override
    public List<CodeLine> apply(List<CodeLine> code, Target target) {
        return controlWords(code, null);
    }

    /** Rounds of NOP padding at most (each pads every remaining too-short distance once). */
    private static final int PAD_ROUNDS = 4;

    /**
     * Control words for {@code code}; where a fixed latency is longer than the stalls before its reader can express
     * (an HMMA.16816 result, 24 cycles, read by the next instruction: a stall is at most 15), NOPs are put before the
     * reader, as ptxas pads, and the words are made again. Code without such a distance is unchanged.
     */
    private List<CodeLine> controlWords(List<CodeLine> code, List<SassView.Line> views) {
        List<CodeLine> current = code;
        List<SassView.Line> currentViews = views;
        for (int round = 0; ; round++) {
            List<Integer> pad = new ArrayList<>();
            List<CodeLine> out = controlled(current, currentViews, pad);
            if (pad.isEmpty() || round == PAD_ROUNDS) {
                return out;
            }
            List<CodeLine> padded = new ArrayList<>(current.size() + pad.size());
            CodeLine nop = FunctionLayout.nop(description.isa());
            for (int i = 0; i < current.size(); i++) {
                CodeLine c = current.get(i);
                if (pad.contains(i)) {
                    // the NOP takes the reader's label, so branches to the reader wait as well
                    padded.add(c.label() != null ? nop.withLabel(c.label()) : nop);
                    c = c.label() != null ? c.withLabel(null) : c;
                }
                padded.add(c);
            }
            current = padded;
            currentViews = null;
        }
    }

    /**
     * The control words of {@code code} (generated, repaired); adds to {@code pad} the readers the repair could not
     * place far enough from a fixed-latency producer, because the instruction before them already stalls 15.
     * {@code views} are the lines' views where the caller has them (index for index), else null.
     */
    private List<CodeLine> controlled(List<CodeLine> code, List<SassView.Line> views, List<Integer> pad) {
        List<ControlAgreement.FlowLine> lines = new ArrayList<>(code.size());
        List<SimpleInstr> instrs = new ArrayList<>(code.size());
        List<ReuseFlags.Slots> slots = new ArrayList<>(code.size());
        for (int i = 0; i < code.size(); i++) {
            CodeLine c = code.get(i);
            SassView.Line v = views != null ? views.get(i) : view.line(c);
            SassView.FlowPart f = v.flow();
            lines.add(new ControlAgreement.FlowLine(c.label(), f.guarded(), f.mnemonic(), f.target()));
            instrs.add(v.control());
            slots.add(v.slots());
        }
        ControlFlow flow = ControlAgreement.controlFlowOf(lines);
        List<ControlWord> generated = new ControlWordGenerator(model).generate(instrs, flow);
        List<ControlWord> words = generated;
        if (repair) {
            ControlRepair.Repaired repaired = ControlRepair.repair(model, instrs, generated, flow);
            words = repaired.words();
            for (Hazard h : repaired.hazards()) {
                int i = h.index();
                if (h.kind() == HazardKind.RAW_STALL && i > 0 && words.get(i - 1).stall() == model.maxStall()
                        && !pad.contains(i)) {
                    pad.add(i);
                }
            }
        }
        boolean[] blockStart = new boolean[code.size()];
        for (int i = 0; i < code.size(); i++) {
            blockStart[i] = code.get(i).label() != null || flow.isJoin(i);
        }
        int[] reuse = ReuseFlags.masks(slots, instrs, words, blockStart, model);
        SassAssembler asm = new SassAssembler(description.isa());
        List<CodeLine> out = new ArrayList<>(code.size());
        for (int i = 0; i < code.size(); i++) {
            ControlWord w = words.get(i);
            // the Y bit is legal only with stalls 1..11, and operand reuse only with the Y bit
            boolean yield = w.yield() && Control.yieldAllowed(w.stall());
            Control control = new Control(w.stall(), yield, w.writeSb(), w.readSb(), w.waitMask());
            out.add(withReuse(code.get(i), slots.get(i), yield ? reuse[i] : 0, control, asm));
        }
        return out;
    }

    /**
     * The line with the largest subset of the reuse flags {@code mask} the encoding tables can express (a flag is a
     * hint: leaving it off is always correct): the form of the line's pieces with the flags. A line printed with a
     * relocated operand ({@code 32@lo(g)}: its text is not its op's) keeps its spelling.
     */
    private static CodeLine withReuse(CodeLine line, ReuseFlags.Slots slots, int mask, Control control,
                                      SassAssembler asm) {
        if (mask == 0 || !line.printsItsOp()) {
            return line.withControl(control);
        }
        for (int m = mask; m != 0; m = nextSubset(m, mask)) {
            Optional<SassOp> op = asm.respelled(line.op(), ReuseFlags.reusePieces(line.op().form(), slots, m));
            if (op.isPresent()) {
                return line.withOp(op.get()).withControl(control);
            }
        }
        return line.withControl(control);
    }

    /** Subsets of {@code full} by decreasing number of flags (then decreasing value); 0 after the last. */
    private static int nextSubset(int m, int full) {
        for (int bits = Integer.bitCount(m); bits > 0; bits--) {
            for (int s = (bits == Integer.bitCount(m) ? m - 1 : full); s > 0; s--) {
                if ((s & ~full) == 0 && Integer.bitCount(s) == bits) {
                    return s;
                }
            }
        }
        return 0;
    }
}
