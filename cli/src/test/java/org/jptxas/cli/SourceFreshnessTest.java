package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compile server's version of bin/.launch's staleness check: what the launcher's {@code find} counts (poms, and
 * files and folders under a module's src/main) makes the build stale when newer than the stamp; tests, hidden
 * folders and files the find does not look at do not; no stamp is stale.
 */
class SourceFreshnessTest {
    @TempDir
    Path root;

    private FileTime built;

    @BeforeEach
    void tree() throws IOException {
        built = stampedTree(root, "pom.xml", "m/pom.xml", "m/src/main/java/a/A.java", "m/src/main/resources/t.json",
                "m/src/test/java/ATest.java", ".git/index", "notes.txt");
    }

    /** A source tree of {@code files} under {@code root}, all a minute older than the build stamp: its time. */
    static FileTime stampedTree(Path root, String... files) throws IOException {
        for (String f : files) {
            Path p = root.resolve(f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, f);
        }
        Files.createDirectories(root.resolve("cli/target"));
        Files.deleteIfExists(root.resolve(SourceFreshness.STAMP));
        FileTime stamp = Files.getLastModifiedTime(Files.createFile(root.resolve(SourceFreshness.STAMP)));
        FileTime old = FileTime.fromMillis(stamp.toMillis() - 60_000);
        try (var s = Files.walk(root)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                if (!p.endsWith(SourceFreshness.STAMP)) {
                    Files.setLastModifiedTime(p, old);
                }
            }
        }
        return stamp;
    }

    private void touchNewer(String path) throws IOException {
        Files.setLastModifiedTime(root.resolve(path), FileTime.fromMillis(built.toMillis() + 1000));
    }

    @Test
    void nothingNewerIsFresh() {
        assertFalse(SourceFreshness.stale(root));
    }

    @Test
    void aNewerSourceResourcePomOrFolderIsStale() throws IOException {
        for (String p : new String[] {"m/src/main/java/a/A.java", "m/src/main/resources/t.json", "m/pom.xml",
                "pom.xml", "m/src/main/java/a"}) {
            tree();
            touchNewer(p);
            assertTrue(SourceFreshness.stale(root), p);
        }
    }

    @Test
    void testsHiddenFoldersAndOtherFilesDoNotCount() throws IOException {
        touchNewer("m/src/test/java/ATest.java");
        touchNewer(".git/index");
        touchNewer("notes.txt");
        touchNewer("m/src");
        assertFalse(SourceFreshness.stale(root));
    }

    @Test
    void noStampIsStale() throws IOException {
        Files.delete(root.resolve(SourceFreshness.STAMP));
        assertTrue(SourceFreshness.stale(root));
    }
}
