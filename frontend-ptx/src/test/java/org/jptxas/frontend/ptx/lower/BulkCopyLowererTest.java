package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Instr;
import org.junit.jupiter.api.Test;

/**
 * {@link BulkCopyLowerer} on the tensor prefetch and the bulk reductions: the opcode and modifiers ptxas 13 writes,
 * the operand block, and the uniform loop's kind (a reduction serves each thread's issue, equal operands or not; a
 * store or prefetch serves equal operands once).
 */
class BulkCopyLowererTest {
    private static List<String> lower(String body) throws CompilationException {
        // %rd1 and %r1..%r3 stand for per-thread values (registers never written)
        String ptx = ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
                + " .reg .b32 %r<40>;\n .reg .b64 %rd<8>;\n .shared .align 128 .b8 s[1024];\n" + body + "\n}\n";
        return SyncTestContext.lower(ptx, "sm_90a", new InstructionLowerer[] {new BulkCopyLowerer()}).body().blocks()
                .stream().flatMap(b -> b.instrs().stream()).map(Instr::toString).toList();
    }

    private static String only(List<String> lines, String prefix) {
        List<String> l = lines.stream().filter(s -> s.startsWith(prefix)).toList();
        assertEquals(1, l.size(), () -> String.join("\n", lines));
        return l.get(0);
    }

    private static boolean matchesOperands(List<String> lines) {
        return lines.stream().anyMatch(s -> s.startsWith("ISETP.EQ.U32.AND"));
    }

    @Test
    void tensorPrefetchIsUtmapfOnACoordinateBlock() throws CompilationException {
        List<String> l = lower("cp.async.bulk.prefetch.tensor.3d.L2.global.tile [%rd1, {%r1, %r2, %r3}];");
        assertTrue(only(l, "UTMAPF").matches("UTMAPF\\.L2\\.3D \\[%ur[\\d.]+\\], \\[%ur[\\d.]+\\]"),
                String.join("\n", l));
        assertTrue(matchesOperands(l), "a prefetch serves equal operands once:\n" + String.join("\n", l));
        // without .tile (the default load mode) too
        assertTrue(only(lower("cp.async.bulk.prefetch.tensor.1d.L2.global [%rd1, {%r1}];"), "UTMAPF")
                .startsWith("UTMAPF.L2.1D ["));
    }

    @Test
    void bulkReductionsAreUblkredPerThread() throws CompilationException {
        List<String> l = lower("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s32 [%rd1], [s], %r1;");
        assertTrue(only(l, "UBLKRED").startsWith("UBLKRED.G.S.ADD.S32 ["), String.join("\n", l));
        assertTrue(!matchesOperands(l), "every thread's reduction counts:\n" + String.join("\n", l));
        for (String[] form : new String[][] {{"add.u32", "UBLKRED.G.S.ADD ["}, {"min.u32", "UBLKRED.G.S.MIN ["},
            {"max.s64", "UBLKRED.G.S.MAX.S64 ["}, {"inc.u32", "UBLKRED.G.S.INC ["},
            {"and.b64", "UBLKRED.G.S.AND.U64 ["},
            {"xor.b32", "UBLKRED.G.S.XOR ["}, {"add.f32", "UBLKRED.G.S.ADD.F32.RN ["},
            {"add.f64", "UBLKRED.G.S.ADD.F64.RN ["}, {"add.noftz.f16", "UBLKRED.G.S.ADD.F16.RN ["},
            {"max.bf16", "UBLKRED.G.S.MAX.BF16.RN ["}}) {
            String r = only(lower("cp.reduce.async.bulk.global.shared::cta.bulk_group." + form[0]
                    + " [%rd1], [s], 64;"), "UBLKRED");
            assertTrue(r.startsWith(form[1]), form[0] + ": " + r);
        }
        // the copy it mirrors serves equal operands once
        assertTrue(matchesOperands(lower("cp.async.bulk.global.shared::cta.bulk_group [%rd1], [s], %r1;")));
    }

    @Test
    void tensorReductionsAreUtmaredgPerThread() throws CompilationException {
        List<String> l = lower(
                "cp.reduce.async.bulk.tensor.2d.global.shared::cta.min.tile.bulk_group [%rd1, {%r1, %r2}], [s];");
        assertTrue(only(l, "UTMAREDG").matches("UTMAREDG\\.2D\\.MIN \\[%ur[\\d.]+\\], \\[%ur[\\d.]+\\]"),
                String.join("\n", l));
        assertTrue(!matchesOperands(l), "every thread's reduction counts:\n" + String.join("\n", l));
    }

    @Test
    void clusterReductionsAreUblkredSsPerThread() throws CompilationException {
        List<String> l = lower("cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.min.s32"
                + " [%r1], [s], 64, [%r2];");
        assertTrue(only(l, "UBLKRED").startsWith("UBLKRED.S.S.MIN.S32 ["), String.join("\n", l));
        assertTrue(!matchesOperands(l), "every thread's reduction counts:\n" + String.join("\n", l));
        CompilationException wide = assertThrows(CompilationException.class, () -> lower(
                "cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.and.b64"
                        + " [%r1], [s], 64, [%r2];"));
        assertTrue(wide.getMessage().contains("and.b64"), wide.getMessage());
    }

    @Test
    void unmodelledReductionsAreRefusedByName() {
        CompilationException hint = assertThrows(CompilationException.class, () -> lower(
                "cp.reduce.async.bulk.global.shared::cta.bulk_group.L2::cache_hint.add.u32 [%rd1], [s], 64, %rd2;"));
        assertTrue(hint.getMessage().contains("L2::cache_hint"), hint.getMessage());
    }
}
