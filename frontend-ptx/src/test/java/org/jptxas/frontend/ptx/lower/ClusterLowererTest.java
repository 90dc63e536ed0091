package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.junit.jupiter.api.Test;

/** The cluster lowerers on small kernels: the Ori of ptxas 13 -O3's sm_90 sequences (read off cuobjdump). */
class ClusterLowererTest {
    private static final InstructionLowerer[] ALL = {new ClusterLowerer(), new MemoryLowerer(), new AtomicLowerer()};

    private static String kernel(String target, String body) {
        return kernel(target, "", body);
    }

    private static String kernel(String target, String directives, String body) {
        return ".version 8.5\n.target " + target + "\n.address_size 64\n"
                + ".visible .entry k()\n" + directives + "{\n .reg .b32 %r<40>;\n .reg .b64 %rd<20>;\n .reg .pred %p<8>;\n" + body + "\n}\n";
    }

    private static String lower(String sm, String body) throws CompilationException {
        return lowerKernel(sm, kernel(sm, body));
    }

    private static String lowerKernel(String sm, String ptx) throws CompilationException {
        OriFunction f = SyncTestContext.lower(ptx, sm, ALL);
        List<String> lines = f.body().blocks().stream().flatMap(b -> b.instrs().stream()).map(Instr::toString)
                .collect(Collectors.toList());
        if (Boolean.getBoolean("sync.dump")) {
            System.out.println("-----\n" + String.join("\n", lines));
        }
        return String.join("\n", lines);
    }

    @Test
    void mapaPutsTheRankInTheTopByte() throws CompilationException {
        assertEquals("PRMT %r0, %r2, 0x654, %r1\nEXIT", lower("sm_90", "mapa.shared::cluster.u32 %r3, %r1, %r2;"));
        assertEquals("PRMT %r0.lo, %r2, 0x654, %r1.lo\nMOV %r0.hi, %r1.hi\nEXIT",
                lower("sm_90", "mapa.shared::cluster.u64 %rd3, %rd1, %r2;"));
    }

    @Test
    void getctarankReadsTheTopByte() throws CompilationException {
        assertEquals("SHF.L.U64.HI %r0, %r1, 0x8, RZ\nEXIT", lower("sm_90", "getctarank.shared::cluster.u32 %r3, %r1;"));
        // a generic address too: ptxas 13 shifts in RZ, not the high word
        assertEquals("SHF.L.U64.HI %r0, %r1.lo, 0x8, RZ\nEXIT", lower("sm_90", "getctarank.u64 %r3, %rd1;"));
    }

    private static final String FLAG = "MOV %r0, c[0x0][0x140]\nISETP.EQ.U32.AND %p0, PT, %r0, 0x1, PT\n@!%p0 BRA bb4\n";

    @Test
    void clusterBarrierBranchesOnTheExplicitClusterFlag() throws CompilationException {
        assertEquals(FLAG + "MEMBAR.ALL.GPU\nERRBAR\nCGAERRBAR\nUCGABAR_ARV\nBRA bb5\nNOP\nEXIT",
                lower("sm_90", "barrier.cluster.arrive;"));
        assertEquals(FLAG + "UCGABAR_ARV\nBRA bb5\nNOP\nEXIT", lower("sm_90", "barrier.cluster.arrive.relaxed.aligned;"));
        assertEquals(FLAG + "UCGABAR_WAIT\nCCTL.IVALL\nBRA bb5\nBAR.SYNC.DEFER_BLOCKING 0x0\nEXIT",
                lower("sm_90", "barrier.cluster.wait.acquire.aligned;"));
    }

    @Test
    void anExplicitClusterKernelHasNoFlagTest() throws CompilationException {
        String ptx = kernel("sm_90", ".explicitcluster\n", "barrier.cluster.arrive.release;\nbarrier.cluster.wait;\n"
                + "barrier.cluster.arrive.relaxed;");
        assertEquals("MEMBAR.ALL.GPU\nERRBAR\nCGAERRBAR\nUCGABAR_ARV\nUCGABAR_WAIT\nCCTL.IVALL\nUCGABAR_ARV\nEXIT",
                lowerKernel("sm_90", ptx));
    }

    @Test
    void sharedClusterAccessesAreGenericThroughTheSharedWindow() throws CompilationException {
        assertEquals("S2R %r1, SR_SWINHI\nMOV %r2.lo, %r0\nMOV %r2.hi, %r1\nLD.E %r3, [%r2.64+0x4]\nEXIT",
                lower("sm_90", "ld.shared::cluster.u32 %r1, [%r2+4];"));
        assertEquals("S2R %r1, SR_SWINHI\nMOV %r2.lo, %r0.lo\nMOV %r2.hi, %r1\nST.E [%r2.64+0x8], %r3\nEXIT",
                lower("sm_90", "st.shared::cluster.u32 [%rd2+8], %r1;"));
        assertEquals("S2R %r2, SR_SWINHI\nMOV %r3.lo, %r1\nMOV %r3.hi, %r2\nATOM.E.ADD.STRONG.GPU PT, %r4, [%r3.64], %r0\nEXIT",
                lower("sm_90", "atom.shared::cluster.add.u32 %r1, [%r2], %r3;"));
    }

    @Test
    void aVariableOfTheExecutingBlockIsAPlainSharedAccess() throws CompilationException {
        String plain = lower("sm_90", ".shared .align 4 .b32 buf[8];\nst.shared.u32 [buf+4], %r1;");
        assertEquals(plain, lower("sm_90", ".shared .align 4 .b32 buf[8];\nst.shared::cluster.u32 [buf+4], %r1;"));
        assertTrue(plain.startsWith("STS"), plain);
    }

    @Test
    void beforeSm90TheFamilyIsRefused() {
        assertThrows(CompilationException.class, () -> lower("sm_80", "mapa.shared::cluster.u32 %r3, %r1, %r2;"));
    }
}
