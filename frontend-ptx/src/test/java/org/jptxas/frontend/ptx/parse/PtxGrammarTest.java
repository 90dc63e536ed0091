package org.jptxas.frontend.ptx.parse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.BranchTargetsDecl;
import org.jptxas.frontend.ptx.ast.CallPrototypeDecl;
import org.jptxas.frontend.ptx.ast.CallTargetsDecl;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.FileDirective;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.frontend.ptx.ast.Initializer;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.Linkage;
import org.jptxas.frontend.ptx.ast.LocDirective;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PragmaDirective;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.SectionDirective;
import org.jptxas.frontend.ptx.ast.SourcePos;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.frontend.ptx.ast.TuningDirective;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.junit.jupiter.api.Test;

/** The grammar, piece by piece: each test parses a small module and looks at the model it builds. */
class PtxGrammarTest {
    private static final String HEADER = ".version 8.5\n.target sm_90\n.address_size 64\n";

    static PtxModule parse(String text) {
        ParseResult r = PtxParser.parse("t.ptx", text);
        assertTrue(r.diagnostics().isEmpty(), () -> r.diagnostics().toString());
        return r.module();
    }

    /** The statements of the body of the only function in {@code HEADER + functionText}. */
    static List<Statement> body(String bodyText) {
        PtxModule m = parse(HEADER + ".visible .entry k()\n{\n" + bodyText + "\n}\n");
        return m.functions().get(0).body().statements();
    }

    static Instruction instruction(String text) {
        List<Statement> body = body(".reg .b32 %r<9>;\n" + text);
        return (Instruction) body.get(body.size() - 1);
    }

    @Test
    void header() {
        PtxModule m = parse(".version 7.8\n.target sm_90a, texmode_independent, debug\n.address_size 64\n");
        assertEquals(78, m.version().orElseThrow().times10());
        assertEquals(List.of("sm_90a", "texmode_independent", "debug"), m.target().orElseThrow().entries());
        assertEquals(List.of("sm_90a"), m.target().orElseThrow().architectures());
        assertEquals(64, m.addressSize().orElseThrow().bits());
        assertEquals(new SourcePos(2, 1), m.target().orElseThrow().pos());
    }

    @Test
    void fileDirectiveWithAndWithoutTimestamp() {
        PtxModule m = parse(HEADER + ".file 1 \"a.cu\", 1700000000, 123\n.file 2 \"<command-line>\"\n");
        FileDirective f1 = (FileDirective) m.items().get(3);
        FileDirective f2 = (FileDirective) m.items().get(4);
        assertEquals(new FileDirective(f1.pos(), 1, "a.cu", 1700000000L, 123), f1);
        assertEquals(-1, f2.timestamp());
        assertEquals("<command-line>", f2.path());
    }

    @Test
    void variablesInEveryStateSpaceWithAlignmentArraysVectorsAndInitializers() {
        PtxModule m = parse(HEADER
                + ".global .align 4 .b32 table[2][3] = {{1, 2, 3}, {4, 5, 6}};\n"
                + ".const .v4 .f32 v = {1.0, 0f3F800000, .5, -2.5e1};\n"
                + ".visible .global .u64 p = generic(table) + 8;\n"
                + ".extern .shared .align 16 .b8 smem[];\n"
                + ".global .attribute(.managed) .s32 g;\n"
                + ".global .samplerref s = {addr_mode_0 = clamp_to_edge, filter_mode = linear};\n"
                + ".common .global .u32 c;\n"
                + ".weak .const .u8 w;\n");
        List<VariableDecl> vars = m.variables();
        VariableDecl table = vars.get(0);
        assertEquals(StateSpace.GLOBAL, table.space());
        assertEquals(4, table.align());
        assertEquals(PtxType.B32, table.type());
        Declarator td = table.declarators().get(0);
        assertEquals(List.of(2L, 3L), td.dimensions());
        Initializer.Aggregate rows = (Initializer.Aggregate) td.initializer();
        assertEquals(2, rows.elements().size());
        assertEquals(4, vars.get(1).vectorLength());
        assertEquals(StateSpace.CONST, vars.get(1).space());
        VariableDecl p = vars.get(2);
        assertEquals(Linkage.VISIBLE, p.linkage());
        Expr init = ((Initializer.Value) p.declarators().get(0).initializer()).value();
        Expr.Binary sum = assertInstanceOf(Expr.Binary.class, init);
        assertEquals("generic", ((Expr.Apply) sum.left()).function());
        assertEquals(List.of(-1L), vars.get(3).declarators().get(0).dimensions());
        assertEquals(Linkage.EXTERN, vars.get(3).linkage());
        assertEquals(StateSpace.SHARED, vars.get(3).space());
        assertEquals(List.of("managed"), vars.get(4).attributes());
        Initializer.Aggregate fields = (Initializer.Aggregate) vars.get(5).declarators().get(0).initializer();
        assertEquals("addr_mode_0", ((Initializer.Field) fields.elements().get(0)).field());
        assertEquals(Linkage.COMMON, vars.get(6).linkage());
        assertEquals(Linkage.WEAK, vars.get(7).linkage());
    }

