package org.jptxas.frontend.ptx.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.ori.diag.CompilationException;
import org.junit.jupiter.api.Test;

/**
 * Every {@code .shared::cluster} access is refused below sm_90 by the checker, after the instruction's own gates, as
 * ptxas 13.0 words it (each expected line from a ptxas run on the same input, "ptxas" replaced by "jptxas"); the
 * lowerers need not test the target for it.
 */
class ClusterStateSpaceGateTest {
    private static String kernel(String target, String body) {
        return ".version 8.0\n.target " + target + "\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                + " .reg .b32 r<4>;\n .reg .b64 rd<4>;\n ld.param.u64 rd1, [p];\n cvt.u32.u64 r1, rd1;\n" + body
                + " st.global.u32 [rd1], r2;\n ret;\n}\n";
    }

    private static List<String> errors(String target, String body) {
        CompilationException e = assertThrows(CompilationException.class,
                () -> TestFrontEnds.of(target).check("sc.ptx", kernel(target, body)));
        return e.diagnostics().stream().map(d -> d.format("jptxas")).toList();
    }

    @Test
    void clusterAccessesBelowSm90AreRefusedAsPtxasRefusesThem() {
        String gate = "; error   : Feature '::cluster' requires .target sm_90 or higher";
        assertEquals(List.of("jptxas sc.ptx, line 10" + gate, "jptxas sc.ptx, line 11" + gate,
                "jptxas sc.ptx, line 12" + gate),
                errors("sm_80", " ld.shared::cluster.u32 r2, [r1];\n st.shared::cluster.u32 [r1], r2;\n"
                        + " atom.shared::cluster.add.u32 r3, [r1], r2;\n"));
        // after the instruction's own gate
        assertEquals(List.of("jptxas sc.ptx, line 10; error   : Feature 'mapa' requires .target sm_90 or higher",
                "jptxas sc.ptx, line 10" + gate),
                errors("sm_86", " mapa.shared::cluster.u32 r2, r1, 1;\n"));
    }

    @Test
    void clusterAccessesOnSm90AndSharedCtaBelowPass() throws CompilationException {
        TestFrontEnds.of("sm_90").check("sc.ptx", kernel("sm_90", " ld.shared::cluster.u32 r2, [r1];\n"));
        TestFrontEnds.of("sm_80").check("sc.ptx", kernel("sm_80", " ld.shared::cta.u32 r2, [r1];\n"));
    }
}
