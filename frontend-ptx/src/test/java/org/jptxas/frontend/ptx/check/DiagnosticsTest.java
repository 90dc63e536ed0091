package org.jptxas.frontend.ptx.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.spi.TestTargets;

/**
 * Diagnostics of the parser and the checker, worded and positioned as ptxas 13.0 words them (each expected line was
 * taken from a ptxas run on the same input, with "ptxas" replaced by "jptxas").
 */
class DiagnosticsTest {
    private static final String HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n";

    /** Every diagnostic of checking {@code text} as bad.ptx for sm_90, formatted; empty when accepted. */
    static List<String> diagnostics(String text) {
        return diagnostics(text, "sm_90");
    }

    static List<String> diagnostics(String text, String arch) {
        try {
            // Instruction-table checks belong to the isa package's tests; these are about names and structure.
            var parsed = org.jptxas.frontend.ptx.parse.PtxParser.parse("bad.ptx", text);
            if (parsed.hasErrors()) {
                return parsed.diagnostics().stream().map(d -> d.format("jptxas")).toList();
            }
            return PtxChecker.check("bad.ptx", parsed.module(), Target.of(arch), TestTargets.catalog(), false).diagnostics().stream()
                    .map(d -> d.format("jptxas")).toList();
        } catch (RuntimeException | StackOverflowError e) {
            throw new AssertionError("the front end threw instead of reporting", e);
        }
    }

    static String kernel(String body) {
        return HEADER + ".visible .entry k()\n{\n" + body + "ret;\n}\n";
    }

