package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ClusterConstants;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thread-block clusters in the PTX interpreter and in the SASS emulator on ptxas 13's cubins: the suite kernel
 * {@code cluster_reduce_dsmem} computes its reference; without its second cluster barrier rank 0 exits before the
 * other blocks' {@code red.shared::cluster} into its accumulator, which then faults (the shared memory of a block that
 * has exited is gone); a block that reads another that exited faults alike (blocks of a cluster run a round of their
 * warps in rank order, so rank 0 exits before rank 1 reads); a block that never arrives is a deadlock.
 */
class ClusterLaunchTest {
    private static final KernelCase KERNEL = KernelSuite.byName("cluster_reduce_dsmem").orElseThrow();
    private static final String SECOND_BARRIER =
            "(?s)(barrier\\.cluster\\.wait\\.acquire\\.aligned;.*)\\n\\s*barrier\\.cluster\\.arrive\\.release\\.aligned;"
                    + "\\s*\\n\\s*barrier\\.cluster\\.wait\\.acquire\\.aligned;";

    static String withoutSecondBarrier() throws Exception {
        String ptx = Files.readString(KERNEL.ptx());
        String out = ptx.replaceFirst(SECOND_BARRIER, "$1");
        assertFalse(out.equals(ptx), "the second cluster barrier was not found in the kernel's PTX");
        return out;
    }

    /** Two blocks in one cluster; rank 0 exits at once (it runs first), rank 1 then reads rank 0's shared memory. */
    private static final String READS_AN_EXITED_BLOCK = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry k(.param .u64 out)
            {
              .reg .b32 %r<8>; .reg .b64 %rd<4>; .reg .pred %p<4>;
              .shared .align 4 .b32 sm[4];
              mov.u32 %r1, %cluster_ctarank;
              setp.eq.u32 %p1, %r1, 0;
              @%p1 bra DONE;
              mov.u32 %r3, sm;
              mapa.shared::cluster.u32 %r4, %r3, 0;
              ld.shared::cluster.u32 %r5, [%r4];
              ld.param.u64 %rd1, [out];
              st.global.u32 [%rd1], %r5;
            DONE:
              ret;
            }
            """;

    /** Rank 0 waits at the cluster barrier without arriving; the others arrive and wait. */
    private static final String NEVER_ARRIVES = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry k(.param .u64 out)
            {
              .reg .b32 %r<8>; .reg .pred %p<4>;
              mov.u32 %r1, %cluster_ctarank;
              setp.eq.u32 %p1, %r1, 0;
              @%p1 bra WAIT;
              barrier.cluster.arrive.aligned;
            WAIT:
              barrier.cluster.wait.aligned;
              ret;
            }
            """;

    private static final String SPEC = """
            {"entry": "k", "grid": [4,1,1], "block": [32,1,1], "cluster": [2,1,1],
             "params": [{"type": "ptr", "bytes": 16}]}
            """;

