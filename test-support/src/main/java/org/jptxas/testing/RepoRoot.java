package org.jptxas.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Locates the repository root (the folder of the parent pom) from the test's working directory. */
public final class RepoRoot {
    private RepoRoot() {}

    public static Optional<Path> find() {
        Path p = Path.of("").toAbsolutePath();
        while (p != null) {
            Path pom = p.resolve("pom.xml");
            if (Files.isRegularFile(pom)) {
                try {
                    if (Files.readString(pom).contains("<artifactId>jptxas-parent</artifactId>")
                            && Files.isDirectory(p.resolve("tables"))) {
                        return Optional.of(p);
                    }
                } catch (IOException e) {
                    return Optional.empty();
                }
            }
            p = p.getParent();
        }
        return Optional.empty();
    }
}
