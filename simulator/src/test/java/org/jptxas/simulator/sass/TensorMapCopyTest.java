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
 * jptxas's own cubin: Sm89To90SuiteTest's quick kernels.
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
}
