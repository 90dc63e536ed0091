package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.sass.Control;
import org.jptxas.ori.target.Target;

/**
 * Control bits that are always correct and make slow code: every instruction stalls 15 cycles (more than any
 * fixed-latency result needs), every variable-latency instruction sets write scoreboard 0 and read scoreboard 1, and
 * every instruction waits on both before it issues. Keeps the order. For bring-up and as the reference the
 * scheduler-based pass is checked against.
 */
public final class ConservativeControl implements ControlPass {
    static final int WRITE_SB = 0;
    static final int READ_SB = 1;
    static final int WAIT_ALL = 1 << WRITE_SB | 1 << READ_SB;

    /** Instructions whose results (or source reads) complete after a variable time, tracked by scoreboards. */
    static final Set<String> VARIABLE_LATENCY = Set.of(
            "LD", "LDG", "LDS", "LDL", "LDC", "LDSM", "MOVM", "ST", "STG", "STS", "STL",
            "ATOM", "ATOMG", "ATOMS", "RED", "REDUX", "SHFL", "MATCH",
            "S2R", "S2UR", "MUFU", "I2F", "F2I", "F2F", "I2I", "FRND", "POPC", "FLO", "BREV",
            "DADD", "DMUL", "DFMA", "DSETP", "DMNMX", "QSPC", "CCTL", "MEMBAR", "LDGSTS", "ARRIVES",
            "HMMA", "IMMA", "DMMA", "BMMA", "QMMA", "SUST", "SULD", "SURED", "TEX", "TLD", "TLD4", "TXQ", "R2UR");

    @Override
    public List<CodeLine> apply(List<CodeLine> code, Target target) {
        List<CodeLine> out = new ArrayList<>(code.size());
        for (CodeLine line : code) {
            out.add(line.withControl(control(line)));
        }
        return out;
    }

    static Control control(CodeLine line) {
        if (FunctionLayout.isPadding(line)) {
            return FunctionLayout.PADDING_CONTROL;
        }
        boolean variable = VARIABLE_LATENCY.contains(line.mnemonic());
        return new Control(15, false, variable ? WRITE_SB : Control.NONE, variable ? READ_SB : Control.NONE, WAIT_ALL);
    }
}
