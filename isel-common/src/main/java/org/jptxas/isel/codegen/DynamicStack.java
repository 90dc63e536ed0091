package org.jptxas.isel.codegen;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * A function whose stack pointer R1 moves at run time ({@code alloca}, {@code stackrestore}): any write to R1 other
 * than the frame set-up ({@code MOV R1, c[..]}, {@code IADD3 R1, R1, imm}). Its local variables and spill slots,
 * addressed from R1, would move with it, so such a function may have neither (jptxas has no frame pointer yet).
 */
final class DynamicStack {
    private static final Reg SP = Reg.phys(RegFile.R, 1, 1);

    private DynamicStack() {
    }

    static void check(OriFunction f, long frameBytes, String sourceName) throws CompilationException {
        if (frameBytes == 0 && f.attrs().localBytes() == 0 || !moves(f)) {
            return;
        }
        throw new CompilationException(Diagnostic.error(sourceName, f.line(), "Function '" + f.name()
                + "' moves its stack pointer (alloca or stackrestore) and has local variables or spilled registers:"
                + " not yet supported"));
    }

    private static boolean moves(OriFunction f) {
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                if (in.dsts().isEmpty() || !in.dsts().get(0).equals(SP) && !(in.dsts().size() > 1
                        && in.dsts().get(1).equals(SP))) {
                    continue;
                }
                String op = in.op().name();
                boolean setUp = op.equals("MOV") && in.srcs().get(0).value() instanceof CBank
                        || op.equals("IADD3") && in.srcs().get(1).value() instanceof Imm;
                if (!setUp) {
                    return true;
                }
            }
        }
        return false;
    }
}
