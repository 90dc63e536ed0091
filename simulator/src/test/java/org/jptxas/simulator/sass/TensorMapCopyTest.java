package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.target.Target;
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
 * Tensor-memory-access copies (cp.async.bulk.tensor; UTMALDG/UTMASTG on ptxas 13's cubin) in the PTX interpreter and
 * the SASS emulator, on the suite kernel {@code tma_tile_2d} (tile loads with out-of-bounds columns, an mbarrier the
 * box's bytes complete, a tensor store back): both compute the reference with the emulator's hazard checks clean, and
 * without the wait on the mbarrier the box never lands (the kernel computes from the shared memory's old zeros).
 * jptxas's own cubin: Sm89To90SuiteTest's quick kernels. A box multicast into both blocks of a cluster lands in each.
 */
class TensorMapCopyTest {
    private static final KernelCase KERNEL = KernelSuite.byName("tma_tile_2d").orElseThrow();

    /** The kernel's PTX without the try_wait loop (the three lines from the wait label to its branch). */
    private static String withoutWait() throws Exception {
        String ptx = Files.readString(KERNEL.ptx());
        String out = ptx.replaceAll("(?m)^\\s*wait:\\s*\\n\\s*mbarrier\\.try_wait[^\\n]*\\n\\s*@!done bra wait;\\s*\\n", "");
        assertFalse(out.equals(ptx), "the wait loop was not found in the kernel's PTX");
        return out;
    }

    private static Launch launch(Path dir) throws Exception {
        return Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(KERNEL.materialize(dir)));
    }

    private static List<String> outcome(LaunchResult r, Launch launch) {
        return r.completed() ? KERNEL.compare(SuiteRun.outputs(KERNEL, launch), 3)
                : List.of("fault: " + r.fault().orElseThrow().describe());
    }

    private static List<String> interpreted(String ptx, Path dir) throws Exception {
        Launch launch = launch(dir);
        return outcome(PtxInterpreter.load("k.ptx", ptx).execute(launch, ExecutionLimits.DEFAULT), launch);
    }

    private static List<String> emulated(String ptx, Path dir) throws Exception {
        Path file = dir.resolve("tma_tile_2d.ptx");
        Files.writeString(file, ptx);
        OracleCubins.Compiled c = OracleCubins.ptxas13(file, "sm_90");
        assertTrue(c.ok(), c.diagnostics());
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of("sm_90"), Files.readAllBytes(c.cubin().orElseThrow()))
                .withStrictConvergence(true);
        Launch launch = launch(dir);
        List<String> problems = new ArrayList<>(outcome(emu.execute(launch, ExecutionLimits.DEFAULT), launch));
        emu.hazards().hazards().forEach(h -> problems.add("hazard: " + h));
        return problems;
    }

    @Test
    void theInterpreterLoadsAndStoresTilesAndNeedsTheWait(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), interpreted(Files.readString(KERNEL.ptx()), Files.createDirectory(dir.resolve("a"))));
        List<String> wrong = interpreted(withoutWait(), Files.createDirectory(dir.resolve("b")));
        assertFalse(wrong.isEmpty(), "without the wait the boxes must not have landed");
    }

    @Test
    void theEmulatorRunsPtxasTensorCopiesAndNeedsTheWait(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        assertEquals(List.of(), emulated(Files.readString(KERNEL.ptx()), Files.createDirectory(dir.resolve("a"))));
        List<String> wrong = emulated(withoutWait(), Files.createDirectory(dir.resolve("b")));
        assertFalse(wrong.stream().allMatch(p -> p.startsWith("hazard")), "without the wait the boxes must not land");
    }

    /** A box that never lands leaves the waits spinning: stop them early. */
    private static final ExecutionLimits LIMITS = ExecutionLimits.DEFAULT.withMaxWarpInstructions(2_000_000);

    /** Rank 0 multicasts one 16x8 box into both blocks of the cluster; each waits on its own barrier and writes it. */
    private static final String MULTICAST = """
            .version 8.6
            .target sm_90
            .address_size 64
            .visible .entry k(.param .u64 in, .param .u64 map, .param .u64 out)
            .explicitcluster
            .reqnctapercluster 2, 1, 1
            {
              .reg .b32 r<12>;
              .reg .b64 rd<6>;
              .reg .pred p<4>;
              .reg .f32 f<3>;
              .reg .b16 h1;
              .shared .align 128 .b32 buf[128];
              .shared .align 8 .b64 bar;
              ld.param.u64 rd1, [map];
              ld.param.u64 rd2, [out];
              mov.u32 r1, %tid.x;
              mov.u32 r2, %cluster_ctarank;
              mov.u32 r3, bar;
              mov.u32 r4, buf;
              setp.eq.u32 p1, r1, 0;
              @p1 mbarrier.init.shared::cta.b64 [r3], 1;
              @p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [r3], 512;
              fence.mbarrier_init.release.cluster;
              barrier.cluster.arrive.release.aligned;
              barrier.cluster.wait.acquire.aligned;
              setp.eq.and.u32 p2, r2, 0, p1;
              mov.b16 h1, 3;
              mov.u32 r9, 0;
              @p2 cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [r4], [rd1, {r9, r9}], [r3], h1;
            wait:
              mbarrier.try_wait.parity.shared::cta.b64 p0, [r3], 0;
              @!p0 bra wait;
              shl.b32 r5, r1, 2;
              add.u32 r6, r4, r5;
              ld.shared.f32 f1, [r6];
              cvt.rn.f32.u32 f2, r2;
              fma.rn.f32 f1, f2, 0f447A0000, f1;
              mad.lo.u32 r8, r2, 128, r1;
              mul.wide.u32 rd3, r8, 4;
              add.u64 rd4, rd2, rd3;
              st.global.f32 [rd4], f1;
              barrier.cluster.arrive.release.aligned;
              barrier.cluster.wait.acquire.aligned;
              ret;
            }
            """;

    private static Launch multicastLaunch(Path dir) throws Exception {
        byte[] in = new byte[512];
        for (int i = 0; i < 128; i++) {
            int bits = Float.floatToIntBits(i - 50);
            for (int b = 0; b < 4; b++) {
                in[4 * i + b] = (byte) (bits >>> 8 * b);
            }
        }
        Files.write(dir.resolve("in.bin"), in);
        return Launch.prepare(Target.of("sm_90"), LaunchSpecReader.parse("spec", """
                {"entry":"k","grid":[2,1,1],"block":[128,1,1],"cluster":[2,1,1],"params":[
                 {"type":"ptr","bytes":512,"in":"in.bin"},
                 {"type":"tensor_map","of":0,"data_type":7,"dims":[16,8],"strides":[64],"box":[16,8]},
                 {"type":"ptr","bytes":1024}]}""", dir));
    }

    /** Both blocks' outputs: element i of rank r is {@code (i - 50) + 1000 r}, or the mismatches. */
    private static List<String> multicastOutcome(LaunchResult r, Launch launch) {
        if (!r.completed()) {
            return List.of("fault: " + r.fault().orElseThrow().describe());
        }
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(launch.arguments().get(2).buffer().orElseThrow().bytes())
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        List<String> wrong = new ArrayList<>();
        for (int i = 0; i < 256; i++) {
            float expected = (i % 128 - 50) + 1000 * (i / 128);
            if (b.getFloat(4 * i) != expected) {
                wrong.add("out[" + i + "] = " + b.getFloat(4 * i) + ", expected " + expected);
            }
        }
        return wrong;
    }

    @Test
    void aMulticastBoxLandsInEveryBlockOfTheMask(@TempDir Path dir) throws Exception {
        Launch interpreted = multicastLaunch(Files.createDirectory(dir.resolve("a")));
        assertEquals(List.of(), multicastOutcome(PtxInterpreter.load("k.ptx", MULTICAST)
                .execute(interpreted, LIMITS), interpreted));
        Oracles.assumePtxas13();
        Path d = Files.createDirectory(dir.resolve("b"));
        Path file = d.resolve("k.ptx");
        Files.writeString(file, MULTICAST);
        OracleCubins.Compiled c = OracleCubins.ptxas13(file, "sm_90");
        assertTrue(c.ok(), c.diagnostics());
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of("sm_90"), Files.readAllBytes(c.cubin().orElseThrow()));
        Launch emulated = multicastLaunch(d);
        assertEquals(List.of(), multicastOutcome(emu.execute(emulated, LIMITS), emulated));
    }
}
