package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.stream.Collectors;
import org.jptxas.ori.analysis.IrPrinter;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.junit.jupiter.api.Test;

/** The sync lowerers on small kernels: the Ori they emit (ptxas 13 -O3's idioms, sm_80 spelling) and its structure. */
class SyncLowerersTest {
    private static final InstructionLowerer[] ALL = {new AtomicLowerer(), new BarrierLowerer(), new FenceLowerer(),
            new TrapLowerer(), new ShflLowerer(), new VoteLowerer(), new MatchLowerer(), new ReduxLowerer(),
            new ElectLowerer(), new MatrixLoadLowerer()};

    private static String kernel(String target, String body) {
        return ".version 8.5\n.target " + target + "\n.address_size 64\n"
                + ".visible .entry k()\n{\n .reg .b32 %r<40>;\n .reg .b64 %rd<20>;\n .reg .f32 %f<8>;\n"
                + " .reg .f64 %fd<8>;\n .reg .pred %p<8>;\n .reg .f16x2 %hh<4>;\n .reg .f16 %h<4>;\n .shared .align 8 .b8 sm[256];\n" + body + "\n}\n";
    }

    /** The function's instructions, one per line, as Instr prints them (virtual registers %rN/%pN/%urN). */
    private static List<String> lines(OriFunction f) {
        // the snippets' input registers are never defined: ignore exactly that complaint
        List<String> problems = IrVerifier.verify(f.name(), f.body()).stream()
                .filter(p -> !p.contains("is used but never defined")).toList();
        assertTrue(problems.isEmpty(), () -> problems + "\n" + IrPrinter.print(f));
        return f.body().blocks().stream().flatMap(b -> b.instrs().stream()).map(Instr::toString)
                .collect(Collectors.toList());
    }

    private static List<String> lower(String sm, String body) throws CompilationException {
        return lines(SyncTestContext.lower(kernel(sm, body), sm, ALL));
    }

    private static String text(List<String> lines) {
        if (Boolean.getBoolean("sync.dump")) {
            System.out.println("-----\n" + String.join("\n", lines));
        }
        return String.join("\n", lines);
    }

    @Test
    void globalAtomicsSpellTypesAndScopesAsPtxas() throws CompilationException {
        String t = text(lower("sm_80", """
                atom.global.add.u32 %r1, [%rd1], %r2;
                atom.global.add.s32 %r3, [%rd1+4], 5;
                atom.global.min.s32 %r4, [%rd1+8], %r2;
                atom.global.max.u64 %rd2, [%rd1+16], %rd3;
                atom.global.cas.b64 %rd4, [%rd1+24], %rd3, %rd2;
                atom.global.add.f32 %f1, [%rd1+32], %f2;
                atom.global.add.f64 %fd1, [%rd1+40], %fd2;
                atom.global.add.noftz.f16x2 %r5, [%rd1+48], %r2;
                atom.relaxed.cta.global.exch.b32 %r6, [%rd1+52], %r2;
                atom.relaxed.sys.global.inc.u32 %r7, [%rd1+56], %r2;
                red.global.xor.b32 [%rd1+60], %r2;
                """));
        // %r0 = %r2 (data), %r1 = %rd1 (address)
        assertEquals("""
                ATOMG.E.ADD.STRONG.GPU PT, %r2, [%r1.64], %r0
                MOV %r3, 0x5
                ATOMG.E.ADD.S32.STRONG.GPU PT, %r4, [%r1.64+0x4], %r3
                ATOMG.E.MIN.S32.STRONG.GPU PT, %r5, [%r1.64+0x8], %r0
                ATOMG.E.MAX.64.STRONG.GPU PT, %r7.64, [%r1.64+0x10], %r6.64
                ATOMG.E.CAS.64.STRONG.GPU PT, %r8.64, [%r1.64+0x18], %r6.64, %r7.64
                ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU PT, %r10, [%r1.64+0x20], %r9
                ATOMG.E.ADD.F64.RN.STRONG.GPU PT, %r12.64, [%r1.64+0x28], %r11.64
                ATOMG.E.ADD.F16x2.RN.STRONG.GPU PT, %r13, [%r1.64+0x30], %r0
                ATOMG.E.EXCH.STRONG.SM PT, %r14, [%r1.64+0x34], %r0
                ATOMG.E.INC.STRONG.SYS PT, %r15, [%r1.64+0x38], %r0
                RED.E.XOR.STRONG.GPU [%r1.64+0x3c], %r0
                EXIT""", t);
    }

