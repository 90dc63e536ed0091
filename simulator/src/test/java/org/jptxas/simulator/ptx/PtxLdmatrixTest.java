package org.jptxas.simulator.ptx;

import static org.jptxas.simulator.LdmatrixReference.fragmentsOfRows;
import static org.jptxas.simulator.LdmatrixReference.image;
import static org.jptxas.simulator.LdmatrixReference.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.LdmatrixReference;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.KernelExecutor;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.jptxas.spi.TestTargets;

/**
 * {@code ldmatrix} in the interpreter: one warp copies a random image into a {@code .shared} array, each lane reads
 * its row index from a buffer, runs one {@code ldmatrix} and stores its destinations (the fourth register after the
 * tuple keeps a sentinel) to global memory, checked for every lane against {@link LdmatrixReference}.
 */
class PtxLdmatrixTest {
    static final int IMAGE = 1024;
    static final int SENTINEL = 0x5a5a5a5a;

    /**
     * The kernel, with {@code LDMATRIX} replaced by the instruction under test. Row addresses of lane l:
     * %r15 (32-bit shared), %r16 = %r15 - 32, %rd8 (64-bit shared), %rd9 (generic), %rd12 = %rd9 - 48.
     */
    static final String KERNEL = """
            .version 7.8
            .target sm_75
            .address_size 64
            .shared .align 16 .b8 tile[1024];
            .visible .entry k(.param .u64 in, .param .u64 rows, .param .u64 out)
            {
                .reg .b32 %r<40>;
                .reg .b64 %rd<20>;
                .reg .pred %p<4>;
                ld.param.u64 %rd1, [in];
                ld.param.u64 %rd2, [rows];
                ld.param.u64 %rd3, [out];
                mov.u32 %r1, %tid.x;
                mul.wide.u32 %rd4, %r1, 32;
                add.u64 %rd5, %rd1, %rd4;
                ld.global.v4.u32 {%r2, %r3, %r4, %r5}, [%rd5];
                ld.global.v4.u32 {%r6, %r7, %r8, %r9}, [%rd5+16];
                mov.u32 %r10, tile;
                shl.b32 %r11, %r1, 5;
                add.u32 %r12, %r10, %r11;
                st.shared.v4.u32 [%r12], {%r2, %r3, %r4, %r5};
                st.shared.v4.u32 [%r12+16], {%r6, %r7, %r8, %r9};
                bar.sync 0;
                mul.wide.u32 %rd6, %r1, 4;
                add.u64 %rd7, %rd2, %rd6;
                ld.global.u32 %r13, [%rd7];
                shl.b32 %r14, %r13, 4;
                add.u32 %r15, %r10, %r14;
                sub.u32 %r16, %r15, 32;
                cvt.u64.u32 %rd8, %r15;
                cvta.shared.u64 %rd9, %rd8;
                sub.u64 %rd12, %rd9, 48;
                setp.ne.u32 %p1, %r1, 3;
                mov.u32 %r20, 0x5a5a5a5a;
                mov.u32 %r21, 0x5a5a5a5a;
                mov.u32 %r22, 0x5a5a5a5a;
                mov.u32 %r23, 0x5a5a5a5a;
                LDMATRIX;
                mul.wide.u32 %rd10, %r1, 16;
                add.u64 %rd11, %rd3, %rd10;
                st.global.u32 [%rd11], %r20;
                st.global.u32 [%rd11+4], %r21;
                st.global.u32 [%rd11+8], %r22;
                st.global.u32 [%rd11+12], %r23;
                ret;
            }
            """;

    record Out(LaunchResult result, ByteBuffer out) {}

    static Out run(String ldmatrix, byte[] image, int[] rows) throws Exception {
        return run(PtxInterpreter.load("ldmatrix.ptx", KERNEL.replace("LDMATRIX", ldmatrix)), "sm_80", image, rows);
    }

