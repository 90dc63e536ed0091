package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.cubin.Cubin;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several inputs with {@code .loc} in one run, as ptxas 13 handles them: one {@code .file} index space (an index an
 * earlier input declared is an error, at the line after the directive), one {@code .debug_line} for every input's
 * functions, and the PTX text of the last input only in {@code .nv_debug_ptx_txt}.
 */
class MultiInputLineInfoTest {
    @TempDir
    Path dir;

    private static String kernel(String name, String files, int file, String special) {
        return ".version 8.0\n.target sm_80\n.address_size 64\n" + files + "\n"
                + ".visible .entry " + name + "(.param .u64 p)\n{\n.reg .b64 %rd<4>;\n.reg .b32 %r<4>;\n"
                + ".loc " + file + " 20 1\nld.param.u64 %rd1, [p];\ncvta.to.global.u64 %rd2, %rd1;\n"
                + ".loc 2 21 1\nmov.u32 %r1, " + special + ";\n"
                + ".loc " + file + " 22 1\nst.global.u32 [%rd2], %r1;\n.loc " + file + " 23 1\nret;\n}\n";
    }

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text);
        return p;
    }

    private Path a() throws Exception {
        return write("a.ptx", kernel("ka", ".file 1 \"/src/a.cu\"\n.file 2 \"/src/a.h\"", 1, "%tid.x"));
    }

    private Path b() throws Exception {
        // index 4 before 3: the line table lists files by index
        return write("b.ptx", kernel("kb", ".file 4 \"/src/b.cu\"\n.file 3 \"/src/b.h\"", 4, "%ctaid.x")
                .replace(".loc 2 21", ".loc 3 21"));
    }

    private static byte[] section(Path cubin, String name) throws Exception {
        return Cubin.read(Files.readAllBytes(cubin)).section(name).orElseThrow(() -> new AssertionError(name)).data();
    }

    @Test
    void aFileIndexAnEarlierInputDeclaredIsAnError() throws Exception {
        Path b1 = write("b1.ptx", kernel("kb", ".file 1 \"/src/b.cu\"\n.file 2 \"/src/b.h\"", 1, "%ctaid.x"));
        CliRun r = CliRun.run(dir, "-arch=sm_80", "-lineinfo", a().toString(), b1.toString(), "-o", "x.cubin");
        // ptxas 13 word for word: each at the line of the item after the .file
        assertEquals(255, r.exitCode(), r.err());
        assertEquals(List.of("jptxas " + b1 + ", line 5; error   : Duplicate file index #1",
                "jptxas " + b1 + ", line 6; error   : Duplicate file index #2",
                "jptxas fatal   : Ptx assembly aborted due to errors"), r.err().lines().toList());
        assertTrue(Files.notExists(dir.resolve("x.cubin")));
    }

    @Test
    void oneLineTableForAllInputsAndThePtxTextOfTheLast() throws Exception {
        Path ab = dir.resolve("ab.cubin");
        CliRun r = CliRun.run(dir, "-arch=sm_80", "-lineinfo", a().toString(), b().toString(), "-o", ab.toString());
        assertEquals(0, r.exitCode(), r.err());
        Path onlyB = dir.resolve("b.cubin");
        assertEquals(0, CliRun.run(dir, "-arch=sm_80", "-lineinfo", b().toString(), "-o", onlyB.toString()).exitCode());
        assertArrayEquals(section(onlyB, ".nv_debug_ptx_txt"), section(ab, ".nv_debug_ptx_txt"));
        String table = new String(section(ab, ".debug_line"), java.nio.charset.StandardCharsets.ISO_8859_1);
        // the file names in index order: a.cu (1), a.h (2), b.h (3), b.cu (4)
        int acu = table.indexOf("a.cu\0");
        int ah = table.indexOf("a.h\0");
        int bh = table.indexOf("b.h\0");
        int bcu = table.indexOf("b.cu\0");
        assertTrue(0 < acu && acu < ah && ah < bh && bh < bcu, table);
        assertTrue(section(ab, ".nv_debug_line_sass").length > 0);
    }

    /**
     * nvdisasm -g on both cubins annotates the same source lines for the last input's function, and the embedded PTX
     * text is ptxas's. ptxas 13's rows for the earlier inputs' functions name files of other inputs (here ka's lines
     * show as b.cu's and b.h's; which file a row names depends on the inputs' order in ways not worked out), where
     * jptxas's rows name the {@code .file} the {@code .loc} does: those functions are checked against their own
     * source lines.
     */
    @Test
    void annotatesTheLinesPtxasDoes() throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path ptxas = Oracles.assumePtxas13();
        Path ours = dir.resolve("ours.cubin");
        Path theirs = dir.resolve("theirs.cubin");
        for (String arch : List.of("sm_80", "sm_90")) {
            CliRun r = CliRun.run(dir, "-arch=" + arch, "-lineinfo", a().toString(), b().toString(), "-o",
                    ours.toString());
            assertEquals(0, r.exitCode(), r.err());
            Processes.Result p = Processes.run(List.of(ptxas.toString(), "-arch=" + arch, "-lineinfo", a().toString(),
                    b().toString(), "-o", theirs.toString()), dir);
            assertEquals(0, p.exitCode(), p.stderr());
            Map<String, Set<String>> expected = lines(nvdisasm, theirs);
            Map<String, Set<String>> actual = lines(nvdisasm, ours);
            assertEquals(Set.of("/src/b.cu:20", "/src/b.h:21", "/src/b.cu:22", "/src/b.cu:23"), expected.get("kb"));
            assertEquals(expected.get("kb"), actual.get("kb"), arch);
            assertEquals(Set.of("/src/a.cu:20", "/src/a.h:21", "/src/a.cu:22", "/src/a.cu:23"), actual.get("ka"), arch);
            assertArrayEquals(section(theirs, ".nv_debug_ptx_txt"), section(ours, ".nv_debug_ptx_txt"), arch);
            // the same file table, byte for byte (header up to the end of the file names)
            byte[] t = section(theirs, ".debug_line");
            byte[] o = section(ours, ".debug_line");
            int headerEnd = 10 + (t[6] & 0xff) + ((t[7] & 0xff) << 8);
            assertArrayEquals(java.util.Arrays.copyOfRange(t, 4, headerEnd), java.util.Arrays.copyOfRange(o, 4, headerEnd),
                    arch);
        }
    }

    private static Map<String, Set<String>> lines(Path nvdisasm, Path cubin) {
        Processes.Result g = OracleToolRuns.run(nvdisasm, List.of("-g"), cubin, cubin.getParent(), true);
        assertEquals(0, g.exitCode(), g.stderr());
        return LineInfoGate.annotatedLines(g.stdout());
    }
}
