package org.jptxas.frontend.ptx.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Optional;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.junit.jupiter.api.Test;

class SymbolAddressTest {
    /** The initializer expression of {@code .global .u64 x = <text>;} in a module that declares {@code d} and {@code e}. */
    private static Expr initializer(String text) {
        var parsed = PtxParser.parse("k.ptx", ".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".global .u32 d;\n.global .u32 e;\n.global .u64 x = " + text + ";\n");
        VariableDecl x = parsed.module().items().stream().filter(VariableDecl.class::isInstance)
                .map(VariableDecl.class::cast).filter(v -> v.declarators().get(0).name().equals("x")).findFirst()
                .orElseThrow();
        Declarator d = x.declarators().get(0);
        return ((Initializer.Value) d.initializer()).value();
    }

    @Test
    void addressesPlusConstants() throws Exception {
        assertEquals(Optional.of(new SymbolAddress("d", 0)), SymbolAddress.of(initializer("d")));
        assertEquals(Optional.of(new SymbolAddress("d", 8)), SymbolAddress.of(initializer("generic(d)+8")));
        assertEquals(Optional.of(new SymbolAddress("d", 12)), SymbolAddress.of(initializer("4+d+8")));
        assertEquals(Optional.of(new SymbolAddress("d", -4)), SymbolAddress.of(initializer("d-4")));
        assertEquals(Optional.empty(), SymbolAddress.of(initializer("3")));
        assertEquals(Optional.empty(), SymbolAddress.of(initializer("4-d")));
    }

    @Test
    void aSymbolPlusANonConstantIsRefused() {
        assertThrows(ConstantEvaluator.NotConstantException.class, () -> SymbolAddress.of(initializer("d+e")));
    }
}
