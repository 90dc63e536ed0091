package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compile server's cached staleness check: an unchanged tree is walked once, and every change the launcher's
 * find would count (an edit in place, a touch, a new folder and file, a pom) is seen at the very next check, made
 * right before it; a new build stamp walks again.
 */
class SourceWatchTest {
    @TempDir
    Path root;

    private FileTime built;
    private SourceWatch watch;

    @BeforeEach
    void tree() throws IOException {
        built = SourceFreshnessTest.stampedTree(root, "pom.xml", "m/pom.xml", "m/src/main/java/a/A.java",
                "m/src/test/java/ATest.java");
        if (watch != null) {
            watch.close();
        }
        watch = new SourceWatch(root);
    }

    @AfterEach
    void close() {
        watch.close();
    }

    private void newer(String path) throws IOException {
        Files.setLastModifiedTime(root.resolve(path), FileTime.fromMillis(built.toMillis() + 1000));
    }

    @Test
    void anUnchangedTreeIsWalkedOnce() throws IOException {
        for (int i = 0; i < 5; i++) {
            assertFalse(watch.check());
        }
        // a test source is not the distribution's
        Files.writeString(root.resolve("m/src/test/java/ATest.java"), "changed");
        newer("m/src/test/java/ATest.java");
        assertFalse(watch.check());
        assertEquals(1, watch.walks());
    }

    @Test
    void aChangeJustBeforeACheckIsSeen() throws IOException {
        assertFalse(watch.check());
        Files.writeString(root.resolve("m/src/main/java/a/A.java"), "edited in place");
        newer("m/src/main/java/a/A.java");
        assertTrue(watch.check());
    }

    @Test
    void aTouchANewFolderAndAPomAreSeen() throws IOException {
        assertFalse(watch.check());
        newer("m/src/main/java/a/A.java");
        assertTrue(watch.check());

        tree();
        assertFalse(watch.check());
        Path b = Files.createDirectories(root.resolve("m/src/main/java/b"));
        Files.writeString(b.resolve("B.java"), "new");
        assertTrue(watch.check());

        tree();
        assertFalse(watch.check());
        newer("m/pom.xml");
        assertTrue(watch.check());
    }

    @Test
    void aNewStampWalksAgain() throws IOException {
        assertFalse(watch.check());
        Files.setLastModifiedTime(root.resolve(SourceFreshness.STAMP), FileTime.fromMillis(built.toMillis() + 5000));
        assertFalse(watch.check());
        assertEquals(2, watch.walks());
    }
}
