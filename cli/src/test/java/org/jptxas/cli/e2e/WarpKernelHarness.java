package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.target.Target;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;

/**
 * The end-to-end tests' one-warp kernel: {@code (in, out)} word buffers, one block of 32 threads; the cubin checks
 * every such test makes (nvdisasm reads jptxas's cubin as its {@code --out-sass}, no hazards in its control bits) and
 * ptxas 13's cubin of the same PTX.
 */
final class WarpKernelHarness {
    private WarpKernelHarness() {
    }

    /** A launch of {@code entry} on one warp with {@code in} as its first buffer and {@code outWords} words out. */
    static Launch launch(String arch, String entry, int[] in, int outWords, Path dir) throws Exception {
        Files.createDirectories(dir);
        ByteBuffer bb = ByteBuffer.allocate(4 * in.length).order(ByteOrder.LITTLE_ENDIAN);
        bb.asIntBuffer().put(in);
        Files.write(dir.resolve("in.bin"), bb.array());
        Path spec = dir.resolve("launch.json");
        Files.writeString(spec, "{\"entry\": \"" + entry + "\", \"grid\": [1,1,1], \"block\": [32,1,1],"
                + " \"dynamic_shared_bytes\": 0, \"params\": [{\"type\": \"ptr\", \"bytes\": " + 4 * in.length
                + ", \"in\": \"in.bin\"}, {\"type\": \"ptr\", \"bytes\": " + 4 * outWords
                + ", \"out\": \"out.bin\"}]}");
        return Launch.prepare(Target.of(arch), LaunchSpecReader.read(spec));
    }

    /** The output buffer's words after the launch ran. */
    static int[] output(Launch launch) {
        byte[] bytes = launch.arguments().get(1).buffer().orElseThrow().bytes();
        int[] out = new int[bytes.length / 4];
        ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(out);
        return out;
    }

    /** Runs {@code cubin} in the SASS emulator on {@code launch}; its output words. */
    static int[] emulate(byte[] cubin, String arch, Launch launch) throws Exception {
        LaunchResult r = SassEmulator.fromCubin(TestTargets.of(arch), cubin).execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        return output(launch);
    }

    /** nvdisasm 12.5 reads jptxas's cubin exactly as its {@code --out-sass}, and its control bits have no hazard. */
    static void assertReadByNvdisasmAndHazardFree(ModuleCodegen.Result ours, String arch, Path dir) throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cubin = dir.resolve("ours.cubin");
        Files.write(cubin, ours.cubin());
        Processes.Result dis = OracleToolRuns.run(nvdisasm, List.of("-c"), cubin, dir, true);
        assertEquals(0, dis.exitCode(), dis.stderr());
        assertEquals(OracleAcceptanceTest.codeLines(ours.sass()), OracleAcceptanceTest.codeLines(dis.stdout()),
                "nvdisasm reads jptxas's cubin as its --out-sass");
        assertEquals(List.of(), ControlAgreement.checkHazards(ours.cubin(), TestTargets.of(arch)),
                "hazards in jptxas's control bits");
    }

    /** ptxas 13's cubin of {@code ptx}. */
    static byte[] ptxas13Cubin(Path ptx, String arch) throws Exception {
        Oracles.assumePtxas13();
        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, arch);
        assertTrue(c.ok(), c.diagnostics());
        return Files.readAllBytes(c.cubin().orElseThrow());
    }

    /**
     * The three ways one warp's {@code entry} (written at {@code ptx}, its text for sm_80 in {@code sm80Text}) must
     * compute {@code expected} from {@code in}: the emulator on jptxas's cubin for {@code arch} (which nvdisasm reads
     * as printed, without hazards), on ptxas 13's, and the interpreter.
     */
    static void assertThreeWays(BackendRegistry registry, Path ptx, String arch, String sm80Text, String entry,
            int[] in, int[] expected, Path dir) throws Exception {
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(registry, ptx, arch, false, false);
        assertArrayEquals(expected, emulate(ours.cubin(), arch, launch(arch, entry, in, expected.length,
                dir.resolve("jptxas"))), "jptxas's cubin");
        assertReadByNvdisasmAndHazardFree(ours, arch, dir);
        byte[] theirs = ptxas13Cubin(ptx, arch);
        assertArrayEquals(expected, emulate(theirs, arch, launch(arch, entry, in, expected.length,
                dir.resolve("ptxas"))), "ptxas's cubin");
        Launch interpreted = launch("sm_80", entry, in, expected.length, dir.resolve("interpreter"));
        LaunchResult r = PtxInterpreter.load(ptx.getFileName().toString(), sm80Text)
                .execute(interpreted, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertArrayEquals(expected, output(interpreted), "the interpreter");
    }

    /** The first diagnostic compiling {@code ptx} for {@code arch} gives, or "" if it compiles. */
    static String refusal(BackendRegistry registry, Path ptx, String arch) throws Exception {
        try {
            OracleAcceptanceTest.compilePtx(registry, ptx, arch, false, false);
            return "";
        } catch (CompilationException e) {
            return e.diagnostics().isEmpty() ? String.valueOf(e.getMessage()) : e.diagnostics().get(0).format("jptxas");
        }
    }
}
