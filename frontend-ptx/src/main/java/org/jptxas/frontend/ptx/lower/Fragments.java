package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Register fragments of the matrix and texture instructions: a braced vector of PTX registers (or one register) on
 * one side, a tuple of consecutive 32-bit registers, as the SASS instruction reads it, on the other.
 */
final class Fragments {
    private Fragments() {}

    /** The registers of a fragment operand: a vector's elements, or the operand itself. */
    static List<Operand> elements(Operand o) {
        return o instanceof Operand.Vector v ? v.elements() : List.of(o);
    }

    /** Register {@code k} of a tuple (a one-register tuple is its own only part). */
    static Reg part(Reg tuple, int k) {
        return tuple.width() == 1 ? tuple : tuple.component(k);
    }

    /** A fragment's {@code n} 32-bit registers as sources; a fragment of another size is refused by name. */
    static List<Src> registers(LoweringContext cx, Operand fragment, int n) throws CompilationException {
        List<Operand> els = elements(fragment);
        if (els.size() != n) {
            throw cx.unsupported("fragment of " + els.size() + " registers");
        }
        List<Src> l = new ArrayList<>();
        for (Operand e : els) {
            l.add(cx.src(e, PtxType.B32));
        }
        return l;
    }

    /** {@code values} copied into a fresh tuple (register allocation coalesces the copies where it can). */
    static Reg tuple(LoweringContext cx, List<Src> values) {
        Reg t = cx.newReg(RegFile.R, values.size());
        for (int k = 0; k < values.size(); k++) {
            cx.emit("MOV", List.of(), List.of(part(t, k)), List.of(values.get(k)));
        }
        return t;
    }
}