    @Test
    void releaseAndAcquireAddPtxasFences() throws CompilationException {
        String t = text(lower("sm_80", """
                atom.acq_rel.gpu.global.add.u32 %r1, [%rd1], %r2;
                red.release.cta.global.add.u32 [%rd1+4], %r2;
                atom.acquire.sys.global.add.u32 %r3, [%rd1+8], %r2;
                """));
        assertEquals("""
                MEMBAR.ALL.GPU
                ERRBAR
                ATOMG.E.ADD.STRONG.GPU PT, %r2, [%r1.64], %r0
                CCTL.IVALL
                MEMBAR.ALL.CTA
                RED.E.ADD.STRONG.SM [%r1.64+0x4], %r0
                ATOMG.E.ADD.STRONG.SYS PT, %r3, [%r1.64+0x8], %r0
                CCTL.IVALL
                EXIT""", t);
        String hopper = text(lower("sm_90", "red.release.gpu.global.add.u32 [%rd1], %r2;"));
        assertTrue(hopper.startsWith("MEMBAR.ALL.GPU\nERRBAR\nCGAERRBAR\nRED.E.ADD"), hopper);
    }

    @Test
    void sharedAtomicsUseAtomsAndACasLoopForFloatAdd() throws CompilationException {
        OriFunction f = SyncTestContext.lower(kernel("sm_80", """
                atom.shared.add.u32 %r1, [sm], %r2;
                atom.shared.cas.b32 %r3, [sm+4], %r2, %r1;
                @%p1 atom.shared.add.f32 %f1, [sm+8], %f2;
                atom.shared.add.u64 %rd1, [sm+16], %rd2;
                """), "sm_80", ALL);
        String t = text(lines(f));
        assertEquals("""
                ATOMS.ADD %r1, [RZ], %r0
                ATOMS.CAS %r2, [0x4], %r0, %r1
                @!%p0 BRA bb4
                LDS %r4, [0x8]
                FADD %r5, %r4, %r3
                ATOMS.CAST.SPIN %r6, [0x8], %r4, %r5
                ISETP.EQ.U32.AND %p1, PT, %r6, 0x1, PT
                @!%p1 BRA bb2
                LDS.64 %r8.64, [0x10]
                IADD3 %r9.lo, %p2, PT, %r8.lo, %r7.lo, RZ
                IADD3.X %r9.hi, PT, PT, %r8.hi, %r7.hi, RZ, %p2, !PT
                ATOMS.CAST.SPIN.64 %r10.64, [0x10], %r8.64, %r9.64
                ISETP.EQ.U32.AND %p3, PT, %r10.lo, 0x1, PT
                ISETP.EQ.U32.AND.EX %p3, PT, %r10.hi, RZ, PT, %p3
                @!%p3 BRA bb5
                EXIT""", t);
        // the loop branches back to its own first block
        int loops = 0;
        for (BasicBlock b : f.body().blocks()) {
            if (b.instrs().stream().anyMatch(i -> i.op().name().equals("ATOMS") && i.hasMod("CAST"))) {
                assertEquals(b.id(), b.last().branchTarget().block(), "a CAS loop branches back to its own start");
                loops++;
            }
        }
        assertEquals(2, loops);
    }

    @Test
    void sharedSixtyFourBitMinIsACasLoopWithAChainedCompare() throws CompilationException {
        String t = text(lower("sm_80", "atom.shared.min.s64 %rd1, [sm+8], %rd2;"));
        assertEquals("""
                LDS.64 %r1.64, [0x8]
                ISETP.LT.U32.AND %p0, PT, %r1.lo, %r0.lo, PT
                ISETP.LT.AND.EX %p0, PT, %r1.hi, %r0.hi, PT, %p0
                SEL %r2.lo, %r1.lo, %r0.lo, %p0
                SEL %r2.hi, %r1.hi, %r0.hi, %p0
                ATOMS.CAST.SPIN.64 %r3.64, [0x8], %r1.64, %r2.64
                ISETP.EQ.U32.AND %p1, PT, %r3.lo, 0x1, PT
                ISETP.EQ.U32.AND.EX %p1, PT, %r3.hi, RZ, PT, %p1
                @!%p1 BRA bb1
                EXIT""", t);
    }

