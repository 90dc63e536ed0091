package org.jptxas.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;

/**
 * The source launcher's staleness check ({@code bin/.launch}), done in the compile server: whether anything the
 * distribution is built from changed after its build stamp. The same set and rule as the launcher's own
 * {@code find ROOT/pom.xml ROOT/*}{@code /pom.xml ROOT/*}{@code /src/main -newer STAMP}: the poms and every entry
 * (files and folders, links not followed) under each module's {@code src/main}, strictly newer than the stamp. The
 * server does it because a warm JVM walks the tree in about a millisecond, where the launcher's {@code find} costs a
 * process start and several thousand system calls on every call.
 */
final class SourceFreshness {
    /** The stamp the launcher touches after a build, relative to the source root. */
    static final String STAMP = "cli/target/.dist-stamp";

    private SourceFreshness() {}

    /** Whether the distribution built from {@code root} is missing its stamp or older than a source. */
    static boolean stale(Path root) {
        try {
            FileTime stamp = Files.getLastModifiedTime(root.resolve(STAMP));
            if (newer(root.resolve("pom.xml"), stamp)) {
                return true;
            }
            try (DirectoryStream<Path> modules = Files.newDirectoryStream(root,
                    p -> !p.getFileName().toString().startsWith(".") && Files.isDirectory(p))) {
                for (Path module : modules) {
                    if (newer(module.resolve("pom.xml"), stamp) || newerUnder(module.resolve("src/main"), stamp)) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException | RuntimeException e) {
            return true; // cannot tell: the launcher's own check decides
        }
    }

    private static boolean newer(Path p, FileTime stamp) throws IOException {
        if (!Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        return Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).compareTo(stamp) > 0;
    }

    private static boolean newerUnder(Path dir, FileTime stamp) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return newer(dir, stamp);
        }
        boolean[] found = {false};
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) {
                return check(attrs);
            }

            @Override
            public FileVisitResult visitFile(Path f, BasicFileAttributes attrs) {
                return check(attrs);
            }

            private FileVisitResult check(BasicFileAttributes attrs) {
                if (attrs.lastModifiedTime().compareTo(stamp) > 0) {
                    found[0] = true;
                    return FileVisitResult.TERMINATE;
                }
                return FileVisitResult.CONTINUE;
            }
        });
        return found[0];
    }
}
