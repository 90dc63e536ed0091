package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Instr;
import org.junit.jupiter.api.Test;

/** {@link AsyncCopyLowerer}: the LDGSTS/LDGDEPBAR/DEPBAR ptxas writes for each cp.async form. */
class AsyncCopyLowererTest {
    private static List<String> lower(String body) throws CompilationException {
        String ptx = ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n .reg .b32 %r<40>;\n"
                + " .reg .b64 %rd<8>;\n .reg .pred %p<4>;\n" + body + "\n}\n";
        return SyncTestContext.lower(ptx, "sm_80", new InstructionLowerer[] {new AsyncCopyLowerer()}).body().blocks()
                .stream().flatMap(b -> b.instrs().stream()).map(Instr::toString).toList();
    }

    private static String only(List<String> lines, String prefix) {
        List<String> l = lines.stream().filter(s -> s.startsWith(prefix)).toList();
        assertEquals(1, l.size(), () -> String.join("\n", lines));
        return l.get(0);
    }

    @Test
    void copySizesAndCacheModes() throws CompilationException {
        assertTrue(only(lower("cp.async.cg.shared.global [%r1], [%rd1], 16;"), "LDGSTS")
                .matches("LDGSTS\\.E\\.BYPASS\\.128 \\[%r\\d+\\], \\[%r\\d+\\.64\\]"));
        assertTrue(only(lower("cp.async.ca.shared.global [%r1+16], [%rd1+32], 8;"), "LDGSTS")
                .matches("LDGSTS\\.E\\.64 \\[%r\\d+\\+0x10\\], \\[%r\\d+\\.64\\+0x20\\]"));
        assertTrue(only(lower("cp.async.ca.shared.global [%r1], [%rd1], 4, 4;"), "LDGSTS")
                .matches("LDGSTS\\.E \\[%r\\d+\\], \\[%r\\d+\\.64\\]"), "a full source size is a plain copy");
    }

    @Test
    void sourceSizesZeroFill() throws CompilationException {
        // an immediate size: the fill count (4 - 1 = 3) rides in the address's low bits
        assertTrue(only(lower("cp.async.ca.shared.global [%r1], [%rd1+32], 4, 1;"), "LDGSTS")
                .matches("LDGSTS\\.E\\.ZFILL \\[%r\\d+\\], \\[%r\\d+\\.64\\+0x23\\]"));
        // nothing read: the read predicate is false
        assertTrue(only(lower("cp.async.cg.shared.global [%r1], [%rd1], 16, 0;"), "LDGSTS").endsWith(", !PT"));
        // a register size: (16 - n) & 15 added to the address, read predicate n != 0
        List<String> l = lower("cp.async.cg.shared.global [%r1], [%rd1], 16, %r2;");
        assertTrue(only(l, "LDGSTS").matches("LDGSTS\\.E\\.BYPASS\\.128\\.ZFILL \\[%r\\d+\\], \\[%r\\d+\\.64\\], %p\\d+"),
                String.join("\n", l));
        assertTrue(only(l, "ISETP").startsWith("ISETP.NE.U32.AND"), String.join("\n", l));
        assertTrue(only(l, "LOP3").contains("0xf"), String.join("\n", l));
    }

