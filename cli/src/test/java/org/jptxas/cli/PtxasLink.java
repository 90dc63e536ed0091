package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * The packaged launcher as toolchains see it: a link named {@code ptxas} to {@code target/bin/jptxas}, and the
 * environment that gives its compile server a private, owner-only state folder (stopped by {@link #stopServers}).
 */
record PtxasLink(Path ptxas, Map<String, String> env) {
    /** Makes the link and the state folder under {@code tmp}; the distribution must be packaged. */
    static PtxasLink create(Path tmp) throws IOException {
        Path dist = Path.of("target").toAbsolutePath();
        assertTrue(Files.isExecutable(dist.resolve("bin/jptxas")), "the distribution is built in package phase");
        Path toolkit = Files.createDirectories(tmp.resolve("toolkit/bin"));
        Path ptxas = Files.createSymbolicLink(toolkit.resolve("ptxas"), dist.resolve("bin/jptxas"));
        Path state = Files.createDirectory(tmp.resolve("state"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        return new PtxasLink(ptxas, Map.of("JPTXAS_SERVER_DIR", state.toString(), "JPTXAS_SERVER_IDLE", "120"));
    }

    void stopServers() throws IOException {
        CompileServerIT.stopServers(Path.of(env.get("JPTXAS_SERVER_DIR")));
    }
}
