package org.jptxas.frontend.ptx.check;

import java.util.HashMap;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.VariableDecl;

/**
 * One level of PTX name scoping (module, function parameters, block). Parameterized register declarations
 * ({@code %r<100>}) are kept as one entry and matched by prefix and index on lookup.
 */
final class Scope {
    private final Scope parent;
    private final Map<String, Symbol> names = new HashMap<>();
    private final Map<String, Symbol.Variable> parameterized = new HashMap<>();

    Scope(Scope parent) {
        this.parent = parent;
    }

    Scope parent() {
        return parent;
    }

    /** Declares a symbol; returns the previous symbol of that name in this scope, if any. */
    Symbol declare(Symbol symbol) {
        return names.putIfAbsent(symbol.name(), symbol);
    }

    /** Replaces the symbol of a name declared before (an {@code .extern} variable by its definition). */
    void redeclare(Symbol symbol) {
        names.put(symbol.name(), symbol);
    }

    /** Declares {@code %r<n>}; returns an existing declaration with the same prefix, if any. */
    Symbol declareParameterized(VariableDecl decl, Declarator d) {
        return parameterized.putIfAbsent(d.name(), new Symbol.Variable(d.name(), decl, d));
    }

    Symbol lookupLocal(String name) {
        Symbol s = names.get(name);
        if (s != null || parameterized.isEmpty()) {
            return s;
        }
        int digits = name.length();
        while (digits > 0 && Character.isDigit(name.charAt(digits - 1))) {
            digits--;
        }
        if (digits == name.length() || digits == 0 || name.length() - digits > 18) {
            return null;
        }
        Symbol.Variable base = parameterized.get(name.substring(0, digits));
        if (base == null) {
            return null;
        }
        String index = name.substring(digits);
        if (index.length() > 1 && index.charAt(0) == '0') {
            return null;
        }
        long i = Long.parseLong(index);
        return i < base.declarator().parameterizedCount()
                ? new Symbol.Variable(name, base.decl(), base.declarator()) : null;
    }

    Symbol lookup(String name) {
        for (Scope s = this; s != null; s = s.parent) {
            Symbol found = s.lookupLocal(name);
            if (found != null) {
                return found;
            }
        }
        return null;
    }
}