    @Test
    void parameterizedRegistersAndSeveralDeclarators() {
        List<Statement> b = body(".reg .pred %p<4>;\n.reg .f32 %f1, %f2;\n.local .align 8 .b8 depot[16];\n.param .b32 arg;\n");
        VariableDecl p = (VariableDecl) b.get(0);
        assertEquals(4, p.declarators().get(0).parameterizedCount());
        assertEquals("%p", p.declarators().get(0).name());
        assertEquals(2, ((VariableDecl) b.get(1)).declarators().size());
        assertEquals(StateSpace.LOCAL, ((VariableDecl) b.get(2)).space());
        assertEquals(StateSpace.PARAM, ((VariableDecl) b.get(3)).space());
    }

    @Test
    void functionsWithReturnParametersPointerParamsTuningAndNoreturn() {
        PtxModule m = parse(HEADER
                + ".visible .func (.param .b32 r) f(.param .b32 a, .reg .b32 b) .noreturn;\n"
                + ".visible .entry k(.param .u64 .ptr .global .align 16 out, .param .align 8 .b8 blob[24])\n"
                + ".maxntid 128, 1, 1 .reqntid 128 .minnctapersm 2 .maxnreg 64 .explicitcluster .reqnctapercluster 2, 1, 1"
                + " .maxclusterrank 8\n{\nret;\n}\n"
                + ".func .attribute(.unified(0x1, 0x2)) u()\n{\nret;\n}\n");
        FunctionDecl f = m.functions().get(0);
        assertEquals(FunctionDecl.Kind.FUNC, f.kind());
        assertEquals("r", f.returns().get(0).declarators().get(0).name());
        assertEquals(StateSpace.REG, f.params().get(1).space());
        assertTrue(f.isNoReturn());
        assertFalse(f.isDefinition());
        FunctionDecl k = m.functions().get(1);
        assertTrue(k.isEntry());
        VariableDecl out = k.params().get(0);
        assertEquals(StateSpace.GLOBAL, out.pointer().space());
        assertEquals(16, out.pointer().align());
        assertEquals(PtxType.U64, out.type());
        assertEquals(8, k.params().get(1).align());
        assertEquals(List.of(TuningDirective.Kind.MAXNTID, TuningDirective.Kind.REQNTID,
                TuningDirective.Kind.MINNCTAPERSM, TuningDirective.Kind.MAXNREG, TuningDirective.Kind.EXPLICITCLUSTER,
                TuningDirective.Kind.REQNCTAPERCLUSTER, TuningDirective.Kind.MAXCLUSTERRANK),
                k.tuning().stream().map(TuningDirective::kind).toList());
        assertEquals(List.of(128L, 1L, 1L), k.tuning().get(0).values());
        FunctionDecl u = m.functions().get(2);
        assertEquals("unified", u.attributes().get(0).name());
        assertEquals(2, u.attributes().get(0).arguments().size());
    }

    @Test
    void tuningDirectivesAreLiteralTokensWithLongestMatch() {
        PtxModule m = parse(HEADER + ".visible .func f() .abi_preserve_control 2 .abi_preserve 8 .blocksareclusters"
                + " .maxnctapersm 1;\n");
        assertEquals(List.of(TuningDirective.Kind.ABI_PRESERVE_CONTROL, TuningDirective.Kind.ABI_PRESERVE,
                TuningDirective.Kind.BLOCKSAREACLUSTERS, TuningDirective.Kind.MAXNCTAPERSM),
                m.functions().get(0).tuning().stream().map(TuningDirective::kind).toList());
        // a directive's name followed by more word characters is a modifier word like any other, and so is the name
        assertEquals(List.of("maxnregx", "noreturn", "u32"), instruction("foo.maxnregx.noreturn.u32 %r1;").modifiers());
    }

    @Test
    void oldStyleDeclarationsWithoutSemicolon() {
        PtxModule m = parse(".version 2.3\n.target sm_20\n.address_size 64\n"
                + ".visible .func (.param .f32 r) f (.param .f32 a)\n\n.file 1 \"x.cu\"\n");
        assertEquals(1, m.functions().size());
        assertNull(m.functions().get(0).body());
    }

