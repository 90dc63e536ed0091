package org.jptxas.frontend.ptx.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriModule;
import org.junit.jupiter.api.Test;

/**
 * Inputs on which jptxas and ptxas 13 disagreed (issue 22: a new user's tries and mutants of ordinary kernels): the
 * verdict and the first diagnostic must now be ptxas's. Each case's ptxas 13 output is quoted beside it.
 */
class BadInputAgreementTest {
    private static final String KERNEL = ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\n.reg .b64 %rd<3>;\n"
            + "ld.param.u64 %rd1, [p];\nst.global.u32 [%rd1], %r1;\nret;\n}\n";
    private static final String SHARED_KERNEL = ".visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<2>;\n"
            + ".reg .b64 %rd<3>;\nmov.u64 %rd2, temp;\nld.shared.u32 %r1, [%rd2];\nld.param.u64 %rd1, [p];\n"
            + "st.global.u32 [%rd1], %r1;\nret;\n}\n";
    private static final String HEADER = ".version 8.0\n.target sm_80\n.address_size 64\n";

    /** What the front end says about {@code text} compiled for {@code arch}: its diagnostics, or lowered. */
    private static List<String> frontEnd(String text, String arch) {
        try {
            OriModule m = TestFrontEnds.of(arch).check("bad.ptx", text).lower();
            assertFalse(m.functions().isEmpty() && text.isEmpty());
            return List.of();
        } catch (CompilationException e) {
            return e.diagnostics().stream().map(d -> d.format("jptxas")).toList();
        }
    }

    @Test
    void anEmptyOrBlankOrCommentOnlyFileHasNoVersion() {
        // ptxas: "empty.ptx, line 1; fatal   : Missing .version directive at start of file 'empty.ptx'" (the
        // line is the end of the input: 4 for three blank lines, 2 for one comment line)
        assertEquals(List.of("jptxas bad.ptx, line 1; fatal   : Missing .version directive at start of file 'bad.ptx'"),
                frontEnd("", "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Missing .version directive at start of file 'bad.ptx'"),
                frontEnd("\n\n\n", "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 2; fatal   : Missing .version directive at start of file 'bad.ptx'"),
                frontEnd("// just a comment\n", "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 3; fatal   : Missing .version directive at start of file 'bad.ptx'"),
                frontEnd("/* a\n block */\n", "sm_80"));
    }

