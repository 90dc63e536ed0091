package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinBuilder;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.cubin.dump.ElfDump;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JcuobjdumpCommandTest {
    @TempDir
    Path dir;

    private record Run(int exitCode, String out, String err) {}

    private Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new JcuobjdumpCommand(new PrintWriter(out), new PrintWriter(err), dir).run(args);
        return new Run(rc, out.toString(), err.toString());
    }

    private Path cubin(String name) throws IOException {
        byte[] code = new byte[256];
        FunctionFacts k = new FunctionFacts("k", true, code, 8, 0, 0, 0, 64,
                List.of(new FunctionFacts.Param(0, 0, 8)), 8, 1, new int[] {0x10}, OptionalInt.empty(), 255, List.of(), List.of());
        Path p = dir.resolve(name);
        Files.write(p, new CubinBuilder(90, false).add(k).build().write());
        return p;
    }

    private static void assertOneFatalLine(Run r, String expectedStart) {
        assertEquals(255, r.exitCode());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("jcuobjdump fatal   : " + expectedStart), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void elfPrintsTheModelDump() throws IOException {
        Path p = cubin("k.cubin");
        Run r = run("-elf", "k.cubin");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(ElfDump.print(Cubin.read(Files.readAllBytes(p))), r.out());
        assertTrue(r.out().contains("EIATTR_PARAM_CBANK"), r.out());
    }

    @Test
    void sassListsEveryInstruction() throws IOException {
        cubin("k.cubin");
        Run r = run("-sass", "k.cubin");
        assertEquals(0, r.exitCode(), r.err());
        assertTrue(r.out().contains("\t\tFunction : k\n"), r.out());
        assertEquals(16, r.out().lines().filter(l -> l.startsWith("        /*")).count(), r.out());
    }

    @Test
    void rewriteIsByteIdentical() throws IOException {
        Path p = cubin("k.cubin");
        Run r = run("--rewrite", "out.cubin", "k.cubin");
        assertEquals(0, r.exitCode(), r.err());
        assertArrayEquals(Files.readAllBytes(p), Files.readAllBytes(dir.resolve("out.cubin")));
    }

    @Test
    void malformedInputIsOneLineAndNoOutputFile() throws IOException {
        byte[] bytes = Files.readAllBytes(cubin("k.cubin"));
        Files.write(dir.resolve("cut.cubin"), Arrays.copyOf(bytes, 200));
        assertOneFatalLine(run("--rewrite", "out.cubin", "cut.cubin"), "Malformed cubin 'cut.cubin': ");
        assertFalse(Files.exists(dir.resolve("out.cubin")));
        Files.writeString(dir.resolve("text.cubin"), "hello");
        assertOneFatalLine(run("-elf", "text.cubin"), "Malformed cubin 'text.cubin': not an ELF file");
    }

    @Test
    void corruptedCubinsNeverEscapeAsExceptions() throws IOException {
        byte[] bytes = Files.readAllBytes(cubin("k.cubin"));
        java.util.SplittableRandom random = new java.util.SplittableRandom(7);
        int refused = 0;
        for (int n = 0; n < 300; n++) {
            byte[] copy = n % 3 == 0 ? Arrays.copyOf(bytes, random.nextInt(bytes.length)) : bytes.clone();
            for (int f = 0; f < 1 + random.nextInt(3) && copy.length > 0; f++) {
                copy[random.nextInt(copy.length)] ^= (byte) (1 << random.nextInt(8));
            }
            Files.write(dir.resolve("bad.cubin"), copy);
            Run r = run("-elf", "bad.cubin");
            if (r.exitCode() != 0) {
                refused++;
                assertEquals(255, r.exitCode());
                assertEquals(1, r.err().lines().count(), r.err());
                assertFalse(r.err().contains("internal error"), "case " + n + ": " + r.err());
            }
        }
        // the damage must reach the reader: some copies are refused (the rest read as other valid cubins)
        assertTrue(refused > 0, "no damaged cubin was refused");
    }

    @Test
    void usageErrors() throws IOException {
        assertOneFatalLine(run("-elf", "missing.cubin"), "Could not open input file 'missing.cubin'");
        assertOneFatalLine(run(), "No input file specified");
        assertOneFatalLine(run("--bogus", "x"), "Unknown option");
        cubin("a.cubin");
        cubin("b.cubin");
        assertOneFatalLine(run("--rewrite", "o.cubin", "a.cubin", "b.cubin"), "--rewrite takes exactly one input file");
        Files.write(dir.resolve("b52.cubin"), new CubinBuilder(52, false).build().write());
        assertOneFatalLine(run("-sass", "b52.cubin"), "disassembly of sm_52 code is not supported (the installed backends have SASS tables for sm_70, sm_72, sm_75");
    }
}
