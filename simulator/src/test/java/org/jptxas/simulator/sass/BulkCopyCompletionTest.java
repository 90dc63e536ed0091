package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.exec.Launch;
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
 * A bulk copy lands when its mbarrier's phase is checked, not before: the suite kernel {@code bulk_copy_mbarrier}
 * with its wait ({@code mbarrier.try_wait} loop) taken out must not compute the reference, in the PTX interpreter and
 * in the SASS emulator on ptxas 13's cubin. It fails either way the model allows: stale shared memory (a wrong
 * result), or, as here, the barrier's next arrival (its stage reused two tiles on) finding the previous phase still
 * incomplete (a launch fault naming the undefined arrival). With the wait both compute the reference.
 */
class BulkCopyCompletionTest {
    private static final KernelCase KERNEL = KernelSuite.byName("bulk_copy_mbarrier").orElseThrow();

    /** The kernel's PTX without the try_wait loop (the three lines from the wait label to its branch). */
    static String withoutWait() throws Exception {
        String ptx = Files.readString(KERNEL.ptx());
        String out = ptx.replaceAll("(?m)^\\s*wait:\\s*\\n\\s*mbarrier\\.try_wait[^\\n]*\\n\\s*@!done bra wait;\\s*\\n", "");
        assertFalse(out.equals(ptx), "the wait loop was not found in the kernel's PTX");
        return out;
    }

    /** The reference's mismatches, or the launch's fault. */
    private static List<String> interpreted(String ptx, Path dir) throws Exception {
        PtxInterpreter interp = PtxInterpreter.load("k.ptx", ptx);
        Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(KERNEL.materialize(dir)));
        LaunchResult r = interp.execute(launch, ExecutionLimits.DEFAULT);
        return r.completed() ? KERNEL.compare(SuiteRun.outputs(KERNEL, launch), 3)
                : List.of("fault: " + r.fault().orElseThrow().describe());
    }

    private static List<String> emulated(String ptx, Path dir) throws Exception {
        Path file = dir.resolve("bulk_copy_mbarrier.ptx");
        Files.writeString(file, ptx);
        OracleCubins.Compiled c = OracleCubins.ptxas13(file, "sm_90");
        assertTrue(c.ok(), c.diagnostics());
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of("sm_90"), Files.readAllBytes(c.cubin().orElseThrow()));
        Launch launch = Launch.prepare(Target.of("sm_90"), LaunchSpecReader.read(KERNEL.materialize(dir)));
        LaunchResult r = emu.execute(launch, ExecutionLimits.DEFAULT);
        return r.completed() ? KERNEL.compare(SuiteRun.outputs(KERNEL, launch), 3)
                : List.of("fault: " + r.fault().orElseThrow().describe());
    }

    @Test
    void theInterpreterSeesStaleSharedMemoryWithoutTheWait(@TempDir Path dir) throws Exception {
        assertEquals(List.of(), interpreted(Files.readString(KERNEL.ptx()), Files.createDirectory(dir.resolve("a"))));
        List<String> wrong = interpreted(withoutWait(), Files.createDirectory(dir.resolve("b")));
        assertFalse(wrong.isEmpty(), "without the wait the copies must not have landed");
        System.out.println("interpreter without the wait: " + wrong.get(0));
    }

    @Test
    void theEmulatorOnPtxasCubinSeesStaleSharedMemoryWithoutTheWait(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        assertEquals(List.of(), emulated(Files.readString(KERNEL.ptx()), Files.createDirectory(dir.resolve("a"))));
        List<String> wrong = emulated(withoutWait(), Files.createDirectory(dir.resolve("b")));
        assertFalse(wrong.isEmpty(), "without the wait the copies must not have landed");
        System.out.println("SASS emulator without the wait: " + wrong.get(0));
    }
}
