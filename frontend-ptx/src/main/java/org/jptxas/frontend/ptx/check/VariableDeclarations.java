package org.jptxas.frontend.ptx.check;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.Linkage;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.VariableDecl;

/** Rules of PTX variable declarations as ptxas 13 applies them: sizes, initializers and redeclarations. */
final class VariableDeclarations {
    private VariableDeclarations() {}

    /**
     * An array of memory with no size and nothing to size it by: only a {@code .extern} declaration may leave the size
     * to another (ptxas 13 refuses the rest, at module and at function scope).
     */
    static boolean unsizedWithoutInitializer(VariableDecl v, Declarator d) {
        boolean memory = v.space() == StateSpace.GLOBAL || v.space() == StateSpace.CONST
                || v.space() == StateSpace.SHARED || v.space() == StateSpace.LOCAL;
        return memory && v.linkage() != Linkage.EXTERN && d.initializer() == null && d.dimensions().contains(-1L);
    }

    /** Whether an aggregate holds more elements than its array dimension (at any level) declares. */
    static boolean tooManyElements(Initializer.Aggregate a, List<Long> dimensions, int level) {
        if (level >= dimensions.size()) {
            return false; // the elements of a vector type, not of the array
        }
        long dim = dimensions.get(level);
        if (dim >= 0 && a.elements().size() > dim) {
            return true;
        }
        for (Initializer e : a.elements()) {
            if (e instanceof Initializer.Aggregate inner && tooManyElements(inner, dimensions, level + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why a second declaration of a name is refused, or null when ptxas accepts it: an {@code .extern} declaration
     * may repeat a declaration or definition of the same variable (same state space, type and sizes, an unsized
     * {@code []} matching any size), and an external definition may follow it.
     */
    static String redeclaration(Symbol.Variable previous, VariableDecl v, Declarator d) {
        VariableDecl p = previous.decl();
        String name = d.name();
        if ((p.linkage() != Linkage.EXTERN && v.linkage() != Linkage.EXTERN) || p.space() != v.space()) {
            return "Duplicate definition of variable '" + name + "'";
        }
        if (p.type() != v.type() || p.vectorLength() != v.vectorLength()
                || !sameExtents(previous.declarator().dimensions(), d.dimensions())) {
            return "Inconsistent redefinition of variable '" + name + "'";
        }
        if (p.linkage() == Linkage.EXTERN && v.linkage() == Linkage.NONE) {
            return "'.extern' variable '" + name + "' cannot be resolved by a '.static'";
        }
        return null;
    }

    static boolean sameExtents(List<Long> a, List<Long> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (a.get(i) >= 0 && b.get(i) >= 0 && !a.get(i).equals(b.get(i))) {
                return false;
            }
        }
        return true;
    }
}