    @Test
    void genericAtomicsUseAtomAndFloatAddFallsBack() throws CompilationException {
        String t = text(lower("sm_80", """
                atom.add.u32 %r1, [%rd1], %r2;
                red.add.u32 [%rd1+4], %r2;
                atom.add.f32 %f1, [%rd1+8], %f2;
                """));
        assertEquals("""
                ATOM.E.ADD.STRONG.GPU PT, %r2, [%r1.64], %r0
                ATOM.E.ADD.STRONG.GPU PT, RZ, [%r1.64+0x4], %r0
                ATOM.E.ADD.F32.FTZ.RN.STRONG.GPU %p0, %r5, [%r1.64+0x8], %r4
                @%p0 BRA bb4
                LD.E %r5, [%r1.64+0x8]
                FADD %r6, %r5, %r4
                ATOM.E.CAS.STRONG.GPU PT, %r7, [%r1.64+0x8], %r5, %r6
                ISETP.EQ.U32.AND %p1, PT, %r7, %r5, PT
                @!%p1 BRA bb2
                EXIT""", t);
    }

    @Test
    void vectorAtomicsLowerToOnePackedAtomic() throws CompilationException {
        List<String> t = lower("sm_90", "atom.global.add.v2.f32 {%f1, %f2}, [%rd1], {%f3, %f4};");
        // one ATOMG on the packed pair, as ptxas 13 writes it (no longer refused as "vector atomics")
        assertEquals(List.of("MOV %r1.lo, %r2", "MOV %r1.hi, %r3",
                "ATOMG.E.ADD.F32x2.FTZ.RN.STRONG.GPU PT, %r4.64, [%r0.64], %r1.64", "MOV %r5, %r4.lo",
                "MOV %r6, %r4.hi", "EXIT"), t);
    }

    @Test
    void barriers() throws CompilationException {
        String t = text(lower("sm_80", """
                bar.sync 0;
                barrier.sync 1;
                barrier.sync.aligned 2, 64;
                bar.sync %r1;
                bar.sync %r1, %r2;
                bar.arrive 3, %r2;
                bar.red.popc.u32 %r3, 0, %p1;
                bar.red.and.pred %p2, 1, !%p1;
                bar.red.or.pred %p3, 2, 128, %p1;
                bar.warp.sync -1;
                bar.warp.sync %r4;
                """));
        assertEquals("""
                BAR.SYNC.DEFER_BLOCKING 0x0
                BAR.SYNC 0x1
                BAR.SYNC.DEFER_BLOCKING 0x2, 0x40
                BAR.SYNC.DEFER_BLOCKING %r0
                SHF.L.U32 %r2, %r1, 0x10, RZ
                LOP3.LUT PT, %r3, %r2, 0xfff0000, %r0, 0xe2, !PT
                BAR.SYNC.DEFER_BLOCKING %r3, %r3
                BAR.ARV 0x3, %r1
                BAR.RED.POPC.DEFER_BLOCKING 0x0, %p0
                B2R.RESULT %r4
                BAR.RED.AND.DEFER_BLOCKING 0x1, !%p0
                B2R.RESULT RZ, %p1
                BAR.RED.OR.DEFER_BLOCKING 0x2, 0x80, %p0
                B2R.RESULT RZ, %p2
                WARPSYNC 0xffffffff
                WARPSYNC %r5
                EXIT""", t);
    }

    @Test
    void fencesTrapsAndSleep() throws CompilationException {
        String t = text(lower("sm_80", """
                membar.cta;
                membar.gl;
                fence.acq_rel.sys;
                fence.sc.cta;
                nanosleep.u32 100;
                nanosleep.u32 %r1;
                @%p1 trap;
                brkpt;
                """));
        assertEquals("""
                MEMBAR.SC.CTA
                MEMBAR.SC.GPU
                ERRBAR
                CCTL.IVALL
                MEMBAR.ALL.SYS
                ERRBAR
                CCTL.IVALL
                MEMBAR.SC.CTA
                NANOSLEEP 0x64
                NANOSLEEP %r0
                @%p0 BPT.TRAP 0x1
                BPT.TRAP 0x1
                EXIT""", t);
    }

