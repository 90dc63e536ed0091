package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --syntax-only}: parse and check, exit 0 or print every diagnostic; compiling stops after the checks. */
class SyntaxOnlyTest {
    private static final String GOOD = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\nld.param.u64 %rd1, [p];\nret;\n}\n";
    private static final String BAD = ".version 8.0\n.target sm_90\n.address_size 64\n"
            + ".visible .entry k()\n{\n.reg .b32 %r<3>;\nmov.b32 %r1, %q;\nmov.b32 %r1, %z;\nret;\n}\n";

    @TempDir
    Path dir;

    private CliRun run(String name, String text, String... args) throws IOException {
        Files.writeString(dir.resolve(name), text);
        return CliRun.run(dir, args);
    }

    @Test
    void goodFileExitsZeroSilently() throws IOException {
        CliRun r = run("k.ptx", GOOD, "--syntax-only", "-arch", "sm_90", "k.ptx");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        assertEquals("", r.out());
    }

    @Test
    void everyErrorIsPrintedInPtxassFormat() throws IOException {
        CliRun r = run("bad.ptx", BAD, "--syntax-only", "-arch=sm_90", "bad.ptx");
        assertEquals(255, r.exitCode());
        String nl = System.lineSeparator();
        assertEquals("jptxas bad.ptx, line 7; error   : Unknown symbol '%q'" + nl
                + "jptxas bad.ptx, line 8; error   : Unknown symbol '%z'" + nl
                + "jptxas fatal   : Ptx assembly aborted due to errors" + nl, r.err());
    }

    @Test
    void compilingAValidFileStopsAtCodeGenerationWithoutOutput() throws IOException {
        // an instruction code generation does not handle yet (the trivial GOOD kernel compiles now)
        String unsupported = GOOD.replace("ret;",
                ".reg .b32 %nr<4>;\nvadd.u32.u32.u32 %nr1, %nr2.b1, %nr3;\nret;");
        CliRun r = run("k.ptx", unsupported, "-arch=sm_90", "k.ptx", "-o", "k.cubin");
        assertEquals(255, r.exitCode());
        assertTrue(r.err().contains("Instruction 'vadd.u32.u32.u32' not yet supported"), r.err());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(dir.resolve("k.cubin")));
    }
}
