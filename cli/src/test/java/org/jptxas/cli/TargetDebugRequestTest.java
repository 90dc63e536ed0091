package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompileRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A PTX module whose {@code .target} lists {@code debug} is compiled as with {@code -g} (ptxas 13's rule) also for a
 * caller that builds the backend request itself with ptxas's default options: its code is the command line's
 * {@code -g} code, and not the {@code -O3} code.
 */
class TargetDebugRequestTest {
    @TempDir
    Path dir;

    @Test
    void targetDebugCompilesAsDashGWithDefaultOptions() throws Exception {
        String saxpy = Files.readString(Path.of("../examples/saxpy.ptx"));
        String debug = saxpy.replace(".target sm_75", ".target sm_80, debug") + "\t.section\t.debug_abbrev\n\t{\n.b8 0\n\t}\n";
        Files.writeString(dir.resolve("plain.ptx"), debug.replace(".target sm_80, debug", ".target sm_80"));
        Files.writeString(dir.resolve("debug.ptx"), debug);
        Target target = Target.of("sm_80");
        OriModule module = TestFrontEnds.of(target).check("debug.ptx", debug).lower();
        CompileRequest request = new CompileRequest(module, target, CompileOptions.defaults());
        assertTrue(request.options().debug(), "the request compiles as -g");
        assertEquals(0, request.options().optLevel(), "-g code is unoptimized");
        String ours = BackendRegistry.discover(getClass().getClassLoader()).forTarget(target).compile(request).sass();

        CliRun g = CliRun.run(dir, "-arch=sm_80", "-g", "plain.ptx", "-o", "g.cubin", "--out-sass", "g.sass");
        CliRun o3 = CliRun.run(dir, "-arch=sm_80", "plain.ptx", "-o", "o3.cubin", "--out-sass", "o3.sass");
        assertEquals(0, g.exitCode(), g.err());
        assertEquals(0, o3.exitCode(), o3.err());
        assertEquals(Files.readString(dir.resolve("g.sass")), ours);
        assertNotEquals(Files.readString(dir.resolve("o3.sass")), ours);
    }

    @Test
    void aTargetWithoutDebugKeepsTheCallersOptions() throws Exception {
        Target target = Target.of("sm_80");
        OriModule module = TestFrontEnds.of(target).check("plain.ptx", ".version 8.0\n.target sm_80\n"
                + ".address_size 64\n.visible .entry k()\n{\nret;\n}\n").lower();
        CompileRequest request = new CompileRequest(module, target, CompileOptions.defaults());
        assertEquals(CompileOptions.defaults(), request.options());
    }
}