    @Test
    void anAllOrNothingSourceSizeReadsUnderTheSelectionsCondition() throws CompilationException {
        // ptxas's cp_async_pipeline form: no fill arithmetic, the copy reads under selp's predicate (or its negation)
        String ptx = ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n"
                + " .reg .b32 %r<8>;\n .reg .b64 %rd<4>;\n .reg .pred %p<2>;\n"
                + " setp.lt.s32 %p1, %r2, %r1;\n selp.b32 %r3, 4, 0, %p1;\n selp.b32 %r4, 0, 16, %p1;\n"
                + " mul.wide.s32 %rd2, %r2, 16;\n add.s64 %rd3, %rd1, %rd2;\n shl.b32 %r5, %r2, 4;\n"
                + " cp.async.ca.shared.global [%r5], [%rd3], 4, %r3;\n"
                + " cp.async.cg.shared.global [%r5+16], [%rd3+16], 16, %r4;\n ret;\n}\n";
        org.jptxas.ori.ir.OriFunction f = SyncTestContext.lower(ptx, "sm_80", new InstructionLowerer[] {
            new AsyncCopyLowerer(), new Compare(), new MovLowerer(), new MemoryLowerer(), new ArithmeticLowerer(),
            new ShiftLowerer(), new ControlLowerer()});
        org.jptxas.ori.opt.OptPipeline.forLevel(3).encodableWhen(in -> true)
                .run(f, org.jptxas.spi.TestTargets.profile("sm_80"));
        List<String> l = f.body().blocks().stream().flatMap(b -> b.instrs().stream()).map(Instr::toString).toList();
        List<String> copies = l.stream().filter(s -> s.startsWith("LDGSTS")).toList();
        assertEquals(2, copies.size(), String.join("\n", l));
        assertTrue(copies.get(0).matches("LDGSTS\\.E \\[%r\\d+\\], \\[%r\\d+\\.64\\], %p\\d+"), String.join("\n", l));
        assertTrue(copies.get(1).matches("LDGSTS\\.E\\.BYPASS\\.128 \\[%r\\d+\\+0x10\\], \\[%r\\d+\\.64\\+0x10\\], !%p\\d+"),
                String.join("\n", l));
        assertTrue(l.stream().noneMatch(s -> s.startsWith("LOP3") || s.startsWith("SEL")), String.join("\n", l));
    }

    @Test
    void groupsAndWaits() throws CompilationException {
        assertEquals(List.of("LDGDEPBAR", "DEPBAR.LE SB0, 0x2", "LDGDEPBAR", "DEPBAR.LE SB0, 0x0", "EXIT"),
                lower("cp.async.commit_group;\ncp.async.wait_group 2;\ncp.async.wait_all;"));
    }

    @Test
    void aGuardedCopyIsBranchedAround() throws CompilationException {
        List<String> l = lower("@%p1 cp.async.cg.shared.global [%r1], [%rd1], 16;");
        assertTrue(only(l, "@!%p").startsWith("@!%p"), String.join("\n", l));
        assertTrue(only(l, "LDGSTS").startsWith("LDGSTS"), "the copy itself is unguarded: " + l);
    }

    @Test
    void aPrefetchSizeIsKeptAndACachePolicyDropped() throws CompilationException {
        assertTrue(only(lower("cp.async.cg.shared.global.L2::128B [%r1], [%rd1], 16;"), "LDGSTS")
                .matches("LDGSTS\\.E\\.BYPASS\\.LTC128B\\.128 \\[%r\\d+\\], \\[%r\\d+\\.64\\]"));
        assertTrue(only(lower("cp.async.ca.shared.global.L2::64B [%r1], [%rd1], 8;"), "LDGSTS")
                .matches("LDGSTS\\.E\\.LTC64B\\.64 \\[%r\\d+\\], \\[%r\\d+\\.64\\]"));
        assertTrue(only(lower("cp.async.ca.shared.global.L2::256B [%r1], [%rd1], 4, %r2;"), "LDGSTS")
                .startsWith("LDGSTS.E.LTC256B.ZFILL "));
        // the policy is a performance hint: the copy is written without it
        assertTrue(only(lower("cp.async.cg.shared.global.L2::cache_hint [%r1], [%rd1], 16, %rd2;"), "LDGSTS")
                .matches("LDGSTS\\.E\\.BYPASS\\.128 \\[%r\\d+\\], \\[%r\\d+\\.64\\]"));
    }

    @Test
    void anIgnoreSrcPredicateIsTheNegatedReadPredicate() throws CompilationException {
        List<String> l = lower("cp.async.ca.shared.global [%r1], [%rd1], 4, %p1;");
        assertTrue(only(l, "PLOP3").matches("PLOP3\\.LUT (%p\\d+), PT, %p\\d+, PT, PT, 0xf, 0x0"), String.join("\n", l));
        String read = only(l, "PLOP3").replaceAll("PLOP3\\.LUT (%p\\d+),.*", "$1");
        assertTrue(only(l, "LDGSTS").matches("LDGSTS\\.E \\[%r\\d+\\], \\[%r\\d+\\.64\\], " + read), String.join("\n", l));
    }
}
