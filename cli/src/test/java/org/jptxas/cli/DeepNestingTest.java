package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Divergent ifs nested deeper than the 16 convergence barriers (issue 22's nesting shape): the regions past the
 * sixteenth re-join at an enclosing barrier. Nested 16 deep or more, every kernel failed with "Internal compiler
 * error: convergence barrier B16 out of range" (the register for indirect calls was made even without a call).
 */
class DeepNestingTest {
    @TempDir
    Path dir;

    @Test
    void ifsNestedFortyDeepCompile() throws Exception {
        Files.writeString(dir.resolve("k.ptx"), ScalingBenchmark.generate("nesting", 40));
        for (String sm : new String[] {"sm_80", "sm_86", "sm_90"}) {
            CliRun r = CliRun.run(dir, "-arch=" + sm, "k.ptx", "-o", "k.cubin");
            assertEquals(0, r.exitCode(), sm + ": " + r.err());
        }
    }
}