    private static Launch suiteLaunch(Path dir) throws Exception {
        return Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(KERNEL.materialize(dir)));
    }

    private static Launch small(Path dir) throws Exception {
        Path spec = dir.resolve("small.json");
        Files.writeString(spec, SPEC);
        return Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(spec));
    }

    private static String outcome(LaunchResult r, Launch launch) {
        if (!r.completed()) {
            return "fault: " + r.fault().orElseThrow().describe();
        }
        return String.join("\n", KERNEL.compare(SuiteRun.outputs(KERNEL, launch), 3));
    }

    private static LaunchResult interpret(String ptx, Launch launch) throws Exception {
        return PtxInterpreter.load("k.ptx", ptx).execute(launch, ExecutionLimits.DEFAULT);
    }

    private static LaunchResult emulate(String ptx, Path dir, Launch launch) throws Exception {
        Path file = dir.resolve("k" + Integer.toHexString(ptx.hashCode()) + ".ptx"); // one file per program
        Files.writeString(file, ptx);
        OracleCubins.Compiled c = OracleCubins.ptxas13(file, "sm_90");
        assertTrue(c.ok(), c.diagnostics());
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of("sm_90"), Files.readAllBytes(c.cubin().orElseThrow()));
        return emu.execute(launch, ExecutionLimits.DEFAULT);
    }

    @Test
    void theInterpreterRunsClustersTogether(@TempDir Path dir) throws Exception {
        Launch good = suiteLaunch(Files.createDirectory(dir.resolve("a")));
        assertEquals("", outcome(interpret(Files.readString(KERNEL.ptx()), good), good));
        Launch bad = suiteLaunch(Files.createDirectory(dir.resolve("b")));
        String wrong = outcome(interpret(withoutSecondBarrier(), bad), bad);
        // rank 0 runs on and exits first: the others' red.shared::cluster finds its shared memory gone
        assertTrue(wrong.contains("has exited"), "without the second barrier the adds must reach an exited block: " + wrong);
        Path c = Files.createDirectory(dir.resolve("c"));
        assertTrue(outcome(interpret(READS_AN_EXITED_BLOCK, small(c)), null).contains("has exited"));
        assertTrue(outcome(interpret(NEVER_ARRIVES, small(c)), null).contains("barrier.cluster.wait"));
    }

    @Test
    void theEmulatorRunsPtxasClustersTogether(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        Launch good = suiteLaunch(Files.createDirectory(dir.resolve("a")));
        assertEquals("", outcome(emulate(Files.readString(KERNEL.ptx()), dir, good), good));
        Launch bad = suiteLaunch(Files.createDirectory(dir.resolve("b")));
        String wrong = outcome(emulate(withoutSecondBarrier(), dir, bad), bad);
        // rank 0 runs on and exits first: the others' red.shared::cluster finds its shared memory gone
        assertTrue(wrong.contains("has exited"), "without the second barrier the adds must reach an exited block: " + wrong);
        Path c = Files.createDirectory(dir.resolve("c"));
        assertTrue(outcome(emulate(READS_AN_EXITED_BLOCK, dir, small(c)), null).contains("has exited"));
        assertTrue(outcome(emulate(NEVER_ARRIVES, dir, small(c)), null).contains("deadlock"));
    }

    /** Without a cluster in the launch a block is a cluster of one: barrier.cluster orders its shared memory. */
    private static final String ROTATE = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry k(.param .u64 out)
            {
              .reg .b32 %r<8>; .reg .b64 %rd<4>;
              .shared .align 4 .b32 sm[32];
              mov.u32 %r1, %tid.x;
              shl.b32 %r2, %r1, 2;
              mov.u32 %r3, sm;
              add.u32 %r4, %r3, %r2;
              st.shared.u32 [%r4], %r1;
              barrier.cluster.arrive;
              barrier.cluster.wait;
              add.u32 %r5, %r1, 1;
              and.b32 %r5, %r5, 31;
              shl.b32 %r5, %r5, 2;
              add.u32 %r5, %r3, %r5;
              ld.shared.u32 %r6, [%r5];
              ld.param.u64 %rd1, [out];
              mul.wide.u32 %rd2, %r1, 4;
              add.u64 %rd3, %rd1, %rd2;
              st.global.u32 [%rd3], %r6;
              ret;
            }
            """;

    @Test
    void withoutAClusterTheInterpreterTakesTheBlockAsOne(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("one.json");
        Files.writeString(spec, """
                {"entry": "k", "grid": [2,1,1], "block": [32,1,1], "params": [{"type": "ptr", "bytes": 128}]}
                """);
        Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(spec));
        LaunchResult r = interpret(ROTATE, launch);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        byte[] out = launch.arguments().get(0).buffer().orElseThrow().bytes();
        for (int i = 0; i < 32; i++) {
            assertEquals((i + 1) % 32, java.nio.ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(4 * i));
        }
    }

    /**
     * Without a cluster in the launch, ptxas's code of an {@code .explicitcluster} kernel (no flag test: its cluster
     * barrier is UCGABAR_ARV/WAIT unconditionally) runs its blocks as clusters of one, as the hardware does.
     */
    @Test
    void withoutAClusterTheEmulatorTakesTheBlockAsOne(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        Path spec = dir.resolve("one.json");
        Files.writeString(spec, """
                {"entry": "k", "grid": [2,1,1], "block": [32,1,1], "params": [{"type": "ptr", "bytes": 128}]}
                """);
        Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(spec));
        String explicit = ROTATE.replace(".visible .entry k(.param .u64 out)\n", ".visible .entry k(.param .u64 out)\n.explicitcluster\n");
        assertFalse(explicit.equals(ROTATE));
        LaunchResult r = emulate(explicit, dir, launch);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        byte[] out = launch.arguments().get(0).buffer().orElseThrow().bytes();
        for (int i = 0; i < 32; i++) {
            assertEquals((i + 1) % 32, java.nio.ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(4 * i));
        }
    }

    /**
     * The suite kernel {@code cluster_generic_shared} (a block's own shared memory through generic pointers,
     * {@code getctarank} and {@code ld.shared::cluster} at its plain shared address) in the interpreter and on ptxas's
     * cubin: each block reaches its own shared memory, not rank 0's (jptxas's cubin: the backends' suite tests).
     */
    @Test
    void ownSharedAddressesNameTheExecutingBlock(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        KernelCase k = KernelSuite.byName("cluster_generic_shared").orElseThrow();
        for (String leg : List.of("interpreter", "ptxas")) {
            Path d = Files.createDirectory(dir.resolve(leg));
            Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(k.materialize(d)));
            LaunchResult r = leg.equals("ptxas") ? emulate(Files.readString(k.ptx()), d, launch)
                    : interpret(Files.readString(k.ptx()), launch);
            assertTrue(r.completed(), () -> leg + ": " + r.fault().orElseThrow().describe());
            assertEquals("", String.join("\n", k.compare(SuiteRun.outputs(k, launch), 3)), leg);
        }
    }

    /**
     * The suite kernel {@code cluster_remote_mbarrier} (rank 0 arrives on rank 1's mbarrier through its shared::cluster
     * address, SYNCS.ARRIVE.TRANS64.RED, after storing into rank 1's shared memory) in the interpreter and on ptxas's
     * cubin: rank 1 gets past its wait and reads the stored values (jptxas's cubin: the backends' suite tests). An
     * arrival that reached the executing block's own barrier would leave rank 1 waiting for ever.
     */
    @Test
    void aBlockSignalsAnotherBlocksBarrier(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        KernelCase k = KernelSuite.byName("cluster_remote_mbarrier").orElseThrow();
        for (String leg : List.of("interpreter", "ptxas")) {
            Path d = Files.createDirectory(dir.resolve(leg));
            Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(k.materialize(d)));
            LaunchResult r = leg.equals("ptxas") ? emulate(Files.readString(k.ptx()), d, launch)
                    : interpret(Files.readString(k.ptx()), launch);
            assertTrue(r.completed(), () -> leg + ": " + r.fault().orElseThrow().describe());
            assertEquals("", String.join("\n", k.compare(SuiteRun.outputs(k, launch), 3)), leg);
        }
    }

    /** Rank 0 multicasts 64 ints into both blocks' {@code buf}; each waits on its own barrier and writes them. */
    private static final String MULTICAST = """
