package org.jptxas.ori.analysis;

import java.util.Arrays;
import java.util.stream.Collectors;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;

/** A readable dump of a function ({@code --dump-ir=PASS}): blocks with their successors, one instruction a line. */
public final class IrPrinter {
    private IrPrinter() {}

    public static String print(OriFunction f) {
        StringBuilder sb = new StringBuilder();
        sb.append(f.entry() ? ".entry " : ".func ").append(f.name()).append('\n');
        Cfg cfg = Cfg.of(f.body());
        for (BasicBlock b : f.body().blocks()) {
            sb.append(b).append(':');
            int[] succ = cfg.successors(b.id());
            if (succ.length > 0) {
                sb.append("  -> ").append(Arrays.stream(succ).mapToObj(s -> "bb" + s).collect(Collectors.joining(", ")));
            }
            if (!cfg.isReachable(b.id())) {
                sb.append("  (unreachable)");
            }
            sb.append('\n');
            for (Instr in : b.instrs()) {
                sb.append("    ").append(in);
                if (in.line() > 0) {
                    sb.append("    // line ").append(in.line());
                }
                sb.append('\n');
            }
        }
        return sb.toString();
    }
}
