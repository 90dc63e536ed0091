package org.jptxas.frontend.ptx.lower;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/** Double-precision IEEE division, reciprocal and square root (MUFU.RCP64H/RSQ64H seeds, DFMA Newton steps). */
final class F64Sequences {
    private F64Sequences() {
    }

    static void divRn(MathEmitter m, Reg d, Src a, Src b) throws CompilationException {
        throw m.cx().unsupported("div.rn.f64");
    }

    static void rcpRn(MathEmitter m, Reg d, Src a) throws CompilationException {
        throw m.cx().unsupported("rcp.rn.f64");
    }

    static void sqrtRn(MathEmitter m, Reg d, Src a) throws CompilationException {
        throw m.cx().unsupported("sqrt.rn.f64");
    }

    static void rsqrtApprox(MathEmitter m, Reg d, Src a) throws CompilationException {
        throw m.cx().unsupported("rsqrt.approx.f64");
    }
}
