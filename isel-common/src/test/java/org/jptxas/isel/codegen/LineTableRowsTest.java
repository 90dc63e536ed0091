package org.jptxas.isel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.cubin.DebugLine;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.ori.ir.SourceLines;
import org.jptxas.sass.SassAssembler;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

/**
 * The rows {@link LineTableRows} derives from the PTX lines of the emitted instructions: the entry is the body's
 * first {@code .loc} ({@code .debug_line}) and its {@code {} line ({@code .nv_debug_line_sass}), instructions without
 * a line (or with a {@code .loc} of line 0) continue the row before them, the code after the last instruction with a
 * line is the body's {@code }}, a row is written only where the line changes, and rows name files by their
 * {@code .file} index. The stack set-up carries the first {@code .loc} where there is one.
 */
class LineTableRowsTest {
    private static final SassAssembler SM80 = new SassAssembler(TestTargets.of("sm_80").isa());
    private static final SassAssembler SM90 = new SassAssembler(TestTargets.of("sm_90").isa());

    /**
     * The line of {@code text} at PTX line {@code ptxLine}, typed as selection makes it: sm_80's encoding, sm_90's
     * for what sm_80 does not encode ({@code LDC.64 R6, c[0x0][0x170]}).
     */
    private static CodeLine typed(String text, int ptxLine) {
        org.jptxas.sass.SassOp op;
        try {
            op = SM80.select(text, 0, label -> 0);
        } catch (SassAssembler.AssemblyException e) {
            op = SM90.select(text, 0, label -> 0);
        }
        return new CodeLine(null, text, text, null, null, ptxLine, op);
    }

    private static CompiledFunction function(String name, int... ptxLines) {
        return withStackSetUp(name, -1, ptxLines);
    }

    /** {@code stackSetUp}: the index of the instruction that is the stack set-up ({@code MOV R1, c[0x0][0x28]}). */
    private static CompiledFunction withStackSetUp(String name, int stackSetUp, int... ptxLines) {
        List<CodeLine> code = new ArrayList<>();
        for (int l : ptxLines) {
            String text = code.size() == stackSetUp ? "MOV R1, c[0x0][0x28]" : "NOP";
            code.add(typed(text, l));
        }
        FunctionFacts facts = new FunctionFacts(name, true, new byte[16 * ptxLines.length], 8, 0, 0, 0, 0, List.of(), 0,
                0, new int[0], OptionalInt.empty(), 0, List.of(), List.of());
        return new CompiledFunction(code, facts, List.of(), 0, 0);
    }

    @Test
    void rowsFollowThePtxLinesAndTheirLocs() {
        // PTX: '{' at line 5, .loc 7 10 before line 8, .loc 3 20 before lines 9 and 10, .loc 3 0 before line 11,
        // '}' at line 13; files 7 and 3 declared in that order
        SourceLines lines = new SourceLines(
                List.of(new SourceLines.File(7, "/src/k.cu", 5, 6), new SourceLines.File(3, "/src/k.h", 1, 2)),
                Map.of("k", new SourceLines.FunctionLines(5, 13, new SourceLines.Loc(7, 10, 0),
                        Map.of(8, new SourceLines.Loc(7, 10, 0), 9, new SourceLines.Loc(3, 20, 0),
                                10, new SourceLines.Loc(3, 20, 0), 11, new SourceLines.Loc(3, 0, 0)))),
                "x\0".getBytes(), 1);
        // stack set-up (no line), then PTX lines 9, 9, 8, 0 (compiler-made), 10, 11 (.loc line 0), EXIT, BRA, NOP
        CompiledFunction k = function("k", 0, 9, 9, 8, 0, 10, 11, 12, 0, 0);
        CubinBuilder.LineTables t = LineTableRows.of(lines, List.of(k), false);

        // as ptxas 13: the table in index order, rows naming the .file index itself
        assertEquals(List.of(new DebugLine.File("/src/k.h", 1, 2), new DebugLine.File("/src/k.cu", 5, 6)), t.files());
        DebugLine.Sequence source = t.sourceLines().get(0);
        assertEquals(List.of(new DebugLine.Row(0, 7, 10), new DebugLine.Row(0x10, 3, 20),
                new DebugLine.Row(0x30, 7, 10), new DebugLine.Row(0x50, 3, 20)), source.rows());
        assertEquals(0xa0, source.end());

        DebugLine.Sequence ptx = t.ptxLines().get(0);
        assertEquals(List.of(new DebugLine.Row(0, 0, 5), new DebugLine.Row(0x10, 0, 9), new DebugLine.Row(0x30, 0, 8),
                new DebugLine.Row(0x50, 0, 10), new DebugLine.Row(0x60, 0, 11), new DebugLine.Row(0x70, 0, 12),
                new DebugLine.Row(0x80, 0, 13)), ptx.rows());
        // relocatable output names the PTX text as file 1
        assertEquals(1, LineTableRows.of(lines, List.of(k), true).ptxLines().get(0).rows().get(0).file());
    }

