package org.jptxas.scheduler.codegen;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.isel.codegen.CodeLine;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.list.ListScheduler;
import org.jptxas.scheduler.list.SchedOptions;
import org.jptxas.scheduler.model.SimpleInstr;

/**
 * Post-allocation scheduling: each block of the allocated SASS (from a label, or from the instruction after a
 * branch, exit, return or call, to the next) is reordered by the list scheduler in ILP mode. Dependences are on
 * physical registers, so the allocator's reuse of a register orders its reader before the next writer (WAR) and the
 * writers among themselves (WAW). A block keeps its label on whichever instruction now comes first.
 */
final class PostRaScheduler {
    private final SassView view;
    private final ListScheduler scheduler;

    /** With the caller's view of the lines (its parses are reused). */
    PostRaScheduler(LatencyModel model, SassView view) {
        this.view = view;
        // registers are assigned: arithmetic crossing a BAR.SYNC lengthens no live range (ptxas computes a loop's next
        // compare above the barrier)
        this.scheduler = new ListScheduler(model, true);
    }

    List<CodeLine> schedule(List<CodeLine> code) {
        return scheduleViewed(code).lines();
    }

    /** Lines in their new order, each with its view (index for index), which the control words start from. */
    record Viewed(List<CodeLine> lines, List<SassView.Line> views) {}

    Viewed scheduleViewed(List<CodeLine> code) {
        List<CodeLine> out = new ArrayList<>(code.size());
        List<SassView.Line> views = new ArrayList<>(code.size());
        int start = 0;
        for (int i = 0; i <= code.size(); i++) {
            boolean boundary = i == code.size() || i > start && (code.get(i).label() != null || endsBlock(code.get(i - 1)));
            if (boundary && i > start) {
                scheduleBlock(code.subList(start, i), out, views);
                start = i;
            }
        }
        return new Viewed(out, views);
    }

    /** Appends the block's lines in their new order to {@code out}, and their views to {@code views}. */
    private void scheduleBlock(List<CodeLine> block, List<CodeLine> out, List<SassView.Line> views) {
        List<SassView.Line> viewed = new ArrayList<>(block.size());
        for (int i = 0; i < block.size(); i++) {
            viewed.add(view.line(block.get(i)));
        }
        if (block.size() < 3) {
            out.addAll(block);
            views.addAll(viewed);
            return;
        }
        List<SimpleInstr> instrs = new ArrayList<>(block.size());
        for (int i = 0; i < block.size(); i++) {
            instrs.add(viewed.get(i).motion());
        }
        int[] order = scheduler.schedule(instrs, SchedOptions.ilp()).order();
        String label = block.get(0).label();
        for (int k = 0; k < order.length; k++) {
            CodeLine line = block.get(order[k]);
            if (order[k] == 0 && k != 0) {
                line = line.withLabel(null);
            }
            out.add(k == 0 && order[0] != 0 ? line.withLabel(label) : line);
            views.add(viewed.get(order[k]));
        }
    }

    private static boolean endsBlock(CodeLine line) {
        return switch (line.mnemonic()) {
            case "BRA", "BRX", "JMP", "JMX", "EXIT", "RET", "CALL" -> true;
            default -> false;
        };
    }
}