.version 8.6
.target sm_90
.address_size 64

.visible .entry k(.param .u64 in, .param .u64 out)
.explicitcluster
.reqnctapercluster 2, 1, 1
{
  .reg .b32 r<12>;
  .reg .b64 rd<6>;
  .reg .pred p<4>;
  .reg .b16 h1;
  .shared .align 128 .b32 buf[64];
  .shared .align 8 .b64 bar;
  ld.param.u64 rd1, [in];
  ld.param.u64 rd2, [out];
  mov.u32 r1, %tid.x;
  mov.u32 r2, %cluster_ctarank;
  mov.u32 r3, bar;
  mov.u32 r4, buf;
  setp.eq.u32 p1, r1, 0;
  @p1 mbarrier.init.shared::cta.b64 [r3], 1;
  @p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [r3], 256;
  fence.mbarrier_init.release.cluster;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  setp.eq.and.u32 p2, r2, 0, p1;
  mov.b16 h1, 3;
  @p2 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [r4], [rd1], 256, [r3], h1;
wait:
  mbarrier.try_wait.parity.shared::cta.b64 p0, [r3], 0;
  @!p0 bra wait;
  shl.b32 r5, r1, 2;
  add.u32 r6, r4, r5;
  ld.shared.u32 r7, [r6];
  mad.lo.u32 r7, r2, 1000, r7;
  mad.lo.u32 r8, r2, 64, r1;
  mul.wide.u32 rd3, r8, 4;
  add.u64 rd4, rd2, rd3;
  st.global.u32 [rd4], r7;
  barrier.cluster.arrive.release.aligned;
  barrier.cluster.wait.acquire.aligned;
  ret;
}
""";

    /**
     * {@code cp.async.bulk...multicast::cluster} (UBLKCP.S.G.MULTICAST on ptxas's cubin) lands in every block of the
     * mask, each completing on its own barrier: in the interpreter and the emulator, both blocks write
     * {@code in[t] + 1000 * rank}. Without the multicast, rank 1 would wait for ever.
     */
    @Test
    void aMulticastCopyLandsInEveryBlockOfTheMask(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(256).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 64; i++) {
            in.putInt(7 * i - 100);
        }
        for (String leg : List.of("interpreter", "ptxas")) {
            Path d = Files.createDirectory(dir.resolve(leg));
            Files.write(d.resolve("in.bin"), in.array());
            Path spec = d.resolve("launch.json");
            Files.writeString(spec, """
                    {"entry": "k", "grid": [2,1,1], "block": [64,1,1], "cluster": [2,1,1], "params": [
                     {"type": "ptr", "bytes": 256, "in": "in.bin"}, {"type": "ptr", "bytes": 512}]}
                    """);
            Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(spec));
            LaunchResult r = leg.equals("ptxas") ? emulate(MULTICAST, d, launch) : interpret(MULTICAST, launch);
            assertTrue(r.completed(), () -> leg + ": " + r.fault().orElseThrow().describe());
            java.nio.ByteBuffer out = java.nio.ByteBuffer.wrap(launch.arguments().get(1).buffer().orElseThrow().bytes())
                    .order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i < 128; i++) {
                assertEquals(7 * (i % 64) - 100 + 1000 * (i / 64), out.getInt(4 * i), leg + " element " + i);
            }
        }
    }

    /**
     * A launch that names no cluster takes the kernel's compile-time one, as the driver does: the emulator from the
     * cubin's CTA_PER_CLUSTER, the interpreter from {@code .reqnctapercluster}.
     */
    @Test
    void aLaunchWithoutAClusterTakesTheCompiledShape(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        Path spec = KERNEL.materialize(dir);
        String json = Files.readString(spec);
        String without = json.replaceFirst("\"cluster\":\\s*\\[[^]]*],?", "");
        assertFalse(without.equals(json), "no cluster in the suite launch: " + json);
        Files.writeString(spec, without);
        Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(spec));
        assertTrue(launch.cluster().isEmpty());
        assertEquals("", outcome(emulate(Files.readString(KERNEL.ptx()), dir, launch), launch));
        Launch interpreted = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(spec));
        assertEquals("", outcome(interpret(Files.readString(KERNEL.ptx()), interpreted), interpreted));
    }

    @Test
    void theClusterReciprocalDividesExactly() {
        for (int n = 1; n <= 16; n++) {
            float r = ClusterConstants.reciprocal(n);
            for (int k = 0; k < 1 << 16; k++) {
                int q = (int) (float) (k * r); // I2FP.F32.U32, FMUL, F2I.U32.TRUNC
                if (q != k / n) {
                    throw new AssertionError("trunc(" + k + " * rcp(" + n + ")) = " + q + ", not " + k / n);
                }
            }
        }
    }
}
