package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;

/**
 * Linked executables: {@code linked_main.ptx}'s kernel calls {@code mix}, an {@code .extern .func} defined in
 * {@code linked_lib.ptx} (which calls {@code hash}, a function of its own file). Both files compiled by ptxas 13
 * with {@code -c} and linked by nvlink (13 from PATH; skipped without ptxas or nvlink): the calls are
 * {@code CALL.ABS.NOINC} into other {@code .text} sections and the returns {@code RET.ABS.NODEC}, addresses the
 * driver resolves at load time. The emulator lays the module out, applies those relocations and must reproduce the
 * CPU reference; the unlinked object stops by name at its unresolved call.
 */
class LinkedCallTest {
    static final int N = 100;

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void linkedCubinCallsAcrossSections(String arch, @org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        Path nvlink = Oracles.assumeNvlink13();
        for (String name : List.of("linked_main", "linked_lib")) {
            Files.writeString(dir.resolve(name + ".ptx"), resource(name + ".ptx").replace(".target sm_75", ".target " + arch));
            run(dir, ptxas.toString(), "-arch=" + arch, "-c", name + ".ptx", "-o", name + ".o");
        }
        run(dir, nvlink.toString(), "-arch=" + arch, "linked_main.o", "linked_lib.o", "-o", "linked.cubin");
        Path spec = writeLaunch(dir);

        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of(arch), Files.readAllBytes(dir.resolve("linked.cubin")))
                .withStrictConvergence(true);
        Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(spec));
        LaunchResult r = emu.execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertArrayEquals(reference(), launch.arguments().get(1).buffer().orElseThrow().bytes(), arch);
        assertTrue(emu.classesExecuted().stream().anyMatch(c -> c.startsWith("CALL.ABS")), emu.classesExecuted().toString());
        assertTrue(emu.classesExecuted().stream().anyMatch(c -> c.startsWith("RET.ABS")), emu.classesExecuted().toString());

        // The object before linking: its call has no address yet, which stops the run by name.
        SassEmulator unlinked = SassEmulator.fromCubin(TestTargets.of(arch), Files.readAllBytes(dir.resolve("linked_main.o")));
        LaunchResult u = unlinked.execute(Launch.prepare(Target.of(arch), LaunchSpecReader.read(spec)), ExecutionLimits.DEFAULT);
        assertTrue(u.fault().orElseThrow() instanceof Fault.Unimplemented f && f.name().startsWith("CALL.ABS"),
                () -> u.fault().map(Fault::describe).orElse("completed"));
    }

    /** out[i] = mix(in[i], i) + 1 for i < N; 0 beyond. */
    static byte[] reference() {
        ByteBuffer out = ByteBuffer.allocate(4 * 128).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < N; i++) {
            int y = i, h = input(i) ^ y;
            h *= -1640531535;
            if ((h & 1) != 0) {
                h = (h >>> 3) ^ y;
            }
            out.putInt(4 * i, h + 7 + 1);
        }
        return out.array();
    }

    static int input(int i) {
        return i * 0x9e3779b9 + 0x1234567;
    }

    static Path writeLaunch(Path dir) throws IOException {
        ByteBuffer in = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < N; i++) {
            in.putInt(input(i));
        }
        Files.write(dir.resolve("in.bin"), in.array());
        Path spec = dir.resolve("launch.json");
        Files.writeString(spec, "{\"entry\":\"linked_main\",\"grid\":[2,1,1],\"block\":[64,1,1],\"params\":["
                + "{\"type\":\"ptr\",\"bytes\":" + 4 * N + ",\"in\":\"in.bin\"},"
                + "{\"type\":\"ptr\",\"bytes\":512},{\"type\":\"u32\",\"value\":" + N + "}]}");
        return spec;
    }

    private static void run(Path dir, String... command) {
        Processes.Result r = Processes.run(List.of(command), dir);
        assertEquals(0, r.exitCode(), String.join(" ", command) + ": " + r.stdout() + r.stderr());
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = LinkedCallTest.class.getResourceAsStream("/link/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