    @Test
    void ldmatrixIsOneLdsmIntoATuple() throws CompilationException {
        String t = text(lower("sm_80", """
                ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r1, %r2, %r3, %r4}, [%r5+32];
                ldmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16 {%r6}, [%r5];
                ldmatrix.sync.aligned.m8n8.x2.b16 {%r7, %r8}, [%rd1];
                """));
        assertEquals("""
                LDSM.16.M88.4 %r1.128, [%r0+0x20]
                MOV %r2, %r1.0
                MOV %r3, %r1.1
                MOV %r4, %r1.2
                MOV %r5, %r1.3
                LDSM.16.MT88 %r6, [%r0]
                MOV %r7, %r6
                IADD3 %r9, PT, PT, %r8.lo, -c[0x0][0x18], RZ
                LDSM.16.M88.2 %r10.64, [%r9]
                MOV %r11, %r10.lo
                MOV %r12, %r10.hi
                EXIT""", t);
        // a generic address is converted to the shared window; a global one is an error, as ptxas makes it
        assertThrows(CompilationException.class, () -> lower("sm_80",
                "ldmatrix.sync.aligned.m8n8.x4.global.b16 {%r1, %r2, %r3, %r4}, [%rd1];"));
    }

    @Test
    void warpShuffleVoteMatch() throws CompilationException {
        String t = text(lower("sm_80", """
                shfl.sync.idx.b32 %r1, %r2, 3, 31, -1;
                shfl.sync.up.b32 %r3|%p1, %r2, 1, 0, 0xffffffff;
                shfl.sync.bfly.b32 %r4, %r2, %r5, %r6, %r7;
                vote.sync.all.pred %p2, %p1, -1;
                vote.sync.uni.pred %p3, !%p1, -1;
                vote.sync.ballot.b32 %r8, %p1, -1;
                vote.sync.ballot.b32 %r9, %p1, %r7;
                activemask.b32 %r10;
                match.any.sync.b32 %r11, %r2, -1;
                match.all.sync.b64 %r12|%p4, %rd1, -1;
                """));
        assertEquals("""
                SHFL.IDX PT, %r1, %r0, 0x3, 0x1f
                SHFL.UP %p0, %r2, %r0, 0x1, RZ
                WARPSYNC %r3
                SHFL.BFLY PT, %r6, %r0, %r4, %r5
                VOTE.ALL %p1, %p0
                VOTE.EQ %p2, !%p0
                VOTE.ANY %r7, PT, %p0
                WARPSYNC %r3
                VOTE.ANY %r8, PT, %p0
                LOP3.LUT PT, %r9, %r8, %r3, RZ, 0xc0, !PT
                MOV %r10, %r9
                VOTE.ANY %r11, PT, PT
                MATCH.ANY %r12, %r0
                MATCH.ALL.U64 %p3, %r14, %r13.64
                EXIT""", t);
    }

    @Test
    void turingVotesAndMatchAllAreBallotsAsPtxasDoes() throws CompilationException {
        String t = text(lower("sm_75", """
                vote.sync.all.pred %p2, %p1, -1;
                vote.sync.uni.pred %p3, %p1, -1;
                match.all.sync.b32 %r1|%p4, %r2, -1;
                """));
        assertEquals("""
                VOTE.ANY %r0, PT, !%p0
                ISETP.EQ.U32.AND %p1, PT, %r0, RZ, PT
                VOTE.ANY %r1, PT, %p0
                VOTE.ANY %r2, PT, PT
                ISETP.EQ.U32.AND %p3, PT, %r1, RZ, PT
                ISETP.EQ.U32.OR %p2, PT, %r1, %r2, %p3
                MATCH.ANY %r5, %r3
                VOTE.ANY %r6, PT, PT
                ISETP.EQ.U32.AND %p4, PT, %r5, %r6, PT
                SEL %r4, %r6, RZ, %p4
                EXIT""", t);
    }

    @Test
    void reduxAndElect() throws CompilationException {
        String t = text(lower("sm_80", """
                redux.sync.add.u32 %r1, %r2, -1;
                redux.sync.min.s32 %r3, %r2, -1;
                redux.sync.and.b32 %r4, %r2, -1;
                redux.sync.xor.b32 %r5, %r2, %r6;
                """));
        assertEquals("""
                REDUX.SUM %ur0, %r0
                MOV %r1, %ur0
                REDUX.MIN.S32 %ur1, %r0
                MOV %r2, %ur1
                REDUX %ur2, %r0
                MOV %r3, %ur2
                WARPSYNC.EXCLUSIVE %r4
                REDUX.XOR %ur3, %r0
                MOV %r5, %ur3
                EXIT""", t);
        String e = text(lower("sm_90", "elect.sync %r1|%p1, -1;\nelect.sync _|%p2, -1;"));
        assertEquals("ELECT %p0, %ur0, PT\nMOV %r0, %ur0\nELECT %p1, URZ, PT\nEXIT", e);
    }
}
