package org.jptxas.frontend.ptx.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.parse.PtxParser;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/** What the checker hands to later stages: each name resolved to its declaration, with types and state spaces. */
class ResolutionTest {
    private static final String TEXT = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".global .align 4 .f32 table[8];\n"
            + ".func (.param .b32 r) f(.param .b32 a)\n{\nst.param.b32 [r], 1;\nret;\n}\n"
            + ".visible .entry k(.param .u64 out)\n{\n"
            + ".reg .pred %p<2>;\n.reg .f32 %f<4>;\n.reg .b64 %rd<3>;\n.reg .b32 %r<3>;\n"
            + "ld.param.u64 %rd1, [out];\n"
            + "ld.global.f32 %f1, [table+4];\n"
            + "mov.u32 %r1, %tid.x;\n"
            + "@%p1 bra DONE;\n"
            + "{\n.param .b32 a;\n.param .b32 r;\nst.param.b32 [a], %r1;\ncall.uni (r), f, (a);\n}\n"
            + "DONE:\nret;\n}\n";

    @Test
    void namesResolveToTheirDeclarations() {
        var module = PtxParser.parse("k.ptx", TEXT).module();
        CheckResult result = PtxChecker.check("k.ptx", module, Target.of("sm_90"), TestTargets.catalog(), false);
        assertEquals(List.of(), result.diagnostics());
        ResolvedModule r = result.resolved();
        List<Statement> body = module.functions().get(1).body().statements();

        Instruction ldParam = (Instruction) body.get(4);
        Symbol.Variable rd1 = assertInstanceOf(Symbol.Variable.class, r.symbolOf((Expr.SymbolRef) ldParam.operands().get(0)).orElseThrow());
        assertEquals("%rd1", rd1.name());
        assertEquals(PtxType.B64, rd1.type());
        assertEquals(StateSpace.REG, rd1.space());
        Expr.SymbolRef out = (Expr.SymbolRef) ((Operand.Address) ldParam.operands().get(1)).expression();
        assertEquals(StateSpace.PARAM, ((Symbol.Variable) r.symbolOf(out).orElseThrow()).space());

        Instruction ldGlobal = (Instruction) body.get(5);
        Expr.Binary addr = (Expr.Binary) ((Operand.Address) ldGlobal.operands().get(1)).expression();
        Symbol.Variable table = (Symbol.Variable) r.symbolOf((Expr.SymbolRef) addr.left()).orElseThrow();
        assertEquals(StateSpace.GLOBAL, table.space());
        assertEquals(List.of(8L), table.declarator().dimensions());

        Instruction mov = (Instruction) body.get(6);
        Symbol.Special tid = assertInstanceOf(Symbol.Special.class, r.symbolOf((Expr.SymbolRef) mov.operands().get(1)).orElseThrow());
        assertEquals(SpecialRegister.TID, tid.register());

        Instruction bra = (Instruction) body.get(7);
        assertInstanceOf(Symbol.Label.class, r.symbolOf((Expr.SymbolRef) bra.operands().get(0)).orElseThrow());

        Instruction call = (Instruction) ((org.jptxas.frontend.ptx.ast.Block) body.get(8)).statements().get(3);
        Symbol.Function f = assertInstanceOf(Symbol.Function.class, r.symbolOf((Expr.SymbolRef) call.operands().get(1)).orElseThrow());
        assertTrue(f.decl().isDefinition());
        // The inner block's 'a' shadows nothing at module level and is the block's own .param.
        Expr.SymbolRef a = (Expr.SymbolRef) ((Operand.ParenList) call.operands().get(2)).elements().get(0);
        assertEquals(StateSpace.PARAM, ((Symbol.Variable) r.symbolOf(a).orElseThrow()).space());
    }

    @Test
    void instructionTableSplitsMultiWordOpcodes() {
        var module = PtxParser.parse("k.ptx", ".version 8.0\n.target sm_90\n.address_size 64\n"
                + ".visible .entry k()\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
                + "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], 16, [%r2];\nret;\n}\n").module();
        CheckResult result = PtxChecker.check("k.ptx", module, Target.of("sm_90"), TestTargets.catalog());
        Instruction cp = (Instruction) module.functions().get(0).body().statements().get(2);
        var split = result.resolved().opcodeOf(cp).orElseThrow();
        assertEquals("cp.async.bulk", split.opcode());
        assertEquals(List.of("shared::cluster", "global", "mbarrier::complete_tx::bytes"), split.modifiers());
    }
}
