package org.jptxas.frontend.ptx.check;

import org.jptxas.frontend.ptx.ast.BranchTargetsDecl;
import org.jptxas.frontend.ptx.ast.CallPrototypeDecl;
import org.jptxas.frontend.ptx.ast.CallTargetsDecl;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.VariableDecl;

/** What a name in a PTX module refers to, once resolved by the checker. */
public sealed interface Symbol {
    String name();

    /**
     * A variable, register or parameter.
     *
     * @param name the name as used (for {@code %r<100>}: the expanded name, e.g. {@code %r7})
     */
    record Variable(String name, VariableDecl decl, Declarator declarator) implements Symbol {
        public StateSpace space() {
            return decl.space();
        }

        public PtxType type() {
            return decl.type();
        }

        public int vectorLength() {
            return decl.vectorLength();
        }
    }

    record Function(FunctionDecl decl) implements Symbol {
        @Override
        public String name() {
            return decl.name();
        }
    }

    record Label(LabelDef def) implements Symbol {
        @Override
        public String name() {
            return def.name();
        }
    }

    record Prototype(CallPrototypeDecl decl) implements Symbol {
        @Override
        public String name() {
            return decl.label();
        }
    }

    record CallTargets(CallTargetsDecl decl) implements Symbol {
        @Override
        public String name() {
            return decl.label();
        }
    }

    record BranchTargets(BranchTargetsDecl decl) implements Symbol {
        @Override
        public String name() {
            return decl.label();
        }
    }

    /** A predefined register; {@code register} is null for the numbered families ({@code %envreg3}). */
    record Special(String name, SpecialRegister register, PtxType type) implements Symbol {
    }
}
