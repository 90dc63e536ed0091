package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
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
    void hintsAreRefusedByName() {
        assertThrows(UnsupportedFeatureException.class,
                () -> lower("cp.async.cg.shared.global.L2::128B [%r1], [%rd1], 16;"));
    }
}