    @Test
    void preprocessorDirectivesAreRefusedAsPtxas13RefusesThem() {
        // ptxas 13: "line 4; fatal   : Ill formed conditional" for any .IF, then it stops.
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Ill formed conditional"),
                diagnostics(HEADER + ".IF 1\n.ENDIF\n.visible .entry k()\n{\nret;\n}\n"));
        // ptxas 13: "line 4; error   : Unimplemented feature: macro definitions", then a syntax error at .ENDM.
        List<String> d = diagnostics(HEADER + ".MACRO FOO\nret;\n.ENDM\n.visible .entry k()\n{\nret;\n}\n");
        assertEquals("jptxas bad.ptx, line 4; error   : Unimplemented feature: macro definitions", d.get(0));
        assertTrue(d.size() > 1, d::toString);
    }

    @Test
    void minnctapersmAloneIsIgnoredWithPtxassWarningAtTheClosingBrace() {
        // ptxas 13: "w.ptx, line 7; warning : .minnctapersm is ignored when neither .maxntid nor .reqntid is specified."
        assertEquals(List.of("jptxas bad.ptx, line 7; warning : .minnctapersm is ignored when neither .maxntid nor"
                + " .reqntid is specified."),
                diagnostics(HEADER + ".visible .entry k() .minnctapersm 2\n{\n ret;\n}\n"));
        assertEquals(List.of(), diagnostics(HEADER + ".visible .entry k() .maxntid 128 .minnctapersm 2\n{\n ret;\n}\n"));
    }

    @Test
    void arrayInitializersLongerThanTheirArrayAreFatal() {
        // ptxas 13: "line 4; fatal   : Greater number of elements in array initializer" (at any level); fewer
        // elements are zero-filled, and a vector's own braces are not an array level
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Greater number of elements in array initializer"),
                diagnostics(HEADER + ".global .u32 a[2] = {1, 2, 3};\n"));
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Greater number of elements in array initializer"),
                diagnostics(HEADER + ".global .u32 b[2][2] = {{1, 2}, {3, 4, 5}};\n"));
        assertEquals(List.of(), diagnostics(HEADER + ".global .u32 c[3] = {1, 2};\n"
                + ".global .v2.u32 d[1] = {{1, 2}};\n.global .u32 e[] = {1, 2, 3};\n"));
    }

    @Test
    void unknownSymbolsAreAllReported() {
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Unknown symbol '%q'",
                "jptxas bad.ptx, line 8; error   : Unknown symbol '%z'"),
                diagnostics(kernel(".reg .b32 %r<3>;\nmov.b32 %r1, %q;\nmov.b32 %r1, %z;\n")));
    }

    @Test
    void aDeclaredRegisterHidesTheSpecialRegisterOfItsName() {
        // ptxas 13: a register %tid is fine on its own, but %tid.x is then that register with a video selector
        assertEquals(List.of(), diagnostics(kernel(".reg .u32 %tid;\nmov.u32 %tid, 5;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Unknown video selector: '.x'"),
                diagnostics(kernel(".reg .u32 %tid, %r;\nmov.u32 %r, %tid.x;\n")));
        assertEquals(List.of(), diagnostics(kernel(".reg .u32 %r;\nmov.u32 %r, %tid.x;\n")));
    }

    @Test
    void componentsOfRegisters() {
        // ptxas 13: a register %tid is fine on its own, but %tid.x is then that register with a video selector
        assertEquals(List.of(), diagnostics(kernel(".reg .u32 %tid;\nmov.u32 %tid, 5;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Unknown video selector: '.x'"),
                diagnostics(kernel(".reg .u32 %tid, %r;\nmov.u32 %r, %tid.x;\n")));
        assertEquals(List.of(), diagnostics(kernel(".reg .u32 %r;\nmov.u32 %r, %tid.x;\n")));
        assertEquals(List.of(), diagnostics(kernel(".reg .v2 .u32 %v;\n.reg .u32 %r;\nmov.u32 %r, %v.y;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 8; error   : Vector component '.z' out of range for '%v'"),
                diagnostics(kernel(".reg .v2 .u32 %v;\n.reg .u32 %r;\nmov.u32 %r, %v.z;\n")));
    }

    @Test
    void videoSelectorsWhereTheIsaAllowsThemInPtxasWords() {
        String regs = ".reg .u32 %a, %b, %c, %d;\n";
        assertEquals(List.of(), diagnostics(kernel(regs + "vadd.u32.u32.u32 %d, %a.b0, %b.h1;\n"
                + "vadd.s32.u32.s32.sat %d.h1, %a.b3, %b, %c;\nvset.u32.u32.eq %d.b1, %a.b2, %b.h1, %c;\n"
                + "vadd4.u32.u32.u32 %d.b3210, %a.b0123, %b.b7777, %c;\n"
                + "vadd2.u32.u32.u32.add %d, %a.h33, %b.h01, %c;\nvadd2.u32.u32.u32 %d.h0, %a, %b, %c;\n")));
        // each as ptxas 13 words it, at the instruction's line
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Video selector is not allowed on source operand for"
                + " instruction 'add'"), diagnostics(kernel(regs + "add.u32 %d, %a.b0, %b;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Video selector is not allowed on destination for"
                + " instruction 'add'"), diagnostics(kernel(regs + "add.u32 %d.b0, %a, %b;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Incorrect video selector for operand 1",
                "jptxas bad.ptx, line 7; error   : Incorrect video selector for operand 2"),
                diagnostics(kernel(regs + "vadd.u32.u32.u32 %d, %a.b4, %b.h2;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Incorrect video selector for operand 0"),
                diagnostics(kernel(regs + "vadd2.u32.u32.u32 %d.h2, %a, %b, %c;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Incorrect video selector for operand 1"),
                diagnostics(kernel(regs + "vadd4.u32.u32.u32 %d, %a.b321, %b, %c;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Video instruction cannot have destination selector"
                + " and secondary operation"), diagnostics(kernel(regs + "vadd.u32.u32.u32.add %d.h1, %a, %b, %c;\n")));
    }

    @Test
    void anIntegerLiteralInAStoredFloatVectorIsRefused() {
        String regs = ".reg .f32 %f<3>;\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n";
        assertEquals(List.of("jptxas bad.ptx, line 9; error   : Vector with elements of different types are not"
                + " allowed in st instruction"), diagnostics(kernel(regs + "st.global.v2.f32 [%rd1], {%f1, 65536};\n")));
        // as ptxas 13: a float literal, an integer vector's literal and mixed register types are fine
        assertEquals(List.of(), diagnostics(kernel(regs + "st.global.v2.f32 [%rd1], {%f1, 0f3F800000};\n"
                + "st.global.v2.u32 [%rd1], {%r1, 7};\nst.global.v2.f32 [%rd1], {%f1, %r1};\n")));
    }

    @Test
    void parameterizedRegistersCoverTheirRangeOnly() {
        assertEquals(List.of(), diagnostics(kernel(".reg .b32 %r<3>;\nmov.b32 %r0, %r2;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Unknown symbol '%r3'"),
                diagnostics(kernel(".reg .b32 %r<3>;\nmov.b32 %r0, %r3;\n")));
    }

    @Test
    void duplicateDefinitions() {
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Duplicate definition of variable '%r1'",
                "jptxas bad.ptx, line 10; error   : Duplicate definition of function 'k'"),
                diagnostics(HEADER + ".visible .entry k()\n{\n.reg .b32 %r1;\n.reg .b32 %r1;\nret;\n}\n"
                        + ".visible .entry k()\n{\nret;\n}\n"));
        assertEquals(List.of("jptxas bad.ptx, line 5; error   : Duplicate definition of variable 'x'"),
                diagnostics(HEADER + ".global .b32 x;\n.global .b32 x;\n"));
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Duplicate definition of variable 'a'"),
                diagnostics(HEADER + ".visible .entry k(.param .u32 a, .param .u32 a)\n{\nret;\n}\n"));
    }

    @Test
    void thirtyTwoBitGenericAddressesStopAsPtxas13Stops() {
        // ptxas 13: a warning per cvta.u32 line, then "fatal : 32-Bit compilation is no longer supported"
        String regs = ".reg .b32 %r<3>;\n";
        assertEquals(List.of("jptxas warning : Program uses 32-bit address on line '7' which is conflicting with"
                + " .address_size 64", "jptxas warning : Program uses 32-bit address on line '8' which is conflicting"
                + " with .address_size 64", "jptxas fatal   :  32-Bit compilation is no longer supported"),
                diagnostics(kernel(regs + "cvta.global.u32 %r1, %r2;\ncvta.to.shared.u32 %r1, 16;\n")));
        // another error stops first, without the warnings; 64-bit conversions pass
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Unknown symbol '%r9'"),
                diagnostics(kernel(regs + "cvta.global.u32 %r1, %r9;\n")));
        assertEquals(List.of(), diagnostics(kernel(".reg .b64 %rd<3>;\ncvta.global.u64 %rd1, %rd2;\n")));
    }

    @Test
    void voteAndShflWithoutSyncWarnAsPtxas13Warns() throws Exception {
        // ptxas 13 on PTX 6.3 for sm_75: both warnings at the line; PTX 5.0: only the first; .sync forms: none
        String body = ".reg .pred %p<3>;\n.reg .b32 %r<3>;\nvote.any.pred %p1, %p2;\nshfl.bfly.b32 %r1, %r2, 1, 31;\n"
                + "vote.sync.any.pred %p1, %p2, -1;\n";
        String unpredictable = "' without '.sync' may produce unpredictable results on sm_70 and later architectures";
        String deprecated = "' without '.sync' is deprecated since PTX ISA version 6.0 and will be discontinued in a"
                + " future PTX ISA version";
        assertEquals(List.of("jptxas bad.ptx, line 8; warning : Instruction 'vote" + unpredictable,
                "jptxas bad.ptx, line 8; warning : Instruction 'vote" + deprecated,
                "jptxas bad.ptx, line 9; warning : Instruction 'shfl" + unpredictable,
                "jptxas bad.ptx, line 9; warning : Instruction 'shfl" + deprecated), checked(".version 6.3\n.target sm_75\n"
                + ".address_size 64\n.visible .entry k()\n{\n" + body + "ret;\n}\n"));
        assertEquals(List.of("jptxas bad.ptx, line 8; warning : Instruction 'vote" + unpredictable,
                "jptxas bad.ptx, line 9; warning : Instruction 'shfl" + unpredictable), checked(".version 5.0\n"
                + ".target sm_60\n.address_size 64\n.visible .entry k()\n{\n" + body.replace("vote.sync.any.pred %p1,"
                + " %p2, -1;\n", "") + "ret;\n}\n"));
    }

    @Test
    void aVectorModifierNotBeforeTheTypeWarnsAsPtxas13Warns() {
        // ptxas 13: "Vector Type not specified properly" for .v2 followed by another modifier, none for .v2.f32
        String head = ".version 8.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                + ".reg .b64 %rd<3>;\n.reg .f32 %f<3>;\nld.param.u64 %rd1, [p];\n";
        assertEquals(List.of("jptxas bad.ptx, line 9; warning : Vector Type not specified properly"),
                checked(head + "ld.v2.global.f32 {%f1, %f2}, [%rd1];\nret;\n}\n"));
        assertEquals(List.of(), checked(head + "ld.global.v2.f32 {%f1, %f2}, [%rd1];\nret;\n}\n"));
    }

    /** Diagnostics with the instruction table's checks, for sm_75. */
    private static List<String> checked(String text) {
        var parsed = org.jptxas.frontend.ptx.parse.PtxParser.parse("bad.ptx", text);
        return PtxChecker.check("bad.ptx", parsed.module(), Target.of("sm_75"), TestTargets.catalog(), true)
                .diagnostics().stream().map(d -> d.format("jptxas")).toList();
    }

    @Test
    void immediateAddressesOnlyInTheLocalSpace() {
        String regs = ".reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n";
        for (String insn : List.of("ld.shared.u32 %r1, [0x100];", "cp.async.cg.shared.global [0x100], [%rd1], 16;",
                "cp.async.ca.shared.global [%r1], [256], 4;", "mbarrier.init.shared.b64 [0x100], 1;",
                "prefetchu.L1 [0x100];")) {
            assertEquals(List.of("jptxas bad.ptx, line 8; error   : Immediate addresses allowed only for .local state"
                    + " space"), diagnostics(kernel(regs + insn + "\n")), insn);
        }
        assertEquals(List.of(), diagnostics(kernel(regs + "ld.local.u32 %r1, [0x100];\n"
                + "cp.async.cg.shared.global [%r1+16], [%rd1], 16;\n")));
    }

    @Test
    void aFunctionDeclaredTwiceKeepsItsPrototype() {
        String first = ".extern .func f\n(\n.param .b64 p0,\n.param .b32 p1\n);\n";
        assertEquals(List.of("jptxas bad.ptx, line 13; error   : Inconsistent prototypes of 'f', parameter types differ"),
                diagnostics(HEADER + first + ".extern .func f\n(\n.param .b32 p1,\n.param .b64 p0\n);\n"));
        assertEquals(List.of("jptxas bad.ptx, line 12; error   : Inconsistent prototypes of 'f', number of parameters"
                + " differ"), diagnostics(HEADER + first + ".extern .func f\n(\n.param .b64 p0\n);\n"));
        // .u32 is not .b32 to ptxas either
        assertEquals(List.of("jptxas bad.ptx, line 13; error   : Inconsistent prototypes of 'f', parameter types differ"),
                diagnostics(HEADER + first + ".extern .func f\n(\n.param .b64 p0,\n.param .u32 p1\n);\n"));
        // the same prototype twice, and a definition after it, are fine
        assertEquals(List.of(), diagnostics(HEADER + first + first + ".func f\n(\n.param .b64 q0,\n.param .b32 q1\n)\n"
                + "{\nret;\n}\n"));
    }

    @Test
    void labels() {
        List<String> d = diagnostics(kernel("bra L1;\nL2:\nL2:\n"));
        assertTrue(d.contains("jptxas bad.ptx, line 8; error   : Duplicate definition of label 'L2'"), d::toString);
        assertTrue(d.contains("jptxas bad.ptx, line 6; error   : Unknown symbol 'L1'"), d::toString);
        // Forward branches are fine; labels in sibling blocks may share names (inline asm pastes them twice).
        assertEquals(List.of(), diagnostics(kernel("bra L;\nL:\n{\nW: bra W;\n}\n{\nW: bra W;\n}\n")));
    }

    @Test
    void aLabelHasNoAddress() {
        assertEquals(List.of("jptxas bad.ptx, line 8; fatal   : Parsing error near 'L': syntax error"),
                diagnostics(kernel(".reg .b64 %rd1;\nL:\nst.local.u32 [%rd1+L], 1;\n")));
    }

    @Test
    void anAddressSubtractsNothing() {
        // ptxas 13: [base+offset] only; a minus after the base is a syntax error, a negative offset after + is not
        assertEquals(List.of("jptxas bad.ptx, line 8; fatal   : Parsing error near '-': syntax error"),
                diagnostics(kernel(".reg .b64 %rd1;\n.reg .b32 %r1;\nld.global.u32 %r1, [%rd1-4];\n")));
        String table = HEADER + ".const .b8 tab[8];\n.visible .entry k()\n{\n.reg .b32 %r1;\n";
        assertEquals(List.of("jptxas bad.ptx, line 8; fatal   : Parsing error near '-': syntax error"),
                diagnostics(table + "ld.const.u32 %r1, [tab-4];\nret;\n}\n"));
        assertEquals(List.of(), diagnostics(table + "ld.const.u32 %r1, [tab+-4];\nld.const.u32 %r1, [tab+(8-4)];\n"
                + "ret;\n}\n"));
    }

    @Test
    void locNumbersAreThirtyTwoBits() {
        String file = ".file 1 \"a.cu\"\n";
        for (String loc : List.of("4294967296 1 0", "1 4294967296 0", "1 1 4294967296")) {
            assertEquals(List.of("jptxas bad.ptx, line 7; error   : Constant overflow"),
                    diagnostics(HEADER + file + ".visible .entry k()\n{\n.loc " + loc + "\nret;\n}\n"), loc);
        }
        assertEquals(List.of(), diagnostics(HEADER + file + ".visible .entry k()\n{\n.loc 4294967295 4294967295"
                + " 4294967295\nret;\n}\n"));
    }

    @Test
    void variablesMustBeDeclaredBeforeUse() {
        assertEquals(List.of("jptxas bad.ptx, line 6; fatal   : Label expected for forward reference of '%r1'"),
                diagnostics(kernel("mov.u32 %r1, 1;\n.reg .b32 %r1;\n")));
    }

    @Test
    void calls() {
        assertEquals(List.of("jptxas bad.ptx, line 6; error   : Call to 'foo' requires call prototype",
                "jptxas bad.ptx, line 6; error   : Unknown symbol 'foo'"), diagnostics(kernel("call foo;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 10; error   : Illegal call target, device function expected"),
                diagnostics(HEADER + ".visible .entry j()\n{\nret;\n}\n.visible .entry k()\n{\ncall j;\nret;\n}\n"));
        // A prototype (declaration) is enough; the definition may follow.
        assertEquals(List.of(), diagnostics(HEADER + ".func f();\n.visible .entry k()\n{\ncall f;\nret;\n}\n"
                + ".func f()\n{\nret;\n}\n"));
    }

    @Test
    void callArgumentsAgainstTheCalleesParameters() {
        String f = HEADER + ".func (.param .b32 r) f(.param .b32 a, .param .align 8 .b8 s[16])\n{\nst.param.b32 [r], 1;\nret;\n}\n"
                + ".visible .entry k()\n{\n.param .b32 r;\n.reg .b32 %a;\n";
        assertEquals(List.of("jptxas bad.ptx, line 14; error   : Call has wrong number of parameters"),
                diagnostics(f + ".param .b32 a;\ncall (r), f, (a);\nret;\n}\n"));
        assertEquals(List.of(), diagnostics(f + ".param .u32 a;\n.param .align 8 .b8 s[16];\ncall (r), f, (a, s);\n"
                + "call (r), f, (%a, s);\nret;\n}\n"), "same size, other type name, or a register: fine");
        assertEquals(List.of("jptxas bad.ptx, line 15; error   : Type of argument does not match formal parameter 'a'",
                "jptxas bad.ptx, line 15; error   : Alignment of argument does not match formal parameter 'a'",
                "jptxas bad.ptx, line 15; error   : Alignment of argument does not match formal parameter 's'"),
                diagnostics(f + ".param .b64 a;\n.param .align 4 .b8 s[16];\ncall (r), f, (a, s);\nret;\n}\n"));
    }

    @Test
    void isaVersions91And92AcceptWhat90AllowsAndRefuseTheirAdditionsByName() {
        // Triton 3.7 writes .version 9.1 (ptxas 13.0 stops at 9.0). What 9.0 allows is allowed under 9.1 and 9.2.
        String body = ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\n.reg .b64 %rd<4>;\n.reg .b16 %h<2>;\n"
                + ".local .align 4 .b8 buf[16];\nld.param.u64 %rd1, [p];\nmov.u64 %rd2, buf;\n";
        for (String v : List.of("9.1", "9.2")) {
            String header = ".version " + v + "\n.target sm_90\n.address_size 64\n";
            assertEquals(List.of(), withInstructionTable(header + body + "st.global.u32 [%rd1], %r1;\nret;\n}\n"), v);
            // the manual's additions in 9.1 and 9.2, which the instruction table does not have: refused by name
            assertEquals(List.of("jptxas bad.ptx, line 12; error   : Modifier '.volatile' cannot be applied to '.local' "
                    + "space for instruction 'ld'"), withInstructionTable(header + body + "ld.volatile.local.u32 %r1, [%rd2];\n"
                    + "ret;\n}\n"), v);
            assertEquals(List.of("jptxas bad.ptx, line 12; error   : Unknown modifier '.s2f6x2'"),
                    withInstructionTable(header + body + "cvt.rn.satfinite.s2f6x2.f32 %h1, %r1, %r2;\nret;\n}\n"), v);
            assertEquals(List.of("jptxas bad.ptx, line 12; error   : Unexpected instruction types specified for 'add'"),
                    withInstructionTable(header + body + "add.u8x4 %r1, %r2, %r3;\nret;\n}\n"), v);
        }
    }

    /** The whole front end's verdict (the instruction table included), as printed. */
    private static List<String> withInstructionTable(String text) {
        try {
            new org.jptxas.frontend.ptx.PtxFrontEnd(Target.of("sm_90"), TestTargets.catalog()).check("bad.ptx", text);
            return List.of();
        } catch (org.jptxas.ori.diag.CompilationException e) {
            return e.diagnostics().stream().filter(d -> d.severity() != org.jptxas.ori.diag.Severity.FATAL)
                    .map(d -> d.format("jptxas")).toList();
        }
    }

    @Test
    void moduleHeader() {
        assertEquals(List.of("jptxas bad.ptx, line 1; fatal   : Unsupported .version 9.3; current version is '9.2'"),
                diagnostics(".version 9.3\n.target sm_90\n.address_size 64\n"));
        assertEquals(List.of("jptxas bad.ptx, line 1; fatal   : Unsupported .version 10.0; current version is '9.2'"),
                diagnostics(".version 10.0\n.target sm_90\n"));
        assertEquals(List.of("jptxas bad.ptx, line 1; fatal   : Unsupported .version 6.6; current version is '9.2'"),
                diagnostics(".version 6.6\n.target sm_90\n"), "versions that never existed are refused too");
        assertEquals(List.of("jptxas bad.ptx, line 2; fatal   : Missing .version directive at start of file 'bad.ptx'"),
                diagnostics(".target sm_90\n.address_size 64\n"));
        assertEquals(List.of("jptxas bad.ptx, line 2; fatal   : Missing .target directive at start of file 'bad.ptx'"),
                diagnostics(".version 8.0\n.address_size 64\n"));
        assertEquals(List.of("jptxas bad.ptx, line 2; fatal   : Unsupported .target 'sm_99'"),
                diagnostics(".version 8.0\n.target sm_99\n.address_size 64\n"));
        assertEquals(List.of("jptxas bad.ptx, line 3; error   : Illegal value for .address_size directive (must be 32 or 64)"),
                diagnostics(".version 8.0\n.target sm_90\n.address_size 16\n"));
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Parsing error near '.target': syntax error"),
                diagnostics(HEADER + ".target sm_80\n"));
        assertEquals(List.of("jptxas bad.ptx, line 2; error   : PTX .version 7.0 does not support .target sm_90"),
                diagnostics(".version 7.0\n.target sm_90\n.address_size 64\n.entry k()\n{\nret;\n}\n"));
        assertEquals(List.of(), diagnostics(".version 7.0\n.target sm_90\n.address_size 64\n"), "no code, no objection");
        assertEquals(List.of("jptxas fatal   : SM version specified by .target is higher than default SM version assumed"),
                diagnostics(HEADER, "sm_80"));
        assertEquals(List.of("jptxas fatal   : PTX with .target 'sm_90a' cannot be compiled for architecture 'sm_90'"),
                diagnostics(".version 8.0\n.target sm_90a\n.address_size 64\n", "sm_90"));
    }

    @Test
    void placementAndGuards() {
        assertEquals(List.of("jptxas bad.ptx, line 7; fatal   : Parsing error near '.address_size': syntax error"),
                diagnostics(".version 8.0\n.target sm_90\n.visible .entry k()\n{\nret;\n}\n.address_size 64\n"));
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Parsing error near '.address_size': syntax error"),
                diagnostics(HEADER + ".address_size 64\n"));
        assertEquals(List.of("jptxas bad.ptx, line 6; fatal   : Parsing error near '.maxnreg': syntax error"),
                diagnostics(kernel(".maxnreg 4\n")));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Predicate expression expected"),
                diagnostics(kernel(".reg .b32 %r;\n@%r bra L;\nL:\n")));
    }

    @Test
    void directiveGates() {
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Feature '.explicitcluster' requires .target sm_90 or higher"),
                diagnostics(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k() .explicitcluster\n{\nret;\n}\n",
                        "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Feature '.noreturn' requires PTX ISA .version 6.4 or later"),
                diagnostics(".version 6.3\n.target sm_75\n.address_size 64\n.visible .func a() .noreturn\n{\nret;\n}\n",
                        "sm_75"));
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Deprecated feature: '.maxnctapersm directive' not supported as of PTX version 2.1"),
                diagnostics(".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() .maxnctapersm 2\n{\nret;\n}\n"));
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Module-scoped variables in .reg state space are not allowed with ABI"),
                diagnostics(HEADER + ".reg .b32 x;\n"));
    }

    @Test
    void unsizedArraysNeedExternOrAnInitializer() {
        // ptxas 13: the same three messages for a module-scope .global and function-scope .local/.shared array
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Non-external variable 'g' has incomplete type",
                "jptxas bad.ptx, line 7; error   : Non-external variable 'd' has incomplete type",
                "jptxas bad.ptx, line 8; error   : Non-external variable 's' has incomplete type"),
                diagnostics(HEADER + ".global .b8 g[];\n" + kernel(".local .b8 d[];\n.shared .b8 s[];\n").substring(HEADER.length())));
        assertEquals(List.of(), diagnostics(HEADER + ".extern .shared .align 16 .b8 smem[];\n.global .b32 t[] = {1, 2};\n"
                + kernel("").substring(HEADER.length())));
    }

    @Test
    void stateSpaces() {
        assertEquals(List.of("jptxas bad.ptx, line 6; error   : No initial value is allowed for 'x' in this state space",
                "jptxas bad.ptx, line 7; error   : No initial value is allowed for 'y' in this state space",
                "jptxas bad.ptx, line 8; error   : No initial value is allowed for 'z' in this state space",
                "jptxas bad.ptx, line 10; error   : Variable 'arr' cannot be allocated into a register"),
                diagnostics(kernel(".reg .b32 x = 1;\n.local .b32 y = 1;\n.shared .b32 z = 1;\n.const .b32 c = 1;\n"
                        + ".reg .b32 arr[4];\n")));
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Parameter variables may not be declared at module scope",
                "jptxas bad.ptx, line 5; error   : No initial value is allowed for 'l' in this state space",
                "jptxas bad.ptx, line 5; error   : Module-scoped variables in .local state space are not allowed with ABI",
                "jptxas bad.ptx, line 6; error   : No initial value is allowed for 'sh' in this state space"),
                diagnostics(HEADER + ".param .b32 p;\n.local .b32 l = 3;\n.shared .b32 sh = 2;\n.global .b32 g = 1;\n"));
        assertEquals(List.of("jptxas bad.ptx, line 8; error   : State space mismatch between instruction and address in instruction 'ld'"),
                diagnostics(HEADER + ".shared .b32 sh;\n.visible .entry k()\n{\n.reg .b32 %r;\nld.global.u32 %r, [sh];\n"
                        + "ld.shared.u32 %r, [sh+4];\nret;\n}\n"));
        // ptxas 13 takes a bare number as an address only in .local (found by MutationAgreementTest)
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Immediate addresses allowed only for .local state space",
                "jptxas bad.ptx, line 8; error   : Immediate addresses allowed only for .local state space",
                "jptxas bad.ptx, line 9; error   : Immediate addresses allowed only for .local state space"),
                diagnostics(HEADER + ".visible .entry k()\n{\n.reg .b32 %r;\nld.shared.f32 %r, [1+-4];\n"
                        + "st.volatile.shared.u32 [0x7fffffff+0], %r;\nld.u32 %r, [16];\nld.local.u32 %r, [16];\n"
                        + "st.local.u32 [0], %r;\nret;\n}\n"));
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Entry parameter 'a' must have .param state space",
                "jptxas bad.ptx, line 8; error   : Function parameter 'a' has illegal state space"),
                diagnostics(HEADER + ".visible .entry k(.reg .b32 a)\n{\nret;\n}\n.func f(.local .b32 a)\n{\nret;\n}\n"));
    }

    @Test
    void initialValuesFollowTheDeclaredTypeAndShape() {
        // each case as ptxas 13 reports it (probed one declaration per file after a kernel k and a .u32 d)
        String prelude = HEADER + ".global .u32 d;\n.visible .entry k() { ret; }\n";
        Map<String, String> cases = new LinkedHashMap<>();
        cases.put(".global .f32 x = 1;", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .u32 x = 1.5;", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .s32 x = -1.5;", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .f16 x[2] = {1.0, 2.0};", "line 6; fatal   : No initial value is allowed for .f16 type");
        cases.put(".global .f16x2 x = 1;", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .f32 x = 1.5+1;", "line 6; error   : Constant expression type mismatch");
        cases.put(".global .u32 x = 1.0 ? 2 : 3;", "line 6; error   : Integer constant expression expected");
        cases.put(".global .u64 x = d + 1.0;", "line 6; error   : Integer constant expression expected");
        cases.put(".global .f32 x = 1.0 == 1.0;", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .u32 x = {1, 2};", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .u32 x = {};", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .f32 x[2][2] = {{1.0}, 2.0};", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .v2 .f32 x[2] = {1.0, 2.0};", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .v4 .u32 x = {1,2};", "line 6; fatal   : Incorrect number of elements in vector initializer");
        cases.put(".global .b64 x = d;", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .f32 x = d;", "line 6; fatal   : Initial value type mismatch");
        cases.put(".global .u32 x[2] = {1, 2}, y = 1.0, z[2] = {1.5, 1};", "line 6; fatal   : Initial value type mismatch");
        cases.forEach((declaration, message) -> assertEquals(List.of("jptxas bad.ptx, " + message),
                diagnostics(prelude + declaration + "\n"), declaration));
        assertEquals(List.of("jptxas bad.ptx, line 6; error   : Constant expression type mismatch",
                "jptxas bad.ptx, line 6; fatal   : Initial value type mismatch"),
                diagnostics(prelude + ".global .u32 x[2] = {1.0 + 1, 2};\n"));
        for (String accepted : List.of(".global .f64 x = 0f3F800000;", ".global .f32 x = 0d3FF0000000000000;",
                ".global .b32 x = 1.5;", ".global .u32 x = 1.5 > 1.0;", ".global .u32 x = d;",
                ".global .u64 x = generic(d)+4;", ".global .u64 x = k;", ".global .f32 x[] = {1.0, 2.0};",
                ".global .v2 .f32 x[2] = {{1.0, 2.0}, {3.0, 4.0}};", ".global .f32 x[2][2] = {{1.0, 2.0}};")) {
            assertEquals(List.of(), diagnostics(prelude + accepted + "\n"), accepted);
        }
    }

    @Test
    void predicatesLiveInScalarRegistersOnly() {
        // ptxas 13's wording and order: the scalar rule, the initializer rules (a predicate has no initial value
        // type, fatal), the register rule; parameters also get the function-parameter space error first
        assertEquals(List.of("jptxas bad.ptx, line 4; error   : Predicate variable 'g' must be in register state space",
                "jptxas bad.ptx, line 5; error   : Entry parameter 'a' must have .param state space",
                "jptxas bad.ptx, line 7; error   : Predicate variable 's' must be in register state space",
                "jptxas bad.ptx, line 8; error   : Predicate variable 'q' must be in register state space",
                "jptxas bad.ptx, line 8; error   : Predicate variable 'w' must be in register state space",
                "jptxas bad.ptx, line 9; error   : Predicate type can only be used to define scalar register variables",
                "jptxas bad.ptx, line 10; error   : Predicate type can only be used to define scalar register variables",
                "jptxas bad.ptx, line 10; error   : Variable 'r' cannot be allocated into a register",
                "jptxas bad.ptx, line 13; error   : Function parameter 'b' has illegal state space",
                "jptxas bad.ptx, line 13; error   : Predicate variable 'b' must be in register state space",
                "jptxas bad.ptx, line 17; error   : Predicate variable 'p' must be in register state space"),
                diagnostics(HEADER + ".global .pred g;\n.visible .entry k(.reg .pred a)\n{\n.shared .pred s;\n"
                        + ".param .pred q, w;\n.local .v2 .pred l;\n.reg .pred r[2];\nret;\n}\n"
                        + ".func f(.local .pred b)\n{\nret;\n}\n.func g2(.param .pred p)\n{\nret;\n}\n"));
        assertEquals(List.of("jptxas bad.ptx, line 6; error   : No initial value is allowed for 'p' in this state space",
                "jptxas bad.ptx, line 6; fatal   : Initial value type mismatch"),
                diagnostics(HEADER + ".visible .entry k()\n{\n.reg .pred p = 1;\nret;\n}\n"));
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Initial value type mismatch"),
                diagnostics(HEADER + ".global .pred h = 1;\n"));
    }

    @Test
    void syntaxErrorsNameTheTokenAndStopAtTheFirst() {
        // ptxas 13 reports the first syntax error and stops (issue 22)
        assertEquals(List.of("jptxas bad.ptx, line 6; fatal   : Parsing error near '%r2': syntax error"),
                diagnostics(kernel("mov.b32 %r1 %r2;\nadd.s32 ,;\n")));
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Parsing error near 'add': syntax error"),
                diagnostics(HEADER + "add.s32 %r1, %r2, %r3;\n"));
    }

    @Test
    void truncatedFileReportsTheEndOfInput() {
        assertEquals(List.of("jptxas bad.ptx, line 7; fatal   : Parsing error near '': syntax error"),
                diagnostics(HEADER + ".visible .entry k()\n{\nret;\n"));
    }

    @Test
    void binaryGarbageIsASyntaxErrorNotACrash() {
        List<String> d = diagnostics(HEADER + "\u0001\u0002 hello ###\n\u00ff\u0000");
        assertFalse(d.isEmpty());
        assertTrue(d.get(0).startsWith("jptxas bad.ptx, line 4; fatal   : Parsing error near '\\x01'"), d::toString);
    }

    @Test
    void hugeLineAndDeepNestingEndInDiagnostics() {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            String longName = "x".repeat(10_000_000);
            List<String> d = diagnostics(kernel(".reg .b32 %r1;\nmov.u32 %r1 " + longName + ";\n"));
            assertEquals(1, d.size(), d::toString);
            assertTrue(d.get(0).startsWith("jptxas bad.ptx, line 7; fatal   : Parsing error near 'xxx"), d::toString);
            assertTrue(d.get(0).length() < 300, "the message shortens the token");
            assertEquals(List.of(), diagnostics(kernel("// " + longName + "\n")));
            List<String> braces = diagnostics(kernel("{".repeat(20_000)));
            assertTrue(braces.get(0).contains("nesting deeper than"), braces::toString);
            List<String> parens = diagnostics(kernel("mov.u32 %r1, " + "(".repeat(20_000) + "1;\n"));
            assertTrue(parens.get(0).contains("nesting deeper than"), parens::toString);
            List<String> unary = diagnostics(kernel("mov.u32 %r1, " + "-".repeat(20_000) + "1;\n"));
            assertTrue(unary.get(0).contains("nesting deeper than"), unary::toString);
            List<String> chain = diagnostics(kernel("mov.u32 %r1, 1" + "+1".repeat(200_000) + ";\n"));
            assertTrue(chain.get(0).contains("more than 1000 operators"), chain::toString);
            String init = HEADER + ".global .u32 big[20000] = {" + "1+1, ".repeat(19_999) + "1};\n";
            assertEquals(List.of(), diagnostics(init), "each initializer element is its own expression");
        });
    }

    @Test
    void frontEndThrowsOneExceptionWithEveryError() {
        CompilationException e = org.junit.jupiter.api.Assertions.assertThrows(CompilationException.class,
                () -> TestFrontEnds.of(Target.of("sm_90")).check("bad.ptx",
                        kernel(".reg .b32 %r<3>;\nmov.b32 %r1, %q;\nmov.b32 %r1, %z;\n")));
        assertEquals(2, e.diagnostics().stream().filter(Diagnostic::isError).count());
    }

    @Test
    void instructionsWithoutLoweringAreNamedAsNotYetSupported() throws CompilationException {
        var checked = TestFrontEnds.of(Target.of("sm_90")).check("ok.ptx", kernel(
                ".reg .b32 %r<4>;\nvadd.u32.u32.u32 %r1, %r2.b1, %r3;\n"));
        CompilationException e = org.junit.jupiter.api.Assertions.assertThrows(CompilationException.class, checked::lower);
        assertTrue(e.getMessage().contains("Instruction 'vadd.u32.u32.u32' not yet supported for sm_90"), e.getMessage());
        assertTrue(e.diagnostics().get(0).line() > 0, "positioned at the instruction");
    }
}
