package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.Linkage;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.VariableDecl;

/** Sizes and alignments of PTX variables, as ptxas lays them out in memory. */
final class DataLayout {
    private DataLayout() {}

    /** Bytes of one element: the type times the vector length. */
    static long elementSize(VariableDecl decl) {
        long t = decl.type() == PtxType.PRED ? 4 : decl.type().sizeBytes();
        return t * Math.max(1, decl.vectorLength());
    }

    /** The variable's size in bytes; an unsized array takes its length from its initializer (0 without one). */
    static long size(VariableDecl decl, Declarator d) {
        long n = 1;
        List<Long> dims = d.dimensions();
        for (int i = 0; i < dims.size(); i++) {
            long dim = dims.get(i);
            if (dim < 0) {
                dim = i == 0 && d.initializer() instanceof Initializer.Aggregate a ? a.elements().size() : 0;
            }
            n *= dim;
        }
        return n * elementSize(decl);
    }

    /** {@code .align} if written, else the element's natural alignment. */
    static int alignment(VariableDecl decl) {
        long a = decl.align() > 0 ? decl.align() : Math.max(1, elementSize(decl));
        if (Long.bitCount(a) != 1) {
            a = Long.highestOneBit(a);
        }
        return (int) Math.min(a, 1 << 20);
    }

    static long alignUp(long v, long a) {
        return (v + a - 1) / a * a;
    }

    /** Bytes of the module's {@code .const} variables as laid out one after another in their bank (aligned). */
    static long constBytes(PtxModule module) {
        long top = 0;
        for (VariableDecl v : module.variables()) {
            if (v.space() != StateSpace.CONST
                    || v.linkage() == Linkage.EXTERN) {
                continue;
            }
            for (Declarator d : v.declarators()) {
                top = alignUp(top, alignment(v)) + size(v, d);
            }
        }
        return top;
    }
}
