package org.jptxas.cli;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes output files completely or not at all: each to a temporary file beside it, then a rename. Several outputs of
 * one run (the cubin and {@code --out-sass}) are all written before any is renamed, so a run that cannot write one of
 * them leaves none. A file gets the permissions of the one it replaces, else rw-r--r-- as ptxas's output gets under
 * the usual umask (a temporary file is created owner-only). Temporary files of a process ended by a signal (SIGTERM,
 * SIGINT) are removed on the way out; after SIGKILL the old output is intact and a hidden {@code .NAME.*.tmp} may
 * remain.
 */
final class AtomicFiles {
    private AtomicFiles() {}

    /** Temporary files written and not yet renamed, by every thread (batch compilations run in parallel). */
    private static final Set<Path> IN_FLIGHT = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Path p : IN_FLIGHT) {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException | RuntimeException e) {
                    // best effort on the way out
                }
            }
        }, "jptxas-temporary-files"));
    }

    static void write(Path target, byte[] bytes) throws IOException {
        Transaction t = new Transaction();
        try {
            t.stage(target, bytes);
            t.commit();
        } finally {
            t.abandon();
        }
    }

    /** The file could be created but not written in full (a full disk, a quota): the reason, in the system's words. */
    static final class NotWritten extends IOException {
        private static final long serialVersionUID = 1L;

        NotWritten(IOException cause) {
            super(cause instanceof java.nio.file.FileSystemException f && f.getReason() != null ? f.getReason()
                    : String.valueOf(cause.getMessage()), cause);
        }
    }

    /** Outputs written together: {@link #stage} each (may throw), then {@link #commit}; {@link #abandon} always. */
    static final class Transaction {
        private record Staged(Path tmp, Path target) {}

        private final List<Staged> staged = new ArrayList<>();

        /** Writes {@code bytes} to a temporary file beside {@code target}; nothing visible changes yet. */
        void stage(Path target, byte[] bytes) throws IOException {
            Path absolute = target.toAbsolutePath();
            Path tmp = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName() + ".", ".tmp");
            IN_FLIGHT.add(tmp);
            staged.add(new Staged(tmp, absolute));
            try {
                Files.write(tmp, bytes);
            } catch (IOException e) {
                throw new NotWritten(e);
            }
            if (Files.getFileStore(tmp).supportsFileAttributeView(PosixFileAttributeView.class)) {
                Files.setPosixFilePermissions(tmp, Files.exists(absolute) ? Files.getPosixFilePermissions(absolute)
                        : PosixFilePermissions.fromString("rw-r--r--"));
            }
        }

        /** Renames every staged file onto its target. */
        void commit() throws IOException {
            for (Staged s : staged) {
                try {
                    Files.move(s.tmp(), s.target(), StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(s.tmp(), s.target(), StandardCopyOption.REPLACE_EXISTING);
                }
                IN_FLIGHT.remove(s.tmp());
            }
        }

        /** Deletes what was staged and not committed. */
        void abandon() {
            for (Staged s : staged) {
                try {
                    Files.deleteIfExists(s.tmp());
                } catch (IOException e) {
                    // nothing more to do: the target was not touched
                }
                IN_FLIGHT.remove(s.tmp());
            }
            staged.clear();
        }
    }
}
