package org.jptxas.frontend.ptx.print;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jptxas.frontend.ptx.ast.ModelEquality;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.parse.PtxParser;
import org.junit.jupiter.api.Test;

class ModelEqualityTest {
    static PtxModule parse(String s) {
        return PtxParser.parse("t.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n" + s
                + "\n}\n").module();
    }

    @Test
    void positionsAreIgnoredButEverythingElseCounts() {
        assertTrue(ModelEquality.equalIgnoringPositions(parse("add.s32 %r1, %r2, 1;"), parse("\n\n   add.s32 %r1,%r2,1;")));
        assertFalse(ModelEquality.equalIgnoringPositions(parse("add.s32 %r1, %r2, 1;"), parse("add.s32 %r1, %r2, 2;")));
        assertFalse(ModelEquality.equalIgnoringPositions(parse("add.s32 %r1, %r2, 1;"), parse("add.u32 %r1, %r2, 1;")));
        assertFalse(ModelEquality.equalIgnoringPositions(parse("mov.b32 %r1, 0x10;"), parse("mov.b32 %r1, 16;")),
                "the radix is kept");
        assertTrue(ModelEquality.firstDifference(parse("ret;"), parse("ret; ret;")).orElseThrow().contains("size"));
    }

    @Test
    void printerKeepsExpressionTreesWithFewestParentheses() {
        PtxModule m = parse("mov.b32 %r1, (1 + 2) * 3 - (4 - 5) - 6 << 1;\nld.u32 %r1, [%r2+-8];\nmov.b32 %r1, -(-1);");
        String printed = PtxPrinter.print(m);
        assertTrue(printed.contains("(1+2)*3-(4-5)-6<<1"), printed);
        assertTrue(printed.contains("[%r2+-8]"), printed);
        assertTrue(printed.contains("--1"), printed);
        assertTrue(ModelEquality.equalIgnoringPositions(m, PtxParser.parse("p.ptx", printed).module()));
    }
}
