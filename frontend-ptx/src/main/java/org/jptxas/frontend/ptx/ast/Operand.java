package org.jptxas.frontend.ptx.ast;

import java.util.List;

/** One operand of an instruction. */
public sealed interface Operand extends Node permits Expr, Operand.Address, Operand.Vector, Operand.Sink,
        Operand.ParenList, Operand.Pair {

    /**
     * {@code [%rd1+16]}, {@code [sym]}, {@code [tex, {%f1, %f2}]}, {@code [tmap, {%r1, %r2}]}: the bracketed parts.
     */
    record Address(SourcePos pos, List<Operand> parts) implements Operand {
        public Address {
            parts = List.copyOf(parts);
        }

        /** The single address expression of a plain memory operand, or {@code null} for multi-part forms. */
        public Expr expression() {
            return parts.size() == 1 && parts.get(0) instanceof Expr e ? e : null;
        }
    }

    /** {@code {%r1, %r2, _, %r4}}. */
    record Vector(SourcePos pos, List<Operand> elements) implements Operand {
        public Vector {
            elements = List.copyOf(elements);
        }
    }

    /** The sink {@code _}. */
    record Sink(SourcePos pos) implements Operand {
    }

    /** {@code (retval0)} and {@code (param0, param1)} of {@code call}. */
    record ParenList(SourcePos pos, List<Operand> elements) implements Operand {
        public ParenList {
            elements = List.copyOf(elements);
        }
    }

    /** {@code %r1|%p1}: two destinations written as one operand (setp, shfl, elect, ...). */
    record Pair(SourcePos pos, Operand first, Operand second) implements Operand {
    }
}