    static Out run(KernelExecutor executor, String sm, byte[] image, int[] rows) throws Exception {
        Launch l = Launch.prepare(Target.of(sm), LaunchSpecReader.parse("t.json", "{\"entry\":\"k\",\"grid\":[1],"
                + "\"block\":[32],\"params\":[{\"type\":\"ptr\",\"bytes\":" + IMAGE + "},{\"type\":\"ptr\",\"bytes\":128},"
                + "{\"type\":\"ptr\",\"bytes\":512}]}", Path.of(".")));
        System.arraycopy(image, 0, buffer(l, 0), 0, IMAGE);
        ByteBuffer r = ByteBuffer.wrap(buffer(l, 1)).order(ByteOrder.LITTLE_ENDIAN);
        for (int lane = 0; lane < 32; lane++) {
            r.putInt(4 * lane, rows[lane]);
        }
        LaunchResult res = executor.execute(l, ExecutionLimits.DEFAULT.withMaxWarpInstructions(10_000));
        return new Out(res, ByteBuffer.wrap(buffer(l, 2)).order(ByteOrder.LITTLE_ENDIAN));
    }

    static byte[] buffer(Launch l, int param) {
        return l.arguments().get(param).buffer().orElseThrow().bytes();
    }

    /** Every shape, with 32- and 64-bit shared addresses, offsets, {@code .shared::cta} and generic addresses. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r20, %r21}, [%r15]",
            "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r20, %r21, %r22, %r23}, [%r16+32]",
            "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r15]",
            "ldmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16 {%r20}, [%rd8]",
            "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r20, %r21}, [%rd8]",
            "ldmatrix.sync.aligned.m8n8.x4.shared::cta.b16 {%r20, %r21, %r22, %r23}, [%r16+32]",
            "ldmatrix.sync.aligned.m8n8.x4.b16 {%r20, %r21, %r22, %r23}, [%rd9]",
            "ldmatrix.sync.aligned.m8n8.x2.trans.b16 {%r20, %r21}, [%rd12+48]"})
    void everyLaneGetsItsFragment(String ldmatrix) throws Exception {
        int n = ldmatrix.contains(".x4") ? 4 : ldmatrix.contains(".x2") ? 2 : 1;
        boolean trans = ldmatrix.contains(".trans");
        long seed = ldmatrix.hashCode();
        byte[] image = image(seed, IMAGE);
        int[] rows = rows(seed + 1);
        Out o = run(ldmatrix, image, rows);
        assertTrue(o.result().completed(), () -> o.result().fault().orElseThrow().describe());
        int[][] want = fragmentsOfRows(image, rows, n, trans);
        for (int t = 0; t < 32; t++) {
            for (int i = 0; i < 4; i++) {
                int w = i < n ? want[t][i] : SENTINEL, got = o.out().getInt(16 * t + 4 * i);
                int lane = t, reg = i;
                assertEquals(w, got, () -> String.format("%s: lane %d d%d: expected 0x%08x, got 0x%08x", ldmatrix, lane, reg,
                        w, got));
            }
        }
    }

    /**
     * The same kernels compiled by ptxas 13 (skipped without it) and run on the SASS emulator: LDSM as ptxas writes it
     * (register tuples, a generic address converted to a shared one, sm_90's shared window) gives every lane the
     * reference fragments. Not sm_75 (its decoder does not know all of this kernel's code yet) nor generic addresses
     * on sm_90 (ptxas converts them with {@code S2R SR_SWINHI}, which the emulator does not model).
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "sm_80|ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r20, %r21}, [%r15]",
            "sm_80|ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r20, %r21, %r22, %r23}, [%r16+32]",
            "sm_80|ldmatrix.sync.aligned.m8n8.x1.trans.shared::cta.b16 {%r20}, [%rd8]",
            "sm_86|ldmatrix.sync.aligned.m8n8.x4.b16 {%r20, %r21, %r22, %r23}, [%rd9]",
            "sm_89|ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%r20, %r21}, [%r15]",
            "sm_90|ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%r20, %r21}, [%r15]",
            "sm_90|ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r20, %r21, %r22, %r23}, [%r16+32]",
            "sm_90|ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r15]"})
    void ptxasCodeOnTheEmulatorGivesTheReference(String sm, String ldmatrix, @TempDir Path dir) throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        String ptx = KERNEL.replace("LDMATRIX", ldmatrix).replace(".target sm_75", ".target " + sm);
        Files.writeString(dir.resolve("k.ptx"), ptx);
        Processes.Result c = Processes.run(List.of(ptxas.toString(), "-arch=" + sm, "k.ptx", "-o", "k.cubin"), dir);
        assertEquals(0, c.exitCode(), c.stdout() + c.stderr());
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of(sm), Files.readAllBytes(dir.resolve("k.cubin")))
                .withStrictConvergence(true);
        int n = ldmatrix.contains(".x4") ? 4 : ldmatrix.contains(".x2") ? 2 : 1;
        long seed = ldmatrix.hashCode() + sm.hashCode();
        byte[] image = image(seed, IMAGE);
        int[] rows = rows(seed + 1);
        Out o = run(emu, sm, image, rows);
        assertTrue(o.result().completed(), () -> o.result().fault().orElseThrow().describe());
        assertTrue(emu.classesExecuted().stream().anyMatch(k -> k.startsWith("LDSM.16.")),
                emu.classesExecuted().toString());
        int[][] want = fragmentsOfRows(image, rows, n, ldmatrix.contains(".trans"));
        for (int t = 0; t < 32; t++) {
            for (int i = 0; i < 4; i++) {
                int w = i < n ? want[t][i] : SENTINEL, got = o.out().getInt(16 * t + 4 * i);
                int lane = t, reg = i;
                assertEquals(w, got, () -> String.format("%s %s: lane %d d%d: expected 0x%08x, got 0x%08x", sm, ldmatrix,
                        lane, reg, w, got));
            }
        }
    }

    /** A misaligned row address is a memory fault of the lane that gave it; the other lanes' addresses are not read. */
    @Test
    void misalignedRowIsAMemoryFaultOfItsLane() throws Exception {
        int[] rows = rows(9);
        // %r16 + 40: every row 8 bytes past its start
        Out o = run("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%r20, %r21, %r22, %r23}, [%r16+40]",
                image(9, IMAGE), rows);
        Fault.MemoryFault f = assertInstanceOf(Fault.MemoryFault.class, o.result().fault().orElseThrow());
        assertEquals(0, f.thread().thread().x(), f.describe());
        assertEquals(AddressSpace.SHARED, f.access().space());
        assertEquals(16L * rows[0] + 8, f.access().address());
        assertTrue(f.describe().contains("misaligned") && f.instruction().contains("ldmatrix"), f.describe());
    }

