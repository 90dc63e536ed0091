package org.jptxas.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.SourceLines;

/**
 * The modification time and size of each {@code .file} that does not give them, as ptxas writes them into
 * {@code .debug_line} when the file exists: looked up from the invocation's working directory, which in the compile
 * server is the caller's, not the server's own (the code generator would otherwise resolve a relative path against the
 * JVM's working directory). A file that does not exist there gets zeros, as ptxas writes them.
 */
final class SourceFileFacts {
    private SourceFileFacts() {}

    static SourceLines resolve(SourceLines lines, Path workDir) {
        if (lines.files().stream().allMatch(f -> f.timestamp() >= 0)) {
            return lines;
        }
        List<SourceLines.File> files = new ArrayList<>();
        for (SourceLines.File f : lines.files()) {
            files.add(f.timestamp() >= 0 ? f : lookUp(f, workDir));
        }
        return lines.withFiles(files);
    }

    private static SourceLines.File lookUp(SourceLines.File f, Path workDir) {
        try {
            Path p = workDir.resolve(f.path());
            if (Files.isRegularFile(p)) {
                return new SourceLines.File(f.index(), f.path(), Files.getLastModifiedTime(p).toMillis() / 1000,
                        Files.size(p));
            }
        } catch (IOException | InvalidPathException | SecurityException e) {
            // not a readable path here: ptxas writes zeros then too
        }
        return new SourceLines.File(f.index(), f.path(), 0, 0);
    }
}
