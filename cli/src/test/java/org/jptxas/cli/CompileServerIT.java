package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's launcher ({@code target/bin/jptxas}) with its compile server, as a toolchain runs it: one process
 * per call. Every call gives the same stdout, stderr (also interleaved), exit code and files as the same call run
 * in-process ({@code JPTXAS_SERVER=0}); so do calls made at once; and when the server cannot be used (it cannot start,
 * it refuses the token, nothing listens on its port, or its state belongs to another user) the launcher runs jptxas
 * in-process with the same result, never talking to a server it does not own.
 */
class CompileServerIT {
    @TempDir
    static Path tmp;

    static Path dist;
    static Path stateDir;
    static Path inputs;

    /** One launcher run: exit code, stdout, stderr, both as written in order, and the files it wrote. */
    record Run(int exitCode, String out, String err, String merged, Map<String, byte[]> files) {
        /** Equal apart from the launcher's debug lines about the server. */
        void assertSameAs(Run other, String what) {
            assertEquals(other.exitCode, exitCode, what);
            assertEquals(other.out, out, what);
            assertEquals(strip(other.err), strip(err), what);
            assertEquals(strip(other.merged), strip(merged), what);
            assertEquals(other.files.keySet(), files.keySet(), what);
            other.files.forEach((k, v) -> assertArrayEquals(v, files.get(k), what + ": " + k));
        }

        private static String strip(String s) {
            return s.replaceAll("(?m)^jptxas-server: .*\n", "");
        }
    }

    @BeforeAll
    static void setUp() throws IOException {
        dist = Path.of("target").toAbsolutePath();
        assertTrue(Files.isExecutable(dist.resolve("bin/jptxas")), "the distribution is built in package phase");
        assertTrue(Files.exists(dist.resolve("bin/.jptxas-server-client")), "the launcher's server client");
        stateDir = privateDir(tmp.resolve("state"));
        inputs = Files.createDirectory(tmp.resolve("inputs"));
        Files.copy(Path.of("../examples/saxpy.ptx"), inputs.resolve("saxpy.ptx"));
        Files.createDirectory(inputs.resolve("sub"));
        Files.writeString(inputs.resolve("sub/bad.ptx"), ".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".visible .entry k()\n{\n.reg .b32 %r<2>;\nldx.u32 %r1, [0];\nfoo;\nret;\n}\n");
        Files.writeString(inputs.resolve("opts.txt"), "-arch=sm_86 -v\n");
    }

    @AfterAll
    static void stopServers() throws IOException {
        stopServers(stateDir);
    }

    /** Stops every compile server whose state file is in {@code stateDir}. */
    static void stopServers(Path stateDir) throws IOException {
        try (var files = Files.list(stateDir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("server")).toList()) {
                String[] fields = Files.readString(f).strip().split(" ");
                ProcessHandle.of(Long.parseLong(fields[2])).ifPresent(ProcessHandle::destroy);
            }
        }
    }

    private static Path privateDir(Path dir) throws IOException {
        return Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
    }

    private static final AtomicInteger RUNS = new AtomicInteger();

    /** Runs the launcher in a fresh copy of the inputs; stdout and stderr apart, then merged (a second run). */
    static Run launcher(Map<String, String> env, String... args) throws Exception {
        Path dir = copyInputs();
        Run apart = run(dir, env, false, args);
        Path dir2 = copyInputs();
        Run merged = run(dir2, env, true, args);
        return new Run(apart.exitCode, apart.out, apart.err, merged.out, apart.files);
    }

