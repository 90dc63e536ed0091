package org.jptxas.cli;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * Writes an output file completely or not at all: a temporary file beside it, then a rename. The file gets the
 * permissions of the one it replaces, else rw-r--r-- as ptxas's output gets under the usual umask (a temporary file
 * is created owner-only).
 */
final class AtomicFiles {
    private AtomicFiles() {}

    static void write(Path target, byte[] bytes) throws IOException {
        Path absolute = target.toAbsolutePath();
        Path dir = absolute.getParent();
        Path tmp = Files.createTempFile(dir, "." + absolute.getFileName() + ".", ".tmp");
        try {
            Files.write(tmp, bytes);
            if (Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(tmp, Files.exists(absolute) ? Files.getPosixFilePermissions(absolute)
                        : PosixFilePermissions.fromString("rw-r--r--"));
            }
            try {
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, absolute, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }
}