    @Test
    void instructionNameSplitsIntoOpcodeAndModifiersIncludingScopedOnes() {
        Instruction i = instruction("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes "
                + "[%r1], [%r2, {%r3, %r4}], [%r5];");
        assertEquals("cp", i.opcode());
        assertEquals(List.of("async", "bulk", "tensor", "2d", "shared::cluster", "global", "mbarrier::complete_tx::bytes"),
                i.modifiers());
        Operand.Address tensor = (Operand.Address) i.operands().get(1);
        assertEquals(2, tensor.parts().size());
        assertInstanceOf(Operand.Vector.class, tensor.parts().get(1));
        assertEquals("ld.global.v4.f32", instruction("ld.global.v4.f32 {%r1, %r2, %r3, %r4}, [%r5+16];").fullName());
    }

    @Test
    void guards() {
        Instruction i = instruction("@!%r1 bra L;\nL:\nret;");
        assertNull(i.guard()); // the last statement is ret
        List<Statement> b = body(".reg .pred %p;\n@!%p bra L;\n@%p bra L;\nL:\nret;");
        Instruction neg = (Instruction) b.get(1);
        assertTrue(neg.guard().negated());
        assertEquals("%p", neg.guard().predicate());
        assertFalse(((Instruction) b.get(2)).guard().negated());
        assertInstanceOf(LabelDef.class, b.get(3));
    }

    @Test
    void immediatesInEveryBase() {
        Instruction i = instruction("mov.b32 %r1, 42, 0x2A, 052, 0b101010, 42U, 0f3F800000, 0d3FF0000000000000, 1.5, .5, 1e3;");
        List<Operand> ops = i.operands();
        assertEquals(new Expr.IntLit(ops.get(1).pos(), 42, Expr.Radix.DECIMAL, false), ops.get(1));
        assertEquals(42, ((Expr.IntLit) ops.get(2)).value());
        assertEquals(Expr.Radix.HEX, ((Expr.IntLit) ops.get(2)).radix());
        assertEquals(42, ((Expr.IntLit) ops.get(3)).value());
        assertEquals(Expr.Radix.OCTAL, ((Expr.IntLit) ops.get(3)).radix());
        assertEquals(42, ((Expr.IntLit) ops.get(4)).value());
        assertTrue(((Expr.IntLit) ops.get(5)).unsigned());
        assertEquals(1.0, ((Expr.FloatLit) ops.get(6)).value());
        assertEquals(Expr.FloatForm.HEX_F32, ((Expr.FloatLit) ops.get(6)).form());
        assertEquals(1.0, ((Expr.FloatLit) ops.get(7)).value());
        assertEquals(Expr.FloatForm.HEX_F64, ((Expr.FloatLit) ops.get(7)).form());
        assertEquals(1.5, ((Expr.FloatLit) ops.get(8)).value());
        assertEquals(0.5, ((Expr.FloatLit) ops.get(9)).value());
        assertEquals(1000.0, ((Expr.FloatLit) ops.get(10)).value());
        assertEquals(-1L, ((Expr.IntLit) instruction("mov.b64 %r1, 0xFFFFFFFFFFFFFFFF;").operands().get(1)).value());
    }

    @Test
    void operandShapes() {
        Instruction setp = instruction("setp.lt.s32 %r1|%r2, %r3, -5;");
        Operand.Pair pair = assertInstanceOf(Operand.Pair.class, setp.operands().get(0));
        assertEquals("%r2", ((Expr.SymbolRef) pair.second()).name());
        Expr.Unary neg = assertInstanceOf(Expr.Unary.class, setp.operands().get(2));
        assertEquals(Expr.UnaryOp.NEG, neg.op());
        Instruction elect = instruction("elect.sync _|%r1, 0xffffffff;");
        assertInstanceOf(Operand.Sink.class, ((Operand.Pair) elect.operands().get(0)).first());
        Instruction ld = instruction("ld.global.v4.f32 {%r1, _, %r2, %r3}, [%r4+-8];");
        Operand.Vector v = (Operand.Vector) ld.operands().get(0);
        assertInstanceOf(Operand.Sink.class, v.elements().get(1));
        Expr.Binary addr = (Expr.Binary) ((Operand.Address) ld.operands().get(1)).expression();
        assertEquals(Expr.BinaryOp.ADD, addr.op());
        Instruction sreg = instruction("mov.u32 %r1, %tid.x;");
        Expr.SymbolRef tid = (Expr.SymbolRef) sreg.operands().get(1);
        assertEquals("%tid", tid.name());
        assertEquals("x", tid.component());
        Instruction expr = instruction("or.b64 %r1, %r1, ((128 >> 4) << 16);");
        assertEquals(Expr.BinaryOp.SHL, ((Expr.Binary) expr.operands().get(2)).op());
    }