    private static Path copyInputs() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("run" + RUNS.incrementAndGet()));
        try (var s = Files.walk(inputs)) {
            for (Path p : s.toList()) {
                Path t = dir.resolve(inputs.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t);
                }
            }
        }
        Files.createDirectory(dir.resolve("out"));
        return dir;
    }

    private static Run run(Path dir, Map<String, String> env, boolean merge, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(dist.resolve("bin/jptxas").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(merge);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        ExecutorService io = Executors.newFixedThreadPool(2);
        try {
            Future<byte[]> out = io.submit(() -> p.getInputStream().readAllBytes());
            Future<byte[]> err = io.submit(() -> p.getErrorStream().readAllBytes());
            assertTrue(p.waitFor(180, TimeUnit.SECONDS), "launcher timed out: " + cmd);
            Map<String, byte[]> files = new HashMap<>();
            try (var s = Files.list(dir.resolve("out"))) {
                for (Path f : s.toList()) {
                    files.put(f.getFileName().toString(), Files.readAllBytes(f));
                }
            }
            if (Files.exists(dir.resolve("elf.o"))) {
                files.put("elf.o", Files.readAllBytes(dir.resolve("elf.o")));
            }
            return new Run(p.exitValue(), new String(out.get(), StandardCharsets.UTF_8),
                    new String(err.get(), StandardCharsets.UTF_8), null, files);
        } finally {
            io.shutdownNow();
        }
    }

    static Map<String, String> serverEnv(Path state) {
        return Map.of("JPTXAS_SERVER_DIR", state.toString(), "JPTXAS_SERVER_IDLE", "120", "JPTXAS_SERVER_DEBUG", "1");
    }

    static final Map<String, String> IN_PROCESS = Map.of("JPTXAS_SERVER", "0");

    private static String serverPid() throws IOException {
        try (var files = Files.list(stateDir)) {
            Path f = files.filter(p -> p.getFileName().toString().startsWith("server")).findFirst().orElseThrow();
            return Files.readString(f).strip().split(" ")[2];
        }
    }

    @Test
    void everyCallThroughTheServerIsByteIdenticalToInProcess() throws Exception {
        String pid = null;
        for (String[] cmd : CompileServerTest.COMMANDS) {
            Run served = launcher(serverEnv(stateDir), cmd);
            // the debug switch makes the launcher say when it did not use the server: it must not have
            assertFalse(served.err().contains("jptxas-server:"), served.err());
            served.assertSameAs(launcher(IN_PROCESS, cmd), String.join(" ", cmd));
            if (pid == null) {
                pid = serverPid();
            }
            assertEquals(pid, serverPid(), "one server serves every call");
        }
    }

    @Test
    void callsAtOnceAreServedEachWithItsOwnResult() throws Exception {
        String[] warm = {"--version"};
        launcher(serverEnv(stateDir), warm);
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                String[] cmd = CompileServerTest.COMMANDS.get(i % CompileServerTest.COMMANDS.size());
                all.add(pool.submit(() -> {
                    Path dir = copyInputs();
                    Run served = run(dir, serverEnv(stateDir), false, cmd);
                    assertFalse(served.err().contains("jptxas-server:"), served.err());
                    Run local = run(copyInputs(), IN_PROCESS, false, cmd);
                    assertEquals(local.exitCode(), served.exitCode());
                    assertEquals(local.out(), served.out());
                    assertEquals(local.err(), served.err());
                    assertEquals(local.files().keySet(), served.files().keySet());
                    return null;
                }));
            }
            for (Future<?> f : all) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aServerThatCannotStartFallsBackToInProcess() throws Exception {
        // the folder is the user's but open to others: the server refuses to start there
        Path open = Files.createDirectory(tmp.resolve("open"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        String[] cmd = CompileServerTest.COMMANDS.get(1);
        Run r = launcher(serverEnv(open), cmd);
        assertTrue(r.err().contains("jptxas-server: the server did not start"), r.err());
        r.assertSameAs(launcher(IN_PROCESS, cmd), "fallback");
    }

    @Test
    void aServerThatRefusesOrIsGoneFallsBack() throws Exception {
        // a stale state file: the port answers "denied" (another server, another token), then nothing listens at all
        Path dir = privateDir(tmp.resolve("stale"));
        String[] cmd = CompileServerTest.COMMANDS.get(3);
        Run reference = launcher(IN_PROCESS, cmd);
        try (ServerSocket fake = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                while (!fake.isClosed()) {
                    try (Socket s = fake.accept()) {
                        s.getOutputStream().write("denied\n".getBytes(StandardCharsets.US_ASCII));
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            t.setDaemon(true);
            t.start();
            Path state = writeState(dir, fake.getLocalPort());
            touchNewerThanJars(state);
            Run r = launcher(Map.of("JPTXAS_SERVER_DIR", dir.toString(), "JPTXAS_SERVER_DEBUG", "1"), cmd);
            assertTrue(r.err().contains("jptxas-server: the server refused the request"), r.err());
            r.assertSameAs(reference, "refused");
        }
        // nothing listens: the launcher starts a server of its own and is served by it
        Path gone = privateDir(tmp.resolve("gone"));
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        Path state = writeState(gone, closedPort);
        touchNewerThanJars(state);
        Run r = launcher(serverEnv(gone), cmd);
        r.assertSameAs(reference, "dead server");
        String[] fields = Files.readString(state).strip().split(" ");
        assertTrue(Integer.parseInt(fields[0]) != closedPort, "a new server took the state file");
        ProcessHandle.of(Long.parseLong(fields[2])).ifPresent(ProcessHandle::destroy);
    }

    @Test
    void anotherUsersStateIsNeverUsed() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")),
                "needs root to give a file to another user (CI runs as root)");
        UserPrincipal nobody = tmp.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        String[] cmd = CompileServerTest.COMMANDS.get(0);
        Run reference = launcher(IN_PROCESS, cmd);
        AtomicInteger connections = new AtomicInteger();
        try (ServerSocket trap = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            Thread t = new Thread(() -> {
                while (!trap.isClosed()) {
                    try (Socket s = trap.accept(); InputStream in = s.getInputStream()) {
                        connections.incrementAndGet();
                        in.readNBytes(16);
                    } catch (IOException e) {
                        return;
                    }
                }
            });
            t.setDaemon(true);
            t.start();
            // another user's state file in the user's own folder (a planted one): not read, not connected to
            Path own = privateDir(tmp.resolve("planted"));
            Path state = writeState(own, trap.getLocalPort());
            touchNewerThanJars(state);
            Files.setOwner(state, nobody);
            Run r = launcher(serverEnv(own), cmd);
            assertTrue(r.err().contains("is not this user's; not used"), r.err());
            r.assertSameAs(reference, "planted state file");
            // another user's folder: not used at all
            Path foreign = privateDir(tmp.resolve("foreign"));
            Path foreignState = writeState(foreign, trap.getLocalPort());
            touchNewerThanJars(foreignState);
            Files.setOwner(foreignState, nobody);
            Files.setOwner(foreign, nobody);
            Run f = launcher(serverEnv(foreign), cmd);
            assertTrue(f.err().contains("is not this user's own folder; not used"), f.err());
            f.assertSameAs(reference, "foreign folder");
            assertEquals(0, connections.get(), "the launcher never talked to a server it does not own");
            stopServersIn(own);
        }
    }

    private static void stopServersIn(Path dir) throws IOException {
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("server")).toList()) {
                if (Files.isReadable(f)) {
                    String[] fields = Files.readString(f).strip().split(" ");
                    if (fields.length == 3) {
                        ProcessHandle.of(Long.parseLong(fields[2])).ifPresent(ProcessHandle::destroy);
                    }
                }
            }
        }
    }

    /** A state file as the launcher looks for it: "port token pid", mode 600. */
    private static Path writeState(Path dir, int port) throws IOException {
        Path state = dir.resolve("server" + dist.toString().replace('/', '_'));
        Files.writeString(state, port + " 0123456789abcdef 999999\n");
        Files.setPosixFilePermissions(state, PosixFilePermissions.fromString("rw-------"));
        return state;
    }

    /** The launcher ignores state older than the distribution's jars (a server of an older build). */
    private static void touchNewerThanJars(Path state) throws IOException {
        Files.setLastModifiedTime(state, java.nio.file.attribute.FileTime.fromMillis(System.currentTimeMillis() + 60_000));
    }
}