    @Test
    void theFirstFatalErrorStops() {
        // ptxas: one "Parsing error near '%r2'" line for line 6, nothing for line 7
        assertEquals(List.of("jptxas bad.ptx, line 6; fatal   : Parsing error near '%r2': syntax error"),
                frontEnd(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                        + "add.s32 %r1 %r2, %r2;\nmov.b32 %r1, ;\nret;\n}\n", "sm_80"));
        // a binary file given as PTX: one line, not one per line of the file
        StringBuilder binary = new StringBuilder("\u007fELF\u0002\u0001\u0001\u0000");
        for (int i = 0; i < 200; i++) {
            binary.append("\u0000\u0003\n@\u00ff;\u0010\n");
        }
        assertEquals(1, frontEnd(binary.toString(), "sm_80").size());
        // checker fatals stop too: ptxas reports the first misplaced .target only
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Parsing error near '.target': syntax error"),
                frontEnd(".version 8.0\n.target sm_80\n.address_size 64\n.target sm_80\n.target sm_80\n" + KERNEL,
                        "sm_80"));
    }

    @Test
    void repeatedTargetLinesAreOneList() {
        // ptxas 13 accepts .target lines in a row; the last architecture is the one compiled for
        assertEquals(List.of(), frontEnd(".version 8.0\n.target sm_80\n.target sm_80\n.address_size 64\n" + KERNEL,
                "sm_80"));
        assertEquals(List.of(), frontEnd(".version 8.0\n.target sm_90\n.target sm_80\n.address_size 64\n" + KERNEL,
                "sm_80"));
        assertEquals(List.of(), frontEnd(".version 8.0\n.target sm_90, sm_80\n.address_size 64\n" + KERNEL, "sm_80"));
        // ptxas: "fatal   : SM version specified by .target is higher than default SM version assumed"
        assertEquals(List.of("jptxas fatal   : SM version specified by .target is higher than default SM version assumed"),
                frontEnd(".version 8.0\n.target sm_80\n.target sm_90\n.address_size 64\n" + KERNEL, "sm_80"));
        assertEquals(List.of("jptxas fatal   : SM version specified by .target is higher than default SM version assumed"),
                frontEnd(".version 8.0\n.target sm_80, sm_90\n.address_size 64\n" + KERNEL, "sm_80"));
        // ptxas: "PTX with .target 'sm_90a' cannot be compiled for architecture 'sm_90'"
        assertEquals(List.of("jptxas fatal   : PTX with .target 'sm_90a' cannot be compiled for architecture 'sm_90'"),
                frontEnd(".version 8.0\n.target sm_80\n.target sm_90a\n.address_size 64\n" + KERNEL, "sm_90"));
        assertEquals(List.of(), frontEnd(".version 8.0\n.target sm_90a\n.target sm_80\n.address_size 64\n" + KERNEL,
                "sm_90"));
        // after .address_size a .target line is still a syntax error
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Parsing error near '.target': syntax error"),
                frontEnd(".version 8.0\n.target sm_80\n.address_size 64\n.target sm_80\n" + KERNEL, "sm_80"));
    }

    @Test
    void externVariablesMayBeDeclaredAgain() {
        // ptxas 13 accepts each of these
        for (String decls : List.of(
                ".extern .shared .align 16 .b8 temp[];\n.extern .shared .align 16 .b8 temp[];\n",
                ".extern .shared .align 16 .b8 temp[];\n.extern .shared .align 8 .b8 temp[];\n",
                ".shared .align 16 .b8 temp[16];\n.extern .shared .align 16 .b8 temp[];\n",
                ".extern .shared .align 16 .b8 temp[];\n.extern .shared .align 16 .b8 temp[32];\n")) {
            assertEquals(List.of(), frontEnd(HEADER + decls + SHARED_KERNEL, "sm_80"), decls);
        }
        assertEquals(List.of(), frontEnd(HEADER + ".extern .global .align 4 .b32 temp;\n"
                + ".visible .global .align 4 .b32 temp;\n" + KERNEL.replace("st.global.u32 [%rd1], %r1;",
                        "ld.global.u32 %r1, [temp];\nst.global.u32 [%rd1], %r1;"), "sm_80"));
    }

    @Test
    void inconsistentOrStaticRedeclarationsAreRefusedInPtxasWords() {
        assertEquals(List.of("jptxas bad.ptx, line 5; error   : Inconsistent redefinition of variable 'temp'"),
                frontEnd(HEADER + ".extern .shared .align 16 .b8 temp[];\n.extern .shared .align 16 .b32 temp[];\n"
                        + SHARED_KERNEL, "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 5; error   : Inconsistent redefinition of variable 'temp'"),
                frontEnd(HEADER + ".extern .shared .align 16 .b8 temp[16];\n.extern .shared .align 16 .b8 temp[32];\n"
                        + SHARED_KERNEL, "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 5; error   : '.extern' variable 'temp' cannot be resolved by a '.static'"),
                frontEnd(HEADER + ".extern .shared .align 16 .b8 temp[];\n.shared .align 16 .b8 temp[16];\n"
                        + SHARED_KERNEL, "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 5; error   : Duplicate definition of variable 'temp'"),
                frontEnd(HEADER + ".shared .align 16 .b8 temp[16];\n.shared .align 16 .b8 temp[16];\n"
                        + SHARED_KERNEL, "sm_80"));
    }

    @Test
    void aHugeRegisterRangeLowers() {
        // ptxas 13 compiles it; jptxas allocated an array of the declared count (NegativeArraySizeException)
        assertEquals(List.of(), frontEnd(HEADER + KERNEL.replace("%r<2>", "%r<0x80000000>"), "sm_80"));
        assertEquals(List.of(), frontEnd(HEADER + KERNEL.replace("%r<2>", "%r<2000000000>")
                .replace("%r1", "%r1999999999"), "sm_80"));
    }

    @Test
    void aFileCutInAnEntryNameOrWithoutItsBodyIsRefused() {
        // ptxas: "line 4; fatal   : Parsing error near '': syntax error" (an .entry needs ';' or a body)
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Parsing error near '': syntax error"),
                frontEnd(HEADER + ".visible .entry sax", "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 5; fatal   : Parsing error near '.visible': syntax error"),
                frontEnd(HEADER + ".entry k\n" + KERNEL, "sm_80"));
        // ptxas: "fatal   : Unresolved extern function 'k'" for a function declared, not .extern, never defined
        assertEquals(List.of("jptxas fatal   : Unresolved extern function 'sax'"),
                frontEnd(HEADER + ".visible .entry sax;\n", "sm_80"));
        assertEquals(List.of("jptxas fatal   : Unresolved extern function 'f'"),
                frontEnd(HEADER + KERNEL + ".func f", "sm_80"));
        // declared, then defined; or .extern: accepted
        assertEquals(List.of(), frontEnd(HEADER + ".func f;\n" + KERNEL + ".func f()\n{\nret;\n}\n", "sm_80"));
        assertEquals(List.of(), frontEnd(HEADER + ".extern .func f;\n" + KERNEL, "sm_80"));
    }

    @Test
    void aFileWithoutItsVersionLineIsRefused() {
        // ptxas: "line 5; fatal   : Missing .version directive at start of file" (noticed one item later)
        List<String> d = frontEnd("//\n//\n.target sm_80\n.address_size 64\n" + KERNEL, "sm_80");
        assertEquals(List.of("jptxas bad.ptx, line 4; fatal   : Missing .version directive at start of file 'bad.ptx'"), d);
        assertTrue(frontEnd(KERNEL, "sm_80").get(0).contains("Missing .version directive"));
    }

    @Test
    void debugFileIndicesAndSectionBytesAreCheckedAsPtxasChecksThem() {
        // ptxas 13 reports the line of the item after the duplicate .file (its parser has read ahead): 6 here, 9 past
        // blank and comment lines, the line after the .file at the end (found by MutationAgreementTest)
        assertEquals(List.of("jptxas bad.ptx, line 6; error   : Duplicate file index #1"),
                frontEnd(HEADER + ".file 1 \"a.cu\"\n.file 1 \"b.cu\"\n" + KERNEL, "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 9; error   : Duplicate file index #1"),
                frontEnd(HEADER + ".file 1 \"a.cu\"\n.file 1 \"b.cu\"\n\n// c\n\n" + KERNEL, "sm_80"));
        assertEquals(List.of("jptxas bad.ptx, line 7; error   : Duplicate file index #1"),
                frontEnd(HEADER + KERNEL.replace("{", "{ ").replace("\n", " ") + "\n.file 1 \"a.cu\"\n.file 1 \"b.cu\"\n",
                        "sm_80"));
        assertEquals(List.of(), frontEnd(HEADER + ".file 1 \"a.cu\"\n.file 2 \"a.cu\"\n" + KERNEL, "sm_80"));
        // ptxas: "error   : Value out of range for type .b8 256" (the low 32 bits, -128 .. 255)
        for (String v : List.of("256", "4294967552", "-129", "0x1ff")) {
            List<String> d = frontEnd(HEADER + KERNEL + ".section .debug_str\n{\n.b8 " + v + "\n}\n", "sm_80");
            assertEquals(1, d.size(), v);
            assertTrue(d.get(0).contains("error   : Value out of range for type .b8 "), d.get(0));
        }
        assertEquals(List.of(), frontEnd(HEADER + KERNEL + ".section .debug_str\n{\n.b8 255, -128, 4294967297\n"
                + ".b16 65535\n.b32 4294967296\n}\n", "sm_80"));
    }
}
