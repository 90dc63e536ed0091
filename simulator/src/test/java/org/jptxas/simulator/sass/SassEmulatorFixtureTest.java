package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/**
 * The emulator on committed ptxas 13 cubins (saxpy; constant_mem with module variables and relocated constant
 * banks), so that running a cubin is tested in every build without any NVIDIA tool.
 */
class SassEmulatorFixtureTest {
    static byte[] cubin(String kernel, String sm) throws IOException {
        try (InputStream in = SassEmulatorFixtureTest.class.getResourceAsStream(kernel + "." + sm + ".cubin")) {
            return in.readAllBytes();
        }
    }

    static LaunchResult run(SassEmulator emu, KernelCase k, String sm, Path dir, Map<String, byte[]> outputs) throws Exception {
        Launch launch = Launch.prepare(Target.of(sm), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = emu.execute(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(1_000_000));
        int i = 0;
        for (KernelCase.Arg a : k.args()) {
            if (a instanceof KernelCase.Buffer b && b.output()) {
                outputs.put(b.name(), launch.arguments().get(i).buffer().orElseThrow().bytes());
            }
            i++;
        }
        return r;
    }

    @ParameterizedTest
    @CsvSource({"saxpy, sm_75", "saxpy, sm_90", "constant_mem, sm_75", "constant_mem, sm_90"})
    void committedCubinsReproduceTheReference(String kernel, String sm, @TempDir Path dir) throws Exception {
        KernelCase k = KernelSuite.byName(kernel).orElseThrow();
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of(sm), cubin(kernel, sm));
        Map<String, byte[]> out = new LinkedHashMap<>();
        LaunchResult r = run(emu, k, sm, dir, out);
        assertTrue(r.fault().isEmpty(), () -> r.fault().get().describe());
        assertEquals(List.of(), k.compare(out, 3));
        assertTrue(emu.classesSeen().stream().noneMatch(c -> c.startsWith(SassListing.UNKNOWN)), emu.classesSeen().toString());
        assertTrue(emu.hazards().unavailable().isEmpty(), emu.hazards().toString());
    }

    /** Bits the decoder does not know stop the run at their address, by name; nothing is guessed. */
    @Test
    void undecodableWordStopsTheRunByAddress(@TempDir Path dir) throws Exception {
        byte[] bytes = cubin("saxpy", "sm_90");
        org.jptxas.cubin.Cubin c = org.jptxas.cubin.Cubin.read(bytes);
        org.jptxas.cubin.Section text = c.section(".text.saxpy").orElseThrow();
        byte[] code = text.data().clone();
        // The second instruction's opcode bits [11:0] set to a value no form has.
        code[16] = (byte) 0xff;
        code[17] = (byte) (code[17] | 0x0f);
        org.jptxas.cubin.Cubin broken = c.withSection(c.sectionIndex(".text.saxpy"), text.withData(code));
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of("sm_90"), broken.write());
        assertTrue(emu.classesSeen().contains(SassListing.UNKNOWN), emu.classesSeen().toString());
        LaunchResult r = run(emu, KernelSuite.byName("saxpy").orElseThrow(), "sm_90", dir, new LinkedHashMap<>());
        Fault.Unimplemented u = assertInstanceOf(Fault.Unimplemented.class, r.fault().orElseThrow());
        assertTrue(u.name().startsWith("UNKNOWN"), u.name());
        assertTrue(u.instruction().startsWith("0x0010 (UNKNOWN 0x"), u.instruction());
    }
}
