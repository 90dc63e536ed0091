package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.DebugLine;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flag test on a constant ({@code and; setp} at {@code .loc} 0, {@code @p bra} at line 189) before a divergent
 * loop: ptxas 13 ({@code -lineinfo -arch=sm_80}) folds the branch away and, when the test stood alone in a join
 * block, gives the loop's BSSY line 189 (rows 30 at the MEMBAR, 189 at the BSSY, 475 at the loop's branch). With a
 * store at line 187 before the test in its block, no row of line 189 is left. matrix_free's dim-2 and dim-3 kernels
 * (portable_evaluation_kernels.h 144 and 189) have the first shape.
 */
class FoldedBranchBssyLineTest {
    @TempDir
    Path dir;

    private static String kernel(String beforeFlagTest) {
        return ".version 7.0\n.target sm_80\n.address_size 64\n.file 1 \"a.cu\"\n"
                + ".visible .entry k(.param .u64 out, .param .u32 n)\n{\n.reg .pred %p<10>;\n.reg .b32 %r<100>;\n"
                + ".reg .b64 %rd<10>;\n.loc 1 10 1\nld.param.u64 %rd1, [out];\nld.param.u32 %r1, [n];\n"
                + "mov.u32 %r2, %tid.x;\nmov.u32 %r95, 3;\n"
                + ".loc 1 20 1\nsetp.eq.u32 %p5, %r1, 7;\n@%p5 bra J1;\nbar.sync 0;\nbra.uni J2;\n"
                + "J1:\n.loc 1 30 1\nmembar.cta;\nJ2:\n" + beforeFlagTest
                + ".loc 1 0 1\nand.b32 %r3, %r95, 1;\nsetp.eq.s32 %p1, %r3, 0;\n.loc 1 189 21\n@%p1 bra SKIP;\n"
                + ".loc 1 475 3\nsetp.ge.u32 %p2, %r2, %r1;\n@%p2 bra SKIP;\nmov.u32 %r10, %r2;\n"
                + "LOOP:\n.loc 1 480 3\nmul.wide.u32 %rd2, %r10, 4;\nadd.s64 %rd3, %rd1, %rd2;\n"
                + "ld.global.u32 %r11, [%rd3];\nadd.s32 %r11, %r11, %r1;\nst.global.u32 [%rd3], %r11;\n"
                + ".loc 1 481 3\nadd.s32 %r10, %r10, 32;\nsetp.lt.u32 %p3, %r10, %r1;\n@%p3 bra LOOP;\n"
                + "SKIP:\n.loc 1 500 3\nbar.sync 0;\nst.global.u32 [%rd1+4], %r2;\nret;\n}\n";
    }

    /** Each row's line and, for line 189, the instruction it starts at. */
    private List<DebugLine.Row> rows(String ptx) throws Exception {
        Path in = dir.resolve("k.ptx");
        Files.writeString(in, ptx);
        Path out = dir.resolve("k.cubin");
        CliRun r = CliRun.run(dir, "-arch=sm_80", "-lineinfo", in.toString(), "-o", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        Cubin c = Cubin.read(Files.readAllBytes(out));
        return DebugLine.decode(c.section(".debug_line").orElseThrow().data()).sequences().get(0).rows();
    }

    private static boolean hasLine(List<DebugLine.Row> rows, int line) {
        return rows.stream().anyMatch(x -> x.line() == line);
    }

    @Test
    void theBssyAfterAnEmptiedJoinTakesTheFoldedBranchLine() throws Exception {
        List<DebugLine.Row> rows = rows(kernel(""));
        assertTrue(hasLine(rows, 189), rows.toString());
        assertTrue(hasLine(rows, 475), rows.toString());
    }

    @Test
    void codeBeforeTheFoldedBranchLeavesTheBssyWithoutItsLine() throws Exception {
        List<DebugLine.Row> rows = rows(kernel(".loc 1 187 1\nst.global.u32 [%rd1+8], %r2;\n"));
        assertTrue(hasLine(rows, 187), rows.toString());
        assertFalse(hasLine(rows, 189), rows.toString());
    }
}