    @Test
    void callsWithParameterLists() {
        List<Statement> b = body(".param .b32 r;\n.param .b32 a;\n.reg .b64 %rd;\n"
                + "call.uni (r), f, (a, a);\ncall f;\ncall (r), %rd, (a), proto;\ncall.uni f, ();");
        Instruction c1 = (Instruction) b.get(3);
        assertEquals(List.of("uni"), c1.modifiers());
        assertInstanceOf(Operand.ParenList.class, c1.operands().get(0));
        assertEquals(2, ((Operand.ParenList) c1.operands().get(2)).elements().size());
        assertEquals(1, ((Instruction) b.get(4)).operands().size());
        assertEquals(4, ((Instruction) b.get(5)).operands().size());
        assertEquals(0, ((Operand.ParenList) ((Instruction) b.get(6)).operands().get(1)).elements().size());
    }

    @Test
    void prototypesAndTargetLists() {
        List<Statement> b = body("p0 : .callprototype (.param .b32 _) _ (.param .b64 _, .param .b32 _) .noreturn;\n"
                + "t0: .calltargets f, g;\nb0: .branchtargets L1, L2;\nL1:\nL2:\nret;");
        CallPrototypeDecl p = (CallPrototypeDecl) b.get(0);
        assertEquals("p0", p.label());
        assertEquals(1, p.returns().size());
        assertEquals(2, p.params().size());
        assertEquals(TuningDirective.Kind.NORETURN, p.tuning().get(0).kind());
        assertEquals(List.of("f", "g"), ((CallTargetsDecl) b.get(1)).targets());
        assertEquals(List.of("L1", "L2"), ((BranchTargetsDecl) b.get(2)).targets());
    }

    @Test
    void nestedBlocksPragmasAndLoc() {
        List<Statement> b = body("{\n.reg .b32 t;\n{\nmov.u32 t, 1;\n}\n}\n.pragma \"nounroll\";\n"
                + ".loc 1 10 3\n.loc 1 11 5, function_name $L__info_string0, inlined_at 1 20 7\nret;");
        Block outer = (Block) b.get(0);
        assertInstanceOf(Block.class, outer.statements().get(1));
        assertEquals(List.of("nounroll"), ((PragmaDirective) b.get(1)).values());
        LocDirective loc = (LocDirective) b.get(3);
        assertEquals(11, loc.line());
        assertEquals(new LocDirective.InlinedAt(1, 20, 7), loc.inlinedAt());
        assertNotNull(loc.functionName());
    }

    @Test
    void debugSections() {
        PtxModule m = parse(HEADER + ".section .debug_info\n{\n.b32 42\n.b8 1, 2, 3\n.b32 .debug_abbrev\n"
                + ".b32 .debug_loc+133\n.b64 $L__func_begin0\n$L__x:\n}\n");
        SectionDirective s = (SectionDirective) m.items().get(3);
        assertEquals(".debug_info", s.name());
        assertEquals(6, s.entries().size());
        SectionDirective.Data d = (SectionDirective.Data) s.entries().get(1);
        assertEquals("b8", d.type());
        assertEquals(3, d.values().size());
        assertInstanceOf(Expr.Binary.class, ((SectionDirective.Data) s.entries().get(3)).values().get(0));
        // a label followed by a .b32 directive on the next line is not a label with a video selector
        SectionDirective after = (SectionDirective) parse(HEADER + ".section .debug_info\n{\n.b64 $L__end\n"
                + ".b32 104\n.b16 $L__end .b8 1\n}\n").items().get(3);
        assertEquals(List.of("b64", "b32", "b16", "b8"), after.entries().stream()
                .map(e -> ((SectionDirective.Data) e).type()).toList());
    }

    @Test
    void aliasAndModuleLevelPragma() {
        PtxModule m = parse(HEADER + ".pragma \"a\", \"b\";\n.visible .func f();\n.visible .func g();\n.alias g, f;\n");
        assertEquals(List.of("a", "b"), ((PragmaDirective) m.items().get(3)).values());
        assertEquals("g", ((org.jptxas.frontend.ptx.ast.AliasDirective) m.items().get(6)).alias());
    }

    @Test
    void commentsAreIgnoredAndPositionsAreExact() {
        PtxModule m = parse("// leading\n/* block\n comment */ .version 8.0\n.target sm_80 // trailing\n");
        assertEquals(new SourcePos(3, 13), m.version().orElseThrow().pos());
    }
}
