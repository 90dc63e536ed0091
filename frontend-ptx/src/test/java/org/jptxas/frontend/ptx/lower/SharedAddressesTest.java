package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.frontend.ptx.ast.FunctionDecl;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;

/** Which functions' shared-variable addresses must carry the cluster rank: those whose addresses may leave .shared. */
class SharedAddressesTest {
    private static boolean mayEscape(String body) throws CompilationException {
        String ptx = ".version 8.5\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n .reg .b32 %r<8>;\n"
                + " .reg .b64 %rd<8>;\n .shared .align 4 .b32 buf[8];\n" + body + "\n}\n";
        FunctionDecl fn = TestFrontEnds.of(Target.of("sm_90")).check("t.ptx", ptx).resolved().module().functions()
                .stream().filter(FunctionDecl::isEntry).findFirst().orElseThrow();
        return SharedAddresses.mayEscape(fn.body());
    }

    @Test
    void plainSharedAccessesKeepBareOffsets() throws CompilationException {
        assertFalse(mayEscape("mov.u32 %r1, buf;\nst.shared.u32 [%r1+4], %r2;\nld.shared.u32 %r3, [buf];"));
        assertFalse(mayEscape("mov.u64 %rd1, buf;\ncvta.to.shared.u64 %rd2, %rd1;"));
    }

    @Test
    void genericAndClusterUsesNeedTheRank() throws CompilationException {
        assertTrue(mayEscape("mov.u64 %rd1, buf;\ncvta.shared.u64 %rd2, %rd1;"));
        assertTrue(mayEscape("mov.u32 %r1, buf;\ngetctarank.shared::cluster.u32 %r2, %r1;"));
        assertTrue(mayEscape("mov.u32 %r1, buf;\n{\nld.shared::cluster.u32 %r2, [%r1];\n}"));
        assertTrue(mayEscape("mov.u32 %r1, buf;\nmapa.shared::cluster.u32 %r2, %r1, 1;"));
    }
}