    @Test
    void theEntryIsTheFirstLocEvenWhenTheFirstInstructionHasItsOwn() {
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "k.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(5, 13, new SourceLines.Loc(1, 10, 0),
                        Map.of(8, new SourceLines.Loc(1, 10, 0), 9, new SourceLines.Loc(1, 11, 0)))), new byte[0], 0);
        CubinBuilder.LineTables t = LineTableRows.of(lines, List.of(function("k", 9, 8, 9)), false);
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 11)),
                t.sourceLines().get(0).rows());
    }

    @Test
    void theStackSetUpCarriesTheFirstLocAndTheEntryItsOwnLine() {
        // ptxas's stack set-up is at address 0 with the first .loc; where jptxas schedules it later, it still carries
        // that line and the first instruction keeps its own (line 11), so no line is lost
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "k.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(5, 13, new SourceLines.Loc(1, 10, 0),
                        Map.of(8, new SourceLines.Loc(1, 10, 0), 9, new SourceLines.Loc(1, 11, 0),
                                10, new SourceLines.Loc(1, 12, 0)))), new byte[0], 0);
        CubinBuilder.LineTables t = LineTableRows.of(lines, List.of(withStackSetUp("k", 2, 9, 0, 0, 10)), false);
        assertEquals(List.of(new DebugLine.Row(0, 1, 11), new DebugLine.Row(0x20, 1, 10), new DebugLine.Row(0x30, 1, 12)),
                t.sourceLines().get(0).rows());
    }

    @Test
    void aConstantPutIntoARegisterContinuesTheRowBefore() {
        // ptxas folds 'mov.s32 %r, 1' into its uses: the MOV jptxas keeps does not annotate the mov's line (11)
        List<DebugLine.Row> rows = rowsOf(new String[][] {{"NOP", "1"}, {"MOV R28, 0x1", "2"}, {"MOV R29, RZ", "2"},
                {"IADD3 R3, R2, 0x1, RZ", "2"}, {"NOP", "3"}}, 10, 11, 12);
        // the instruction that computes something keeps its line
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x30, 1, 11), new DebugLine.Row(0x40, 1, 12)),
                rows);
    }

    @Test
    void aShiftTheAddAfterItReadsTakesTheAddsLine() {
        // as ptxas 13 fuses shr.u32 + add.s32 into LEA.HI and cvt.s64.s32 + add.s64 into IADD3 + LEA.HI.X.SX32 (the
        // add's line, 13 and 15; the shift's, 12 and 14, vanish); a shift read by something else keeps its line (16);
        // of two sign extensions added (17 and 18), jptxas has fused one into the add's LEA.HI.X.SX32 as ptxas does,
        // and the other's SHF, read by that LEA, keeps its line (18); the add is 19
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "k.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(1, 40, new SourceLines.Loc(1, 10, 0),
                        Map.of(2, new SourceLines.Loc(1, 10, 0), 3, new SourceLines.Loc(1, 12, 0),
                                4, new SourceLines.Loc(1, 13, 0), 5, new SourceLines.Loc(1, 14, 0),
                                6, new SourceLines.Loc(1, 15, 0), 7, new SourceLines.Loc(1, 16, 0),
                                8, new SourceLines.Loc(1, 17, 0), 9, new SourceLines.Loc(1, 18, 0),
                                10, new SourceLines.Loc(1, 19, 0)))), new byte[0], 0);
        List<CodeLine> code = new ArrayList<>();
        for (String[] l : new String[][] {{"NOP", "2"}, {"SHF.R.U32.HI R4, RZ, 0x5, R0", "3"},
                {"SHF.R.S32.HI R7, RZ, 0x1f, R0", "5"}, {"IADD3 R8, P0, R0, c[0x0][0x168], RZ", "6"},
                {"IADD3 R4, R4.reuse, R2, RZ", "4"}, {"IADD3.X R9, R7, c[0x0][0x16c], RZ, P0, !PT", "6"},
                {"SHF.R.U32.HI R5, RZ, 0x3, R0", "7"}, {"ISETP.GE.AND P1, PT, R5, RZ, PT", "7"},
                {"SHF.R.S32.HI R11, RZ, 0x1f, R3", "9"}, {"IADD3 R14, P0, R2, R3, RZ", "10"},
                {"LEA.HI.X.SX32 R15, R2, R11, 0x1, P0", "10"}}) {
            code.add(typed(l[0], Integer.parseInt(l[1])));
        }
        FunctionFacts facts = new FunctionFacts("k", true, new byte[16 * code.size()], 8, 0, 0, 0, 0, List.of(), 0,
                0, new int[0], OptionalInt.empty(), 0, List.of(), List.of());
        CubinBuilder.LineTables t = LineTableRows.of(lines, List.of(new CompiledFunction(code, facts, List.of(), 0, 0)),
                false);
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 13), new DebugLine.Row(0x20, 1, 15),
                new DebugLine.Row(0x40, 1, 13), new DebugLine.Row(0x50, 1, 15), new DebugLine.Row(0x60, 1, 16),
                new DebugLine.Row(0x80, 1, 18), new DebugLine.Row(0x90, 1, 19)), t.sourceLines().get(0).rows());
    }

    /** The source rows of {@code code} ({@code {text, ptx line}}), PTX line {@code k} under {@code .loc 1 locs[k-1]}. */
    private static List<DebugLine.Row> rowsOf(String[][] code, int... locs) {
        return rowsOf(true, code, locs);
    }

    /** As {@link #rowsOf(String[][], int...)}, of an optimized compilation or not (-O0, -g). */
    private static List<DebugLine.Row> rowsOf(boolean optimized, String[][] code, int... locs) {
        Map<Integer, SourceLines.Loc> byLine = new java.util.HashMap<>();
        for (int k = 0; k < locs.length; k++) {
            byLine.put(k + 1, new SourceLines.Loc(1, locs[k], 0));
        }
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "k.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(0, 40, new SourceLines.Loc(1, locs[0], 0), byLine)),
                new byte[0], 0);
        List<CodeLine> typedCode = new ArrayList<>();
        for (String[] l : code) {
            typedCode.add(typed(l[0], Integer.parseInt(l[1])));
        }
        FunctionFacts facts = new FunctionFacts("k", true, new byte[16 * code.length], 8, 0, 0, 0, 0, List.of(), 0,
                0, new int[0], OptionalInt.empty(), 0, List.of(), List.of());
        CompiledFunction k = new CompiledFunction(typedCode, facts, List.of(), 0, 0);
        return LineTableRows.of(lines, List.of(k), false, optimized).sourceLines().get(0).rows();
    }

    @Test
    void aSharedLoadOfTheWordAboveAnotherTakesThatLoadsLine() {
        // ptxas merges ld.shared.f32 [%rd17+0] (line 134) and [%rd17+4] (line 135) into one LDS.64 with line 134;
        // a load without the word below (136), or whose base changed since (139), keeps its line
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 134), new DebugLine.Row(0x20, 1, 148),
                new DebugLine.Row(0x30, 1, 134), new DebugLine.Row(0x40, 1, 136), new DebugLine.Row(0x50, 1, 137),
                new DebugLine.Row(0x60, 1, 138), new DebugLine.Row(0x70, 1, 139)),
                rowsOf(new String[][] {{"NOP", "1"}, {"LDS R9, [R10]", "2"}, {"IMAD.WIDE.U32 R14, R11, 0x4, R4", "3"},
                        {"LDS R10, [R10+0x4]", "4"}, {"LDS R6, [R4+0x4]", "5"}, {"LDS R2, [R3]", "6"},
                        {"IADD3 R3, R3, 0x8, RZ", "7"}, {"LDS R5, [R3+0x4]", "8"}},
                        10, 134, 148, 135, 136, 137, 138, 139));
    }

    @Test
    void aRegisterCopyContinuesTheRowBeforeUnlessPredicated() {
        // ptxas coalesces a 'mov.b32 %r3, %r2' (or a loop-carried copy) away: jptxas's MOV R3, R2 does not annotate
        // line 11; a predicated copy (a branch arm made conditional) keeps its line (12), as ptxas's does
        List<DebugLine.Row> rows = rowsOf(new String[][] {{"NOP", "1"}, {"MOV R3, R2", "2"}, {"@!P1 MOV R4, R5", "3"}},
                10, 11, 12);
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 12)), rows);
    }

    @Test
    void aHighWordCopyContinuesTheRowBeforeARealShiftKeepsItsLine() {
        // 'shr.u64 %rd5, %rd4, 32; cvt.u32.u64 %r2, %rd5;' is the high word: ptxas reads the register's half where it
        // is used, jptxas's SHF.R.U32.HI R4, RZ, RZ, R5 (a shift by zero, a copy) does not annotate line 11; a shift
        // by 5 (line 12) keeps its line
        List<DebugLine.Row> rows = rowsOf(new String[][] {{"NOP", "1"}, {"SHF.R.U32.HI R4, RZ, RZ, R5", "2"},
                {"SHF.R.U32.HI R6, RZ, 0x5, R5", "3"}}, 10, 11, 12);
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 12)), rows);
    }

    @Test
    void aParameterReadIntoARegisterContinuesTheRowBefore() {
        // ptxas reads an ld.param's value from the constant bank where it is used: jptxas's MOV R4, c[0x0][0x168]
        // does not annotate the ld.param's line (11); the instruction that uses it (line 12) keeps its own
        List<DebugLine.Row> rows = rowsOf(new String[][] {{"NOP", "1"}, {"MOV R4, c[0x0][0x168]", "2"},
                {"LDC.64 R6, c[0x0][0x170]", "2"}, {"IADD3 R4, R4, 0x1, RZ", "3"}}, 10, 11, 12);
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x30, 1, 12)), rows);
    }

    @Test
    void aConstVariableReadIntoARegisterTakesItsReadersLine() {
        // ptxas reads an ld.const's word of a .const variable as an operand of its user (IADD3 R5, R2, c[0x3][0x4], RZ
        // on sm_80) or loads it just before the user with the user's line (ULDC UR4, c[0x3][0x4] on sm_90; checked
        // with ptxas 13 on an ld.const at line 11 read by the add of line 13): jptxas's LDC R5, c[0x3][0x28c] takes
        // the line of the ISETP reading R5 (13), not the ld.const's (11); MOV R4, c[0x3][0x288], which nothing in
        // its block reads, continues the row before
        List<DebugLine.Row> rows = rowsOf(new String[][] {{"NOP", "1"}, {"LDC R5, c[0x3][0x28c]", "2"},
                {"IADD3 R6, R7, 0x1, RZ", "3"}, {"ISETP.GE.AND P0, PT, R6, R5, PT", "4"},
                {"MOV R4, c[0x3][0x288]", "2"}, {"EXIT", "5"}}, 10, 11, 12, 13, 14);
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 13),
                new DebugLine.Row(0x20, 1, 12), new DebugLine.Row(0x30, 1, 13), new DebugLine.Row(0x50, 1, 14)), rows);
    }

    @Test
    void inputsMergeIntoOneTableWithTheLastInputsText() {
        // two inputs sharing the .file index space; each function's PTX lines are its own input's
        SourceLines a = new SourceLines(List.of(new SourceLines.File(2, "a.cu", 0, 0)),
                Map.of("ka", new SourceLines.FunctionLines(5, 9, new SourceLines.Loc(2, 10, 0),
                        Map.of(7, new SourceLines.Loc(2, 10, 0), 8, new SourceLines.Loc(2, 11, 0)))), "a\0".getBytes(), 1);
        SourceLines b = new SourceLines(List.of(new SourceLines.File(1, "b.cu", 0, 0)),
                Map.of("kb", new SourceLines.FunctionLines(5, 9, new SourceLines.Loc(1, 30, 0),
                        Map.of(7, new SourceLines.Loc(1, 30, 0), 8, new SourceLines.Loc(1, 31, 0)))), "b\0".getBytes(), 2);
        SourceLines merged = SourceLines.merge(List.of(a, b));
        CubinBuilder.LineTables t = LineTableRows.of(merged, List.of(function("kb", 7, 8), function("ka", 7, 8)), false);
        assertEquals(List.of(new DebugLine.File("b.cu", 0, 0), new DebugLine.File("a.cu", 0, 0)), t.files());
        assertEquals(List.of(new DebugLine.Row(0, 1, 30), new DebugLine.Row(0x10, 1, 31)), t.sourceLines().get(0).rows());
        assertEquals(List.of(new DebugLine.Row(0, 2, 10), new DebugLine.Row(0x10, 2, 11)), t.sourceLines().get(1).rows());
        assertEquals("b\0", new String(t.ptxText()));
        assertEquals(2, t.checksum());
    }

    @Test
    void aFunctionWithoutLocHasNoSourceSequenceButItsPtxLines() {
        SourceLines lines = new SourceLines(List.of(),
                Map.of("k", new SourceLines.FunctionLines(5, 9, null, Map.of())), new byte[0], 0);
        CubinBuilder.LineTables t = LineTableRows.of(lines, List.of(function("k", 0, 6, 7, 0)), false);
        assertEquals(List.of(), t.sourceLines());
        assertEquals(List.of(new DebugLine.Row(0, 0, 5), new DebugLine.Row(0x10, 0, 6), new DebugLine.Row(0x20, 0, 7),
                new DebugLine.Row(0x30, 0, 9)), t.ptxLines().get(0).rows());
    }

    @Test
    void aBsyncCarriesTheLocBeforeItsJoinLabel() {
        // PTX: '{' 1, '@p bra L_else;' 2 (.loc 11), 'fma' 3 (.loc 14), 'bra.uni L_join;' 4, 'L_else:' 5,
        // 'mov %f5, %f1;' 6 (.loc 20, coalesced away), 'L_join:' 7, 'st' 8 (.loc 30), '}' 9. ptxas's BSYNC carries 20,
        // the line of the arm that falls into the join, not the join's 30.
        String text = String.join("\0", "{", "@!%p1 bra L_else;", "fma.rn.f32 %f5, %f3, %f4, %f1;",
                "bra.uni L_join;", "L_else:", "mov.f32 %f5, %f1;", "L_join:", "st.global.f32 [%rd4], %f5;", "}") + "\0";
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "t.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(1, 9, new SourceLines.Loc(1, 11, 0),
                        Map.of(2, new SourceLines.Loc(1, 11, 0), 3, new SourceLines.Loc(1, 14, 0),
                                4, new SourceLines.Loc(1, 14, 0), 6, new SourceLines.Loc(1, 20, 0),
                                8, new SourceLines.Loc(1, 30, 0)))),
                text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 0);
        assertEquals(List.of(new DebugLine.Row(0, 1, 11), new DebugLine.Row(0x10, 1, 14),
                new DebugLine.Row(0x20, 1, 20), new DebugLine.Row(0x30, 1, 30)),
                rowsOf(lines, new String[] {"@P0 BRA `(.L_x_1)", "FFMA R5, R5, R4, R0", "BSYNC B0", "STG.E [R2.64], R5"},
                        2, 3, 8, 8));
    }

    @Test
    void aBsyncLooksForItsJoinLabelPastLabelsNoBranchNames() {
        // PTX: '{' 1, '@!%p1 bra L_else;' 2 (.loc 11), 'fma' 3 (.loc 14), 'bra.uni L_join;' 4, 'L_else:' 5,
        // 'mov %f5, %f1;' 6 (.loc 20), 'L_join:' 7, 'add' 8 (.loc 30, scheduled away), '$L__tmp3:' 9, 'st' 10
        // (.loc 31), '}' 11. $L__tmp3 only marks a .loc range for the debug info, no branch goes there: the join's
        // label is L_join, and the BSYNC carries 20, not the 30 before $L__tmp3 (ptxas 13 on this shape: the BSYNC B0
        // before the join continues the else arm's line 20, and line 30, a coalesced mov, has no code).
        String text = String.join("\0", "{", "@!%p1 bra L_else;", "fma.rn.f32 %f5, %f3, %f4, %f1;",
                "bra.uni L_join;", "L_else:", "mov.f32 %f5, %f1;", "L_join:", "add.f32 %f6, %f5, %f1;", "$L__tmp3:",
                "st.global.f32 [%rd4], %f5;", "}") + "\0";
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "t.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(1, 11, new SourceLines.Loc(1, 11, 0),
                        Map.of(2, new SourceLines.Loc(1, 11, 0), 3, new SourceLines.Loc(1, 14, 0),
                                4, new SourceLines.Loc(1, 14, 0), 6, new SourceLines.Loc(1, 20, 0),
                                8, new SourceLines.Loc(1, 30, 0), 10, new SourceLines.Loc(1, 31, 0)))),
                text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 0);
        assertEquals(List.of(new DebugLine.Row(0, 1, 11), new DebugLine.Row(0x10, 1, 14),
                new DebugLine.Row(0x20, 1, 20), new DebugLine.Row(0x30, 1, 31), new DebugLine.Row(0x40, 1, 30)),
                rowsOf(lines, new String[] {"@P0 BRA `(.L_x_1)", "FFMA R5, R5, R4, R0", "BSYNC B0",
                        "STG.E [R2.64], R5", "FADD R6, R5, R1"}, 2, 3, 10, 10, 8));
    }

    /** The source rows of function k of {@code lines}, instruction {@code i} {@code texts[i]} at {@code ptxLines[i]}. */
    private static List<DebugLine.Row> rowsOf(SourceLines lines, String[] texts, int... ptxLines) {
        List<CodeLine> code = new ArrayList<>();
        for (int i = 0; i < texts.length; i++) {
            code.add(typed(texts[i], ptxLines[i]));
        }
        FunctionFacts facts = new FunctionFacts("k", true, new byte[16 * code.size()], 8, 0, 0, 0, 0, List.of(), 0,
                0, new int[0], OptionalInt.empty(), 0, List.of(), List.of());
        return LineTableRows.of(lines, List.of(new CompiledFunction(code, facts, List.of(), 0, 0)), false)
                .sourceLines().get(0).rows();
    }

    @Test
    void anAbsoluteValueAndAConstantAddressOffsetContinueTheRowBefore() {
        // ptxas reads |R10| in the use of an abs.f32 (line 21) and puts an add.s64's 0x40 (line 23) into the
        // LDGSTS's offset through the add of line 24: neither line has code there. A 64-bit constant add whose sum is
        // stored rather than addressed (line 26) keeps its line.
        assertEquals(List.of(new DebugLine.Row(0, 1, 20), new DebugLine.Row(0x30, 1, 22),
                new DebugLine.Row(0x50, 1, 24), new DebugLine.Row(0x70, 1, 26), new DebugLine.Row(0x90, 1, 27)),
                rowsOf(new String[][] {{"NOP", "1"}, {"FADD R67, |R10|, -RZ", "2"}, {"IADD3 R70, P5, R46, 0x40, RZ", "4"},
                        {"FMUL R3, R67, R4", "3"}, {"IADD3.X R71, R47, RZ, RZ, P5, !PT", "4"},
                        {"IADD3 R82, P0, R70, R12, RZ", "5"}, {"LDGSTS.E.BYPASS.128 [R78], [R82.64], P5", "5"},
                        {"IADD3 R20, P1, R46, 0x80, RZ", "7"}, {"IADD3.X R21, R47, RZ, RZ, P1, !PT", "7"},
                        {"STG.E.64 [R2.64], R20", "8"}},
                        20, 21, 22, 23, 24, 25, 26, 27));
    }

    @Test
    void aPredicatedCopyTakesTheLastLineOfItsArm() {
        // PTX: '{' 1, '@!%p1 bra L;' 2 (.loc 10), 'mov.s32 %r5, %r4;' 3 (.loc 11), 'mov.f32 %f5, %f7;' 4 (.loc 12),
        // 'L:' 5, 'add' 6 (.loc 13), '}' 7: ptxas predicates both copies at line 12, so line 11 has no code
        String text = String.join("\0", "{", "@!%p1 bra L;", "mov.s32 %r5, %r4;", "mov.f32 %f5, %f7;", "L:",
                "add.s32 %r6, %r5, 1;", "}") + "\0";
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "t.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(1, 7, new SourceLines.Loc(1, 10, 0),
                        Map.of(2, new SourceLines.Loc(1, 10, 0), 3, new SourceLines.Loc(1, 11, 0),
                                4, new SourceLines.Loc(1, 12, 0), 6, new SourceLines.Loc(1, 13, 0)))),
                text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 0);
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 12),
                new DebugLine.Row(0x30, 1, 13)), rowsOf(lines, new String[] {"FSETP.GT.AND P1, PT, R25, R31, PT",
                        "@P1 MOV R5, R24", "@P1 MOV R31, R25", "IADD3 R6, R5, 0x1, RZ"}, 2, 3, 4, 6));
    }

    @Test
    void aCopyAnArmMadeConditionalOverwritesTakesTheBranchsLine() {
        // PTX: '{' 1, 'mov.f32 %f49, %f13;' 2 (.loc 20), '@!%p2 bra L;' 3 (.loc 21), 'mul.rn.f32 %f49, %f13, 0f00000000;'
        // 4 (.loc 22), 'L:' 5, 'abs.f32' 6 (.loc 23), '}' 7: ptxas gives the copy the branch's line 21, so line 20 has no
        // code; a copy the arm does not overwrite (R7) continues the row before as any copy does
        String text = String.join("\0", "{", "mov.f32 %f49, %f13;", "@!%p2 bra L;",
                "mul.rn.f32 %f49, %f13, 0f00000000;", "L:", "abs.f32 %f51, %f49;", "}") + "\0";
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "t.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(1, 7, new SourceLines.Loc(1, 19, 0),
                        Map.of(2, new SourceLines.Loc(1, 20, 0), 3, new SourceLines.Loc(1, 21, 0),
                                4, new SourceLines.Loc(1, 22, 0), 6, new SourceLines.Loc(1, 23, 0)))),
                text.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 0);
        String[] code = {"FMUL R9, R9, 6.2831854820251464844", "MOV R7, R9", "MOV R12, R9",
                "FSETP.GEU.AND P0, PT, R9, RZ, PT", "@!P0 FMUL R12, R9, RZ", "FADD R13, |R12|, -RZ"};
        assertEquals(List.of(new DebugLine.Row(0, 1, 19), new DebugLine.Row(0x20, 1, 21),
                new DebugLine.Row(0x40, 1, 22)), rowsOf(lines, code, 1, 2, 2, 3, 4, 6));
        // the same copy without the branch between it and the arm's line (no branch in the text) continues the row
        SourceLines unbranched = new SourceLines(lines.files(), lines.functions(), String.join("\0", "{",
                "mov.f32 %f49, %f13;", "setp.eq.f32 %p2, %f15, %f16;", "mul.rn.f32 %f49, %f13, 0f00000000;", "L:",
                "abs.f32 %f51, %f49;", "}").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1), 0);
        assertEquals(List.of(new DebugLine.Row(0, 1, 19), new DebugLine.Row(0x30, 1, 21),
                new DebugLine.Row(0x40, 1, 22)), rowsOf(unbranched, code, 1, 2, 2, 3, 4, 6));
    }

    @Test
    void aTextureFetchContinuesTheRowBeforeATldKeepsItsLine() {
        // ptxas writes no row for a TEX (line 11: the fetch alone), nor for the ULDC/UMOV of its handle on sm_90
        // (line 13); the shift reading the texel keeps its line (12), and so does a TLD (14)
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 12), new DebugLine.Row(0x70, 1, 14)),
                rowsOf(new String[][] {{"NOP", "1"}, {"TEX.SCR.LL RZ, R14, R16, R13, 0x0, 0x69, 2D, 0x9", "2"},
                        {"SHF.L.U32 R5, R14, 0x8, RZ", "3"}, {"ULDC UR4, c[0x0][0x228]", "4"}, {"UMOV UR5, URZ", "4"},
                        {"MOV R19, R3", "3"}, {"TEX.LL RZ, R17, R12, R9, UR4, 0x0, 2D, 0x1", "4"},
                        {"TLD.SCR.LZ RZ, R12, R8, 0x0, 0x65, 1D, 0x1", "5"}},
                        10, 11, 12, 13, 14));
        // unoptimized code (-O0, -g) keeps the fetch's row
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 11)),
                rowsOf(false, new String[][] {{"NOP", "1"}, {"TEX.SCR.LL RZ, R14, R16, R13, 0x0, 0x69, 2D, 0x9", "2"}},
                        10, 11));
    }

    @Test
    void localStoresContinueTheRowBeforeWhereNothingReadsTheFrame() {
        // st.local into an array nothing loads (lines 11, 13): ptxas removes the stores, so their lines have no row
        String[][] dead = {{"IADD3 R1, R1, -0x10, RZ", "1"}, {"STL [R1], R14", "2"}, {"SHF.L.U32 R5, R14, 0x8, RZ", "3"},
            {"STL [R1+0xc], R15", "4"}};
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 12)), rowsOf(dead, 10, 11, 12, 13));
        // -O0 and -g keep the stores, with their lines
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 11), new DebugLine.Row(0x20, 1, 12),
                new DebugLine.Row(0x30, 1, 13)), rowsOf(false, dead, 10, 11, 12, 13));
        // a load of the frame (line 14), or its address copied (an escape: MOV R22, R1), keeps the stores' lines
        String[][] loaded = java.util.Arrays.copyOf(dead, 5);
        loaded[4] = new String[] {"LDL R3, [R1]", "5"};
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 11), new DebugLine.Row(0x20, 1, 12),
                new DebugLine.Row(0x30, 1, 13), new DebugLine.Row(0x40, 1, 14)), rowsOf(loaded, 10, 11, 12, 13, 14));
        String[][] escaping = java.util.Arrays.copyOf(dead, 5);
        escaping[4] = new String[] {"MOV R22, R1", "5"};
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 11), new DebugLine.Row(0x20, 1, 12),
                new DebugLine.Row(0x30, 1, 13)), rowsOf(escaping, 10, 11, 12, 13, 14));
    }

    /**
     * Kernel {@code k} (PTX lines 8, 9 under {@code .loc 1 10}) followed by subroutines {@code f}, {@code d} and an
     * internal helper: {@code f}'s {@code ld.param} at PTX line 20 under {@code .loc 1 40}, its load at 21 under 42;
     * {@code d}'s {@code ld.param} at 30 under 80, its call at 31 under 82; {@code g}'s {@code ld.param} at 40
     * under 50 (a copy kept across its call), the call at 41 under 52.
     */
    private static CubinBuilder.LineTables withSubroutines(String[][] code, List<FunctionFacts.InnerFunction> inner) {
        SourceLines.Loc kernelFirst = new SourceLines.Loc(1, 10, 0);
        Map<Integer, SourceLines.Loc> locs = Map.of(8, kernelFirst, 9, kernelFirst, 20, new SourceLines.Loc(1, 40, 0),
                21, new SourceLines.Loc(1, 42, 0), 30, new SourceLines.Loc(1, 80, 0), 31, new SourceLines.Loc(1, 82, 0),
                40, new SourceLines.Loc(1, 50, 0), 41, new SourceLines.Loc(1, 52, 0));
        SourceLines lines = new SourceLines(List.of(new SourceLines.File(1, "k.cu", 0, 0)),
                Map.of("k", new SourceLines.FunctionLines(5, 12, kernelFirst, locs),
                        "f", new SourceLines.FunctionLines(18, 25, new SourceLines.Loc(1, 40, 0), locs),
                        "d", new SourceLines.FunctionLines(28, 35, new SourceLines.Loc(1, 80, 0), locs),
                        "g", new SourceLines.FunctionLines(38, 45, new SourceLines.Loc(1, 50, 0), locs)),
                new byte[0], 0);
        List<CodeLine> typedCode = new ArrayList<>();
        for (String[] c : code) {
            typedCode.add(typed(c[0], Integer.parseInt(c[1])));
        }
        FunctionFacts facts = new FunctionFacts("k", true, new byte[16 * code.length], 8, 0, 0, 0, 0, List.of(), 0,
                0, new int[0], OptionalInt.empty(), 0, List.of(), List.of(), inner);
        return LineTableRows.of(lines, List.of(new CompiledFunction(typedCode, facts, List.of(), 0, 0)), false);
    }

    @Test
    void aSubroutinesEntryCarriesItsBodysFirstLoc() {
        // ptxas 13: a .func whose ld.params (.loc 1 40) give no code starts with ULDC.64 at line 40, its load at 42;
        // jptxas's entry is the frame's set-up, which would otherwise continue the kernel's last row
        String[][] code = {{"NOP", "8"}, {"EXIT", "9"}, {"IADD3 R1, R1, -0x10, RZ", "0"}, {"STL [R1], R18", "0"},
                {"LDG.E R0, [R4.64]", "21"}, {"RET.REL.NODEC R6 `(k)", "0"}, {"NOP", "0"}};
        CubinBuilder.LineTables t = withSubroutines(code, List.of(new FunctionFacts.InnerFunction("$k$f", 0x20, 0x50, 0)));
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 40), new DebugLine.Row(0x40, 1, 42)),
                t.sourceLines().get(0).rows());
    }

    @Test
    void aFrameSetUpFollowedByCodeWithALineTakesThatLine() {
        // ptxas 13 sets up a call-less subroutine's frame in the kernel; its entry is the body's first instruction,
        // which keeps its own line (triton's _bwd_kernel_one_col_block: S2R at 80, line 43 without code), so
        // jptxas's set-up right before that code takes its line, not the first .loc
        String[][] code = {{"NOP", "8"}, {"EXIT", "9"}, {"IADD3 R1, R1, -0x10, RZ", "0"}, {"LDG.E R0, [R4.64]", "21"},
                {"RET.REL.NODEC R6 `(k)", "0"}, {"NOP", "0"}};
        CubinBuilder.LineTables t = withSubroutines(code, List.of(new FunctionFacts.InnerFunction("$k$f", 0x20, 0x40, 0)));
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 42)), t.sourceLines().get(0).rows());
    }

    @Test
    void registerCopiesAtACalllessSubroutinesEntryContinueIntoItsFirstCodedLine() {
        // ptxas 13 on progminer's keccak_f800: its first .loc (256, a cvt of a parameter) gives no code and the
        // subroutine starts with its loop's first LOP3 at line 211; jptxas's parameter copies before that carry 211
        String[][] code = {{"NOP", "8"}, {"EXIT", "9"}, {"MOV R30, R6", "0"}, {"MOV R35, R11", "0"},
                {"LDG.E R0, [R4.64]", "21"}, {"RET.REL.NODEC R6 `(k)", "0"}, {"NOP", "0"}};
        CubinBuilder.LineTables t = withSubroutines(code, List.of(new FunctionFacts.InnerFunction("$k$f", 0x20, 0x50, 0)));
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 42)), t.sourceLines().get(0).rows());
    }

    @Test
    void aSubroutineThatBeginsWithACallStartsAtTheCallsLine() {
        // ptxas 13: '.loc 1 80' ld.param, '.loc 1 82' call h with the parameter as it is: the entry is the call's
        // argument and return address set-up at line 82, no code at 80 (Kokkos's device_abort the same)
        String[][] code = {{"NOP", "8"}, {"EXIT", "9"}, {"IADD3 R1, R1, -0x10, RZ", "0"}, {"MOV R6, 0x70", "31"},
                {"STL [R1], R20", "0"}, {"CALL.REL.NOINC `($k$h)", "31"}, {"EXIT", "0"}, {"NOP", "0"}};
        CubinBuilder.LineTables t = withSubroutines(code, List.of(new FunctionFacts.InnerFunction("$k$d", 0x20, 0x60, 0)));
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 82)), t.sourceLines().get(0).rows());

        // a parameter's copy before the call (its value lives across it): the entry is the first .loc, as ptxas's
        // copy 'IMAD.MOV.U32 R8, RZ, RZ, R2' at line 50 before 'MOV R4, 0xc0' and the call at 52
        String[][] copying = {{"NOP", "8"}, {"EXIT", "9"}, {"MOV R2, R4", "40"}, {"MOV R6, 0x70", "41"},
                {"CALL.REL.NOINC `($k$h)", "41"}, {"RET.REL.NODEC R8 `(k)", "0"}, {"NOP", "0"}};
        t = withSubroutines(copying, List.of(new FunctionFacts.InnerFunction("$k$g", 0x20, 0x50, 0)));
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 50), new DebugLine.Row(0x40, 1, 52)),
                t.sourceLines().get(0).rows());
    }

    @Test
    void aSubroutinesEntryWithALineOfItsOwnKeepsIt() {
        // ptxas 13 on a Triton .func: ld.params at '.loc 1 43' give no code, the entry 'S2R R53, SR_TID.X' carries
        // its own line 80 and line 43 has no code
        String[][] code = {{"NOP", "8"}, {"EXIT", "9"}, {"S2R R0, SR_TID.X", "21"}, {"IADD3 R1, R1, -0x10, RZ", "0"},
                {"RET.REL.NODEC R6 `(k)", "0"}, {"NOP", "0"}};
        CubinBuilder.LineTables t = withSubroutines(code, List.of(new FunctionFacts.InnerFunction("$k$f", 0x20, 0x40, 0)));
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x20, 1, 42)), t.sourceLines().get(0).rows());
    }

    @Test
    void anInternalHelpersEntryContinuesTheRowBefore() {
        // $__internal_... helpers (64-bit division) have no PTX body: no .loc of their own
        String[][] code = {{"NOP", "8"}, {"EXIT", "9"}, {"IADD3 R1, R1, -0x10, RZ", "0"}, {"RET.REL.NODEC R6 `(k)", "0"}};
        CubinBuilder.LineTables t = withSubroutines(code,
                List.of(new FunctionFacts.InnerFunction("$__internal_0_$__cuda_sm20_div_u64", 0x20, 0x20, 0)));
        assertEquals(List.of(new DebugLine.Row(0, 1, 10)), t.sourceLines().get(0).rows());
    }

    @Test
    void aJoinWhoseFirstInstructionWasMovedFromAboveTheBranchContinuesTheRowBefore() {
        // PTX: ld.const (line 2, .loc 500), the branch around a division's arms (3, .loc 417), an arm (4, .loc 418), the
        // join's first instruction the ld.const's LDC that jptxas placed there: ptxas has no code at 500 (the word is
        // its user's operand), and the BSYNC, with the LDC's line 2 above its BSSY's 3, continues the arm's row
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 417), new DebugLine.Row(0x30, 1, 418),
                new DebugLine.Row(0x50, 1, 51)),
                rowsOf(new String[][] {{"NOP", "1"}, {"BSSY B1, `(.L_x_1)", "3"}, {"@!P0 BRA `(.L_x_0)", "3"},
                        {"IMAD R4, R5, R6, RZ", "4"}, {"BSYNC B1", "2"}, {"ISETP.LT.U32.AND P0, PT, R12, R10, PT", "5"}},
                        10, 500, 417, 418, 51));
        // a join whose first instruction comes from below the branch keeps that line (the label rule's case)
        assertEquals(List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 417), new DebugLine.Row(0x30, 1, 418),
                new DebugLine.Row(0x40, 1, 51)),
                rowsOf(new String[][] {{"NOP", "1"}, {"BSSY B1, `(.L_x_1)", "3"}, {"@!P0 BRA `(.L_x_0)", "3"},
                        {"IMAD R4, R5, R6, RZ", "4"}, {"BSYNC B1", "5"}, {"ISETP.LT.U32.AND P0, PT, R12, R10, PT", "5"}},
                        10, 500, 417, 418, 51));
    }
}
