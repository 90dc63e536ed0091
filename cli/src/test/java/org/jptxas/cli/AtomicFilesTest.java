package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AtomicFilesTest {
    @TempDir
    Path dir;

    @Test
    void replacesWholeFileAndLeavesNoTemporary() throws IOException {
        Path out = dir.resolve("k.cubin");
        Files.write(out, new byte[] {9, 9, 9, 9, 9});
        AtomicFiles.write(out, new byte[] {1, 2});
        assertArrayEquals(new byte[] {1, 2}, Files.readAllBytes(out));
        try (var files = Files.list(dir)) {
            assertEquals(List.of("k.cubin"), files.map(p -> p.getFileName().toString()).toList());
        }
    }

    @Test
    void newFilesAreWorldReadableAndReplacedFilesKeepTheirPermissions() throws IOException {
        Assumptions.assumeTrue(Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class));
        Path fresh = dir.resolve("new.cubin");
        AtomicFiles.write(fresh, new byte[] {1});
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(fresh)));
        Path kept = dir.resolve("kept.cubin");
        Files.write(kept, new byte[] {0});
        Files.setPosixFilePermissions(kept, PosixFilePermissions.fromString("rw-rw----"));
        AtomicFiles.write(kept, new byte[] {1});
        assertEquals("rw-rw----", PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)));
    }

    @Test
    void missingFolderFailsWithoutPartialOutput() {
        assertThrows(IOException.class, () -> AtomicFiles.write(dir.resolve("no/such/k.cubin"), new byte[] {1}));
    }
}
