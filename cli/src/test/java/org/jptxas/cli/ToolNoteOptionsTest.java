package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Note;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The option string in {@code .note.nv.tkinfo} is ptxas 13's for the same command line (order and spacing), for the
 * options the code generator sees ({@code -lineinfo} among them, which profilers read there); ptxas's own cubin is
 * the reference. Not covered: {@code -v}, {@code -g} and an explicit {@code -O3} (see ModuleCodegen.recordedOptions).
 */
class ToolNoteOptionsTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"", "-lineinfo", "--generate-line-info -c", "-suppress-debug-info -lineinfo",
        "--warn-on-spills -maxrregcount=40 -lineinfo", "-O1", "-O0 -lineinfo", "--fmad=false -c",
        "--fmad=false -c -maxrregcount=40 -O2 -lineinfo -suppress-debug-info --warn-on-spills"})
    void optionsAreRecordedAsPtxasRecordsThem(String options) throws IOException {
        Path ptxas = Oracles.assumePtxas13();
        Path input = Path.of("../examples/saxpy.ptx").toAbsolutePath();
        List<String> args = new ArrayList<>(List.of("-arch=sm_80"));
        if (!options.isEmpty()) {
            args.addAll(Arrays.asList(options.split(" ")));
        }
        args.add(input.toString());
        List<String> theirs = new ArrayList<>(List.of(ptxas.toString()));
        theirs.addAll(args);
        theirs.addAll(List.of("-o", "p.cubin"));
        Processes.Result r = Processes.run(theirs, dir);
        assertEquals(0, r.exitCode(), r.stderr());
        List<String> ours = new ArrayList<>(args);
        ours.addAll(List.of("-o", "j.cubin"));
        CliRun run = CliRun.run(dir, ours.toArray(String[]::new));
        assertEquals(0, run.exitCode(), run.err());
        assertEquals(recorded(dir.resolve("p.cubin")), recorded(dir.resolve("j.cubin")), options);
    }

    /** The tool note's string that holds the options (the one with {@code -arch}). */
    static String recorded(Path cubin) throws IOException {
        Cubin c = Cubin.read(Files.readAllBytes(cubin));
        for (Note n : Note.decode(c.section(".note.nv.tkinfo").orElseThrow())) {
            for (String s : new String(n.descriptor(), StandardCharsets.ISO_8859_1).split("\0")) {
                if (s.contains("-arch ")) {
                    return s;
                }
            }
        }
        throw new AssertionError("no option string in " + cubin);
    }
}
