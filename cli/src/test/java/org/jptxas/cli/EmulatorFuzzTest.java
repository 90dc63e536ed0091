package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFormatException;
import org.jptxas.cubin.Section;
import org.jptxas.spi.TargetDescription;
import org.jptxas.spi.TestTargets;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.LaunchSpecException;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.SassEmulator;
import org.junit.jupiter.api.Timeout;

/**
 * The SASS emulator's fuzz target (issue 22, beside {@link ReliabilityFuzzTest}'s): random code words in place of a
 * compiled kernel's code, decoded and run for at most 20,000 warp instructions. Allowed: the launch completes, or it
 * ends in a {@link LaunchException} that says why (a fault, an instruction the emulator does not implement).
 */
class EmulatorFuzzTest {
    /**
     * saxpy compiled by jptxas for sm_80: the random words replace its code. Compiled when the class loads, before
     * the fuzzer's clock runs (the first compile loads every table, slow under coverage instrumentation).
     */
    private static final byte[] BASE_CUBIN;
    /** sm_80's description (its SASS tables and latency model), read when the class loads, as the cubin is. */
    private static final TargetDescription SM80 = TestTargets.of("sm_80");

    static {
        try {
            BASE_CUBIN = compileBase();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] compileBase() throws IOException {
        Path dir = Files.createTempDirectory("jptxas-fuzz-base");
        Files.copy(ReliabilityFuzzTest.SUITE.resolve("saxpy/saxpy.ptx"), dir.resolve("k.ptx"));
        int rc = new JptxasCommand(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()), Map.of(),
                null, dir).run(new String[] {"-arch=sm_80", "k.ptx", "-o", "k.cubin"});
        assertEquals(0, rc);
        byte[] cubin = Files.readAllBytes(dir.resolve("k.cubin"));
        Files.delete(dir.resolve("k.cubin"));
        Files.delete(dir.resolve("k.ptx"));
        Files.delete(dir);
        return cubin;
    }

    @FuzzTest(maxDuration = "60s")
    @Timeout(30)
    void emulator(byte[] words) throws IOException, LaunchSpecException {
        Cubin base = Cubin.read(BASE_CUBIN);
        int text = -1;
        for (int i = 0; i < base.sections().size(); i++) {
            if (base.sections().get(i).isText()) {
                text = i;
            }
        }
        Section code = base.sections().get(text);
        byte[] bytes = code.data();
        // the fuzz input replaces the code from its start; the rest keeps saxpy's instructions
        System.arraycopy(words, 0, bytes, 0, Math.min(words.length, bytes.length) & ~15);
        Section patched = new Section(code.name(), code.nameOffset(), code.type(), code.flags(), code.addr(),
                code.size(), code.link(), code.info(), code.addralign(), code.entsize(), bytes);
        byte[] cubin = base.withSection(text, patched).write();
        LaunchSpec spec = LaunchSpecReader.read(ReliabilityFuzzTest.SUITE.resolve("saxpy/launch.json"));
        SassEmulator emulator;
        try {
            emulator = SassEmulator.fromCubin(SM80, cubin);
        } catch (CubinFormatException e) {
            return;
        }
        try {
            emulator.execute(Launch.prepare(Target.of("sm_80"), spec), new ExecutionLimits(20_000, 4096));
        } catch (LaunchException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "a fault without a description");
        }
    }
}
