package org.jptxas.frontend.ptx.check;

import java.util.List;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.SourcePos;
import org.jptxas.frontend.ptx.ast.VariableDecl;

/**
 * ptxas's rule for a function declared more than once (an {@code .extern} prototype and its definition, or two
 * prototypes): the parameter lists must agree in number and, one by one, in type (the type's name: {@code .b32} and
 * {@code .u32} differ), vector length and array shape.
 */
final class Prototypes {
    private Prototypes() {}

    /** What differs between two declarations of one function ({@code "number of parameters differ"}, ...), or null. */
    static String mismatch(FunctionDecl first, FunctionDecl second) {
        String returns = mismatch(first.returns(), second.returns());
        return returns != null ? returns : mismatch(first.params(), second.params());
    }

    private static String mismatch(List<VariableDecl> a, List<VariableDecl> b) {
        if (a.size() != b.size()) {
            return "number of parameters differ";
        }
        for (int i = 0; i < a.size(); i++) {
            VariableDecl x = a.get(i);
            VariableDecl y = b.get(i);
            if (x.type() != y.type() || x.vectorLength() != y.vectorLength()
                    || !dimensions(x).equals(dimensions(y))) {
                return "parameter types differ";
            }
        }
        return null;
    }

    private static List<Long> dimensions(VariableDecl p) {
        return p.declarators().isEmpty() ? List.of() : p.declarators().get(0).dimensions();
    }

    /**
     * Where ptxas reports it: the line that closes the second declaration's parameter list. The tree keeps no position
     * for the parenthesis, so: the last parameter's line when the list sits on the function's line, else the line
     * after it (one parameter per line, then the parenthesis, as compilers write prototypes).
     */
    static SourcePos position(FunctionDecl second) {
        if (second.params().isEmpty()) {
            return second.pos();
        }
        SourcePos last = second.params().get(second.params().size() - 1).pos();
        return last.line() == second.pos().line() ? last : new SourcePos(last.line() + 1, 1);
    }
}
