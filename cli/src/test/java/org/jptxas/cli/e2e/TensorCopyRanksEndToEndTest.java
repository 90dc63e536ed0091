package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code tma_tile_nd} ({@link KernelSuite#standalone()}): tensor copies of ranks 3, 4 and 5 in both directions, boxes
 * partly out of bounds and one coordinate negative, three ways — the PTX interpreter, jptxas's cubin and ptxas 13's
 * in the SASS emulator, each against the CPU reference; jptxas's cubin is read by nvdisasm as jptxas prints it and
 * has no hazard. Their uniform operand blocks (destination, barrier, coordinates) are tuples of five to seven
 * registers, which start on a multiple of eight as ptxas places them.
 */
class TensorCopyRanksEndToEndTest {
    private static final String ARCH = "sm_90";
    private static final Pattern COPY = Pattern.compile("UTMA(LD|ST)G\\.([1-5])D \\[UR(\\d+)\\]");

    private static KernelCase kernel() {
        return TextureGatherQueryEndToEndTest.kernel("tma_tile_nd");
    }

    @Test
    void bothCompilersCubinsComputeTheReference(@TempDir Path dir) throws Exception {
        KernelCase k = kernel();
        ModuleCodegen.Result ours = OracleAcceptanceTest.compilePtx(TextureGatherQueryEndToEndTest.REGISTRY, k.ptx(),
                ARCH, false, false);
        List<String> copies = new ArrayList<>();
        Matcher m = COPY.matcher(ours.sass());
        while (m.find()) {
            boolean load = m.group(1).equals("LD");
            int rank = Integer.parseInt(m.group(2));
            int base = Integer.parseInt(m.group(3));
            int registers = rank + (load ? 2 : 1);
            copies.add(m.group(1) + rank);
            assertEquals(0, base % (registers > 4 ? 8 : 4), m.group() + ": a block of " + registers + " misaligned");
        }
        assertEquals(List.of("LD3", "LD4", "LD5", "ST3", "ST4", "ST5"), copies.stream().sorted().toList(),
                ours.sass());
        TextureGatherQueryEndToEndTest.bothCubinsComputeTheReference(ARCH, k, ours, dir);
    }

    @Test
    void theInterpreterComputesTheReference(@TempDir Path dir) throws Exception {
        KernelCase k = kernel();
        Launch launch = Launch.prepare(Target.of(ARCH), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = PtxInterpreter.load(k.ptx().getFileName().toString(), Files.readString(k.ptx()))
                .execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        Map<String, byte[]> actual = SuiteRun.outputs(k, launch);
        assertEquals(List.of(), k.compare(actual, 5));
    }
}
