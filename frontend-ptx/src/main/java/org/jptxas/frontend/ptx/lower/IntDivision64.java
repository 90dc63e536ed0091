package org.jptxas.frontend.ptx.lower;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/** 64-bit integer division and remainder. */
final class IntDivision64 {
    private IntDivision64() {
    }

    static void divide(MathEmitter m, Reg d, Src a, Src b, boolean signed, boolean rem) throws CompilationException {
        throw m.cx().unsupported((rem ? "rem." : "div.") + (signed ? "s64" : "u64"));
    }
}
