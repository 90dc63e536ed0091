package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A failed run leaves no output at all, and a run that cannot write says so in one line (issue 22): the cubin and
 * {@code --out-sass} are written together or not at all; no temporary file is left behind.
 */
class OutputFilesTest {
    @TempDir
    Path dir;

    @BeforeEach
    void example() throws IOException {
        Files.copy(RepoRoot.find().orElseThrow().resolve("examples/saxpy.ptx"), dir.resolve("k.ptx"));
    }

    private List<String> files() throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
        }
    }

    private static void assertOneFatalLine(CliRun r, String expected) {
        assertEquals(255, r.exitCode(), r.err());
        assertEquals("jptxas fatal   : " + expected + System.lineSeparator(), r.err());
    }

    @Test
    void sassIntoAMissingFolderWritesNoCubin() throws IOException {
        CliRun r = CliRun.run(dir, "-arch=sm_80", "k.ptx", "-o", "k.cubin", "--out-sass", "no/such/k.sass");
        assertOneFatalLine(r, "Output file 'no/such/k.sass' could not be opened");
        assertEquals(List.of("k.ptx"), files());
    }

    @Test
    void aFailedRunKeepsTheOldOutputs() throws IOException {
        byte[] old = {1, 2, 3};
        Files.write(dir.resolve("k.cubin"), old);
        CliRun r = CliRun.run(dir, "-arch=sm_80", "k.ptx", "-o", "k.cubin", "--out-sass", "k.ptx/k.sass");
        assertOneFatalLine(r, "Output file 'k.ptx/k.sass' could not be opened");
        assertArrayEquals(old, Files.readAllBytes(dir.resolve("k.cubin")));
        assertEquals(List.of("k.cubin", "k.ptx"), files());
    }

    @Test
    void anOutputUnderAFileIsOneLine() throws IOException {
        assertOneFatalLine(CliRun.run(dir, "-arch=sm_80", "k.ptx", "-o", "k.ptx/x.cubin"),
                "Output file 'k.ptx/x.cubin' could not be opened");
        assertOneFatalLine(CliRun.run(dir, "-arch=sm_80", "k.ptx", "-o", "missing/x.cubin"),
                "Output file 'missing/x.cubin' could not be opened");
        assertEquals(List.of("k.ptx"), files());
    }

    @Test
    void bothOutputsAreWrittenWhenBothCan() throws IOException {
        CliRun r = CliRun.run(dir, "-arch=sm_80", "k.ptx", "-o", "k.cubin", "--out-sass", "k.sass");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals(List.of("k.cubin", "k.ptx", "k.sass"), files());
        assertTrue(Files.readString(dir.resolve("k.sass")).contains("EXIT"));
    }

    @Test
    void theCubinIsTheSameWhetherTheSassTextIsAskedForOrNot() throws IOException {
        // the backend renders its SASS text only for --out-sass; the cubin must not depend on it
        CliRun plain = CliRun.run(dir, "-arch=sm_80", "k.ptx", "-o", "a.cubin");
        CliRun listed = CliRun.run(dir, "-arch=sm_80", "k.ptx", "-o", "b.cubin", "--out-sass", "b.sass");
        assertEquals(0, plain.exitCode(), plain.err());
        assertEquals(0, listed.exitCode(), listed.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a.cubin")), Files.readAllBytes(dir.resolve("b.cubin")));
        assertTrue(Files.readString(dir.resolve("b.sass")).contains("EXIT"));
    }

    @Test
    void aTransactionAbandonedBeforeCommitLeavesNothing() throws IOException {
        AtomicFiles.Transaction t = new AtomicFiles.Transaction();
        t.stage(dir.resolve("a.bin"), new byte[] {1});
        assertThrows(IOException.class, () -> t.stage(dir.resolve("none/b.bin"), new byte[] {2}));
        t.abandon();
        assertFalse(Files.exists(dir.resolve("a.bin")));
        assertEquals(List.of("k.ptx"), files());
    }
}