    /** Out of bounds: lane 5 names a row past the 1 KiB array (and past the block's shared memory). */
    @Test
    void rowOutsideSharedMemoryIsAMemoryFault() throws Exception {
        int[] rows = rows(10);
        rows[5] = 64;
        Out o = run("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r15]", image(10, IMAGE), rows);
        Fault.MemoryFault f = assertInstanceOf(Fault.MemoryFault.class, o.result().fault().orElseThrow());
        assertEquals(5, f.thread().thread().x(), f.describe());
        assertEquals(IMAGE, f.access().address());
        assertTrue(f.describe().contains("out of bounds"), f.describe());
        // the same row index given by a lane .x1 does not read: no fault
        rows = rows(10);
        rows[8] = 64;
        Out ok = run("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r15]", image(10, IMAGE), rows);
        assertTrue(ok.result().completed(), () -> ok.result().fault().orElseThrow().describe());
    }

    /** Without a state space the address is generic and must point into the shared window: a global one faults. */
    @Test
    void genericAddressOutsideTheSharedWindowFaults() throws Exception {
        Out o = run("ldmatrix.sync.aligned.m8n8.x2.b16 {%r20, %r21}, [%rd3]", image(11, IMAGE), rows(11));
        Fault.MemoryFault f = assertInstanceOf(Fault.MemoryFault.class, o.result().fault().orElseThrow());
        assertEquals(AddressSpace.GENERIC, f.access().space());
        assertEquals(0, f.thread().thread().x(), f.describe());
    }

    /** A row whose lane does not execute ldmatrix (guard false in lane 3) is undefined: the run stops. */
    @Test
    void rowOfALaneNotExecutingItIsInvalid() throws Exception {
        Out o = run("@%p1 ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r20}, [%r15]", image(12, IMAGE), rows(12));
        Fault.InvalidExecution f = assertInstanceOf(Fault.InvalidExecution.class, o.result().fault().orElseThrow());
        assertTrue(f.message().contains("lane 3"), f.describe());
    }

    /** Fewer or more destinations than the shape names is a program error. */
    @Test
    void destinationCountMustMatchTheShape() {
        ProgramException e = org.junit.jupiter.api.Assertions.assertThrows(ProgramException.class, () -> PtxInterpreter.load(
                "bad.ptx", KERNEL.replace("LDMATRIX", "ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%r20, %r21}, [%r15]")));
        assertTrue(e.getMessage().contains("needs 4 destination"), e.getMessage());
    }
}
