package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JptxasCommandTest {
    @TempDir
    Path dir;

    private CliRun run(String... args) {
        return CliRun.run(dir, args);
    }

    private static void assertOneFatalLine(CliRun r, String expected) {
        assertEquals(255, r.exitCode());
        assertEquals("", r.out());
        assertEquals("jptxas fatal   : " + expected + System.lineSeparator(), r.err());
    }

    @Test
    void versionAndHelpExitZero() {
        CliRun v = run("--version");
        assertEquals(0, v.exitCode());
        assertTrue(v.out().startsWith("jptxas: an open PTX optimizing assembler, version "), v.out());
        CliRun h = run("--help");
        assertEquals(0, h.exitCode());
        for (String opt : List.of("--gpu-name", "-arch", "--output-file", "--opt-level", "--maxrregcount",
                "--compile-only", "-lineinfo", "--warn-on-spills", "--list-targets", "--syntax-only")) {
            assertTrue(h.out().contains(opt), opt);
        }
        assertEquals(h.out(), run().out(), "no arguments prints the usage, as ptxas does");
    }

    @Test
    void listTargetsShowsEveryTargetWithItsModuleAndWhetherItGeneratesCode() {
        CliRun r = run("--list-targets");
        assertEquals(0, r.exitCode(), r.err());
        String[][] expected = {
            {"sm_50", "backend-sm50"}, {"sm_52", "backend-sm50"}, {"sm_53", "backend-sm50"}, {"sm_60", "backend-sm50"},
            {"sm_61", "backend-sm50"}, {"sm_62", "backend-sm50"}, {"sm_70", "backend-sm50"}, {"sm_72", "backend-sm50"},
            {"sm_75", "backend-sm75"}, {"sm_80", "backend-sm80"}, {"sm_86", "backend-sm80"}, {"sm_87", "backend-sm80"},
            {"sm_88", "backend-sm80"}, {"sm_89", "backend-sm89-90"}, {"sm_90", "backend-sm89-90"},
            {"sm_90a", "backend-sm89-90"}, {"sm_100", "backend-sm100"}, {"sm_100a", "backend-sm100"},
            {"sm_100f", "backend-sm100"}, {"sm_101", "backend-sm100"}, {"sm_103", "backend-sm100"},
            {"sm_103a", "backend-sm100"}, {"sm_110", "backend-sm100"}, {"sm_120", "backend-sm100"},
            {"sm_120a", "backend-sm100"}, {"sm_121", "backend-sm100"}, {"sm_121f", "backend-sm100"}};
        java.util.Set<String> codegen = java.util.Set.of("sm_70", "sm_72", "sm_75", "sm_80", "sm_86", "sm_87", "sm_88",
                "sm_89", "sm_90", "sm_90a");
        for (String[] e : expected) {
            // Blackwell's backend generates code for each of its targets (first light: sm_100 and sm_120 compared)
            String yes = codegen.contains(e[0]) || e[1].equals("backend-sm100") ? "yes" : "no";
            assertTrue(r.out().lines().anyMatch(l -> l.matches(e[0] + " +" + yes + " +\\S+ +" + e[1] + " .*")),
                    e[0] + " (" + yes + ") with " + e[1] + " in\n" + r.out());
        }
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("sm_75 ") && l.endsWith("(default)")));
        assertFalse(r.out().contains("without an installed backend"), r.out());
    }

    @Test
    void unknownOptionIsOneFatalLine() {
        assertOneFatalLine(run("--no-such-option", "x.ptx"), "Unknown option '-no-such-option'");
        assertOneFatalLine(run("-foo", "x.ptx"), "Unknown option 'foo'");
    }

    @Test
    void missingInputIsReportedLikePtxas() {
        CliRun r = run("missing.ptx");
        assertOneFatalLine(r, "Input file 'missing.ptx' could not be opened");
        assertFalse(Files.exists(dir.resolve("elf.o")));
    }

    @Test
    void badOptionValuesAreRefusedByName() {
        assertOneFatalLine(run("-arch=sm_999", "k.ptx"), "Value 'sm_999' is not defined for option 'gpu-name'");
        assertOneFatalLine(run("-arch", "bogus", "k.ptx"), "Value 'bogus' is not defined for option 'gpu-name'");
        assertOneFatalLine(run("-m32", "k.ptx"), "Value '32' is not defined for option 'machine'");
        assertOneFatalLine(run("--maxrregcount=abc", "k.ptx"), "Invalid value 'abc' for option 'maxrregcount'");
        assertOneFatalLine(run("-Ox", "k.ptx"), "'x': expected a number");
        assertOneFatalLine(run("-arch"), "argument expected after '-arch'");
        assertOneFatalLine(run("-arch=sm_80"), "No input files specified");
    }

    @Test
    void unsupportedPtxasOptionsAreRefusedByNameAndHarmlessOnesAccepted() {
        assertOneFatalLine(run("--sanitize", "memcheck", "k.ptx"), "Option '--sanitize' is not supported yet by jptxas");
        assertOneFatalLine(run("-dlcm=cg", "k.ptx"), "Option '--def-load-cache cg' is not supported yet by jptxas");
        // Accepted options go on to the input stage, which fails on the missing file, not on the option.
        CliRun r = run("-arch", "sm_80", "-O3", "-m64", "-lineinfo", "-w", "--fmad=false", "-split-compile", "0",
                "-allow-expensive-optimizations", "true", "-suppress-stack-size-warning", "missing.ptx");
        assertTrue(r.err().startsWith("jptxas fatal   : Input file 'missing.ptx' could not be opened"), r.err());
    }

    @Test
    void optionsFileIsExpanded() throws IOException {
        Files.writeString(dir.resolve("opts"), "-arch=sm_999 \"k.ptx\"\n");
        assertOneFatalLine(run("-optf", "opts"), "Value 'sm_999' is not defined for option 'gpu-name'");
        assertOneFatalLine(run("--options-file=none"), "Options file 'none' could not be opened");
        assertEquals(List.of("a b", "c", "d"), OptionsFiles.tokenize(" 'a b'  c\n\td "));
    }

    @Test
    void virtualArchitectureNamesAreAccepted() {
        CliRun r = run("-arch=compute_90", "missing.ptx");
        assertTrue(r.err().startsWith("jptxas fatal   : Input file 'missing.ptx' could not be opened"), r.err());
        CliRun lto = run("-arch=lto_999", "missing.ptx");
        assertEquals("jptxas fatal   : Value 'lto_999' is not defined for option 'gpu-name'", lto.err().strip());
    }

    @Test
    void outputIsNeverWrittenOnError() throws IOException {
        Path ptx = dir.resolve("bad.ptx");
        Files.write(ptx, new byte[] {0, 1, 2, (byte) 0xff, '\n', '{', '{'});
        CliRun r = run("-arch=sm_80", "-o", "out.cubin", "bad.ptx");
        assertEquals(255, r.exitCode());
        assertFalse(r.err().contains("Exception"), r.err());
        assertFalse(Files.exists(dir.resolve("out.cubin")));
        try (var files = Files.list(dir)) {
            assertEquals(List.of("bad.ptx"), files.map(p -> p.getFileName().toString()).toList());
        }
    }
}
