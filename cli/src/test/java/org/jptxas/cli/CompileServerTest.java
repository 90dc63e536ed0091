package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compile server against in-process runs: the same stdout, stderr (bytes and order), exit code and output files
 * for the same command line, working directory and environment, also with many clients at once; requests without
 * the owner's token are refused; the server will not start in a folder others can read. The bash client and its
 * fallbacks are exercised through the launcher in {@code CompileServerIT}.
 */
class CompileServerTest {
    @TempDir
    Path tmp;

    private Path work;
    private Path state;
    private Thread serverThread;

    /** What one invocation printed and returned; stdout and stderr as bytes, plus both in the order written. */
    record Result(int exitCode, String out, String err, String interleaved) {}

    @BeforeEach
    void startServer() throws Exception {
        work = Files.createDirectory(tmp.resolve("work"));
        Files.copy(Path.of("../examples/saxpy.ptx"), work.resolve("saxpy.ptx"));
        Files.createDirectory(work.resolve("sub"));
        Files.writeString(work.resolve("sub/bad.ptx"), ".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".visible .entry k()\n{\n.reg .b32 %r<2>;\nldx.u32 %r1, [0];\nfoo;\nret;\n}\n");
        Files.writeString(work.resolve("opts.txt"), "-arch=sm_86 -v\n");
        Path dir = Files.createDirectory(tmp.resolve("state"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        state = dir.resolve("server");
        CompileServer server = new CompileServer(state, 60_000);
        server.start();
        serverThread = new Thread(() -> {
            try {
                server.serve();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }, "test-compile-server");
        serverThread.setDaemon(true);
        serverThread.start();
    }

    @AfterEach
    void stopServer() throws Exception {
        Files.deleteIfExists(state); // the server leaves when its state file no longer names it
        serverThread.join(10_000);
        assertFalse(serverThread.isAlive(), "the server stops once its state file is gone");
    }

    private String[] stateFields() throws IOException {
        String[] f = Files.readString(state).strip().split(" ");
        assertEquals(3, f.length, "port token pid");
        return f;
    }

    /** A client speaking the launcher's protocol. */
    Result viaServer(String token, Path cwd, Map<String, String> env, String... args) throws IOException {
        return viaServer(token, cwd, null, env, args);
    }

    /** With {@code sources} (not null): the launcher in bin/'s request, which has the server check them first. */
    Result viaServer(String token, Path cwd, Path sources, Map<String, String> env, String... args)
            throws IOException {
        int port = Integer.parseInt(stateFields()[0]);
        try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = s.getOutputStream();
            List<String> fields = new ArrayList<>(sources == null
                    ? List.of(CompileServer.MAGIC, token, cwd.toString())
                    : List.of(CompileServer.MAGIC_CHECKED, token, cwd.toString(), sources.toString()));
            fields.add(String.valueOf(args.length));
            fields.addAll(List.of(args));
            fields.add(String.valueOf(env.size()));
            env.forEach((k, v) -> fields.add(k + "=" + v));
            ByteArrayOutputStream req = new ByteArrayOutputStream();
            for (String f : fields) {
                req.write(f.getBytes(StandardCharsets.UTF_8));
                req.write(0);
            }
            out.write(req.toByteArray());
            out.flush();
            return readResponse(s.getInputStream());
        }
    }

    private static Result readResponse(InputStream in) throws IOException {
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        while (true) {
            String header = line(in);
            if (header == null) {
                throw new IOException("response ended without an exit code");
            }
            String[] parts = header.split(" ");
            if (parts[0].equals("x")) {
                return new Result(Integer.parseInt(parts[1]), o.toString(StandardCharsets.UTF_8),
                        e.toString(StandardCharsets.UTF_8), both.toString(StandardCharsets.UTF_8));
            }
            if (!parts[0].equals("o") && !parts[0].equals("e")) {
                throw new IOException("refused: " + header);
            }
            byte[] bytes = in.readNBytes(Integer.parseInt(parts[1]));
            (parts[0].equals("o") ? o : e).write(bytes);
            both.write(bytes);
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0 && c != '\n') {
            b.write(c);
        }
        return c < 0 && b.size() == 0 ? null : b.toString(StandardCharsets.US_ASCII);
    }

    /** The same invocation in-process, as JptxasMain runs it (autoflushing writers over one ordered sink). */
    static Result inProcess(Path cwd, Map<String, String> env, String... args) {
        ByteArrayOutputStream both = new ByteArrayOutputStream();
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        PrintWriter out = new PrintWriter(new java.io.OutputStreamWriter(tee(o, both), StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new java.io.OutputStreamWriter(tee(e, both), StandardCharsets.UTF_8), true);
        int rc = new JptxasCommand(out, err, env, null, cwd).run(args);
        return new Result(rc, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8),
                both.toString(StandardCharsets.UTF_8));
    }

    private static OutputStream tee(ByteArrayOutputStream a, ByteArrayOutputStream b) {
        return new OutputStream() {
            @Override
            public void write(int x) throws IOException {
                write(new byte[] {(byte) x}, 0, 1);
            }

            @Override
            public void write(byte[] buf, int off, int len) {
                synchronized (b) {
                    a.write(buf, off, len);
                    b.write(buf, off, len);
                }
            }
        };
    }

    /** Command lines whose output covers: a cubin, -v (stderr report), errors, -optf, relative paths, --version. */
    static final List<String[]> COMMANDS = List.of(
            new String[] {"-arch=sm_80", "saxpy.ptx", "-o", "out/a.cubin"},
            new String[] {"-arch=sm_90", "-v", "--warn-on-spills", "saxpy.ptx", "-o", "out/b.cubin"},
            new String[] {"-optf", "opts.txt", "saxpy.ptx", "-o", "out/c.cubin", "--out-sass", "out/c.sass"},
            new String[] {"-arch=sm_80", "sub/bad.ptx", "-o", "out/d.cubin"},
            new String[] {"-arch=sm_80", "missing.ptx"},
            new String[] {"--version"},
            new String[] {"-arch=sm_80", "-dlcm=xx", "saxpy.ptx"},
            new String[] {"-arch=sm_80", "-maxrregcount", "8", "-legacy-bar-warp-wide-behavior", "saxpy.ptx",
                "-o", "out/e.cubin"});

    @Test
    void sameBytesAsInProcess() throws Exception {
        String token = stateFields()[1];
        Path a = Files.createDirectories(tmp.resolve("a"));
        Path b = Files.createDirectories(tmp.resolve("b"));
        for (String[] cmd : COMMANDS) {
            copyTree(work, a);
            copyTree(work, b);
            Result local = inProcess(a, Map.of(), cmd);
            Result served = viaServer(token, b, Map.of(), cmd);
            assertEquals(local, served, String.join(" ", cmd));
            assertSameOutputs(a, b, String.join(" ", cmd));
        }
    }

    @Test
    void sourcesNewerThanTheBuildAreAnsweredStaleAndNothingRuns() throws Exception {
        String token = stateFields()[1];
        Path root = tmp.resolve("src");
        Path source = root.resolve("m/src/main/java/A.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class A {}");
        Files.createDirectories(root.resolve("cli/target"));
        Path stamp = Files.createFile(root.resolve(SourceFreshness.STAMP));
        java.nio.file.attribute.FileTime built = Files.getLastModifiedTime(stamp);
        setOlder(root, built);
        Path a = Files.createDirectories(tmp.resolve("a"));
        copyTree(work, a);
        String[] cmd = {"-arch=sm_80", "saxpy.ptx", "-o", "out/a.cubin"};
        assertEquals(0, viaServer(token, a, root, Map.of(), cmd).exitCode(), "sources older than the stamp: served");
        assertTrue(Files.exists(a.resolve("out/a.cubin")));
        Files.delete(a.resolve("out/a.cubin"));
        Files.setLastModifiedTime(source, java.nio.file.attribute.FileTime.fromMillis(built.toMillis() + 2000));
        IOException stale = assertThrows(IOException.class, () -> viaServer(token, a, root, Map.of(), cmd));
        assertEquals("refused: stale", stale.getMessage());
        assertFalse(Files.exists(a.resolve("out/a.cubin")), "a stale request runs nothing");
    }

    /** Every entry under {@code root} a minute older than {@code stamp}, but the stamp itself. */
    private static void setOlder(Path root, java.nio.file.attribute.FileTime stamp) throws IOException {
        java.nio.file.attribute.FileTime old = java.nio.file.attribute.FileTime.fromMillis(stamp.toMillis() - 60_000);
        try (var s = Files.walk(root)) {
            for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!p.endsWith(SourceFreshness.STAMP) && !p.equals(root.resolve("cli/target"))) {
                    Files.setLastModifiedTime(p, old);
                }
            }
        }
    }

    /**
     * A relative {@code .file} is looked up from the caller's folder, as ptxas run there would: its time and size go
     * into {@code .debug_line}; the server's own working directory (here the module's) does not hold it.
     */
    @Test
    void relativeSourceFileIsLookedUpFromTheCallersFolder() throws Exception {
        String token = stateFields()[1];
        Path b = Files.createDirectories(tmp.resolve("b"));
        Files.createDirectories(b.resolve("out"));
        Files.writeString(b.resolve("lines.ptx"), ".version 8.0\n.target sm_80\n.address_size 64\n"
                + ".file 1 \"src/k.cu\"\n.visible .entry k(.param .u64 p)\n{\n.reg .b64 %rd<2>;\n.loc 1 7 0\n"
                + "ld.param.u64 %rd1, [p];\n.loc 1 8 0\nst.global.u64 [%rd1], %rd1;\nret;\n}\n");
        Path source = b.resolve("src/k.cu");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "// twelve...\n");
        Files.setLastModifiedTime(source, java.nio.file.attribute.FileTime.fromMillis(1_600_000_000_000L));
        assertFalse(Files.exists(Path.of("src/k.cu")), "the server's folder has no such file");
        Result r = viaServer(token, b, Map.of(), "-arch=sm_80", "-lineinfo", "lines.ptx", "-o", "out/k.cubin");
        assertEquals(0, r.exitCode(), r.err());
        var table = org.jptxas.cubin.DebugLine.decode(org.jptxas.cubin.Cubin.read(
                Files.readAllBytes(b.resolve("out/k.cubin"))).section(".debug_line").orElseThrow().data());
        assertEquals(List.of(new org.jptxas.cubin.DebugLine.File("src/k.cu", 1_600_000_000L, 13)), table.files());
    }

    @Test
    void concurrentClientsGetTheirOwnResults() throws Exception {
        String token = stateFields()[1];
        int clients = 12;
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<String>> results = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                String[] cmd = COMMANDS.get(i % COMMANDS.size());
                Path dir = Files.createDirectories(tmp.resolve("c" + i));
                copyTree(work, dir);
                Path ref = Files.createDirectories(tmp.resolve("r" + i));
                copyTree(work, ref);
                results.add(pool.submit(() -> {
                    Result served = viaServer(token, dir, Map.of(), cmd);
                    Result local = inProcess(ref, Map.of(), cmd);
                    assertEquals(local, served, String.join(" ", cmd));
                    assertSameOutputs(ref, dir, String.join(" ", cmd));
                    return "ok";
                }));
            }
            for (Future<String> f : results) {
                assertEquals("ok", f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void environmentIsTheClients() throws Exception {
        // JPTXAS_PLUGIN_PATH comes with the request: a folder with a jar whose backend cannot load makes both runs
        // print the same warning, which they would not without the variable
        String token = stateFields()[1];
        Path plugins = Files.createDirectory(tmp.resolve("plugins"));
        try (var jar = new java.util.jar.JarOutputStream(Files.newOutputStream(plugins.resolve("broken.jar")))) {
            jar.putNextEntry(new java.util.jar.JarEntry("META-INF/services/org.jptxas.spi.Backend"));
            jar.write("org.example.NoSuchBackend\n".getBytes(StandardCharsets.UTF_8));
        }
        Map<String, String> env = Map.of("JPTXAS_PLUGIN_PATH", plugins.toString());
        String[] cmd = {"-arch=sm_80", "--syntax-only", "saxpy.ptx"};
        Result served = viaServer(token, work, env, cmd);
        assertEquals(inProcess(work, env, cmd), served);
        assertTrue(served.err().contains("NoSuchBackend"), served.err());
        assertFalse(viaServer(token, work, Map.of(), cmd).err().contains("NoSuchBackend"));
    }

    @Test
    void wrongTokenIsRefused() throws Exception {
        String token = stateFields()[1];
        String wrong = token.substring(0, token.length() - 1) + (token.endsWith("0") ? "1" : "0");
        IOException e = assertThrows(IOException.class, () -> viaServer(wrong, work, Map.of(), "--version"));
        assertEquals("refused: denied", e.getMessage());
        assertFalse(Files.exists(work.resolve("elf.o")));
        // and the server still serves its owner
        assertEquals(0, viaServer(token, work, Map.of(), "--version").exitCode());
    }

    @Test
    void stateFileIsTheOwnersOnly() throws Exception {
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(state)));
    }

    @Test
    void serverRefusesAFolderOthersCanRead() throws Exception {
        Path open = Files.createDirectory(tmp.resolve("open"),
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        IOException e = assertThrows(IOException.class, () -> new CompileServer(open.resolve("s"), 1000).start());
        assertTrue(e.getMessage().contains("mode 700"), e.getMessage());
        assertFalse(Files.exists(open.resolve("s")));
    }

    private static void assertSameOutputs(Path expected, Path actual, String what) throws IOException {
        Path eo = expected.resolve("out");
        Path ao = actual.resolve("out");
        List<String> names = Files.exists(eo) ? list(eo) : List.of();
        assertEquals(names, Files.exists(ao) ? list(ao) : List.of(), what);
        for (String n : names) {
            assertArrayEquals(Files.readAllBytes(eo.resolve(n)), Files.readAllBytes(ao.resolve(n)), what + ": " + n);
        }
        assertEquals(Files.exists(expected.resolve("elf.o")), Files.exists(actual.resolve("elf.o")), what);
    }

    private static List<String> list(Path dir) throws IOException {
        try (var s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var s = Files.walk(from)) {
            for (Path p : s.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(p, t, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
        // outputs of an earlier command are not inputs
        Path out = to.resolve("out");
        if (Files.exists(out)) {
            try (var s = Files.list(out)) {
                for (Path p : s.toList()) {
                    Files.delete(p);
                }
            }
        } else {
            Files.createDirectory(out);
        }
        Files.deleteIfExists(to.resolve("elf.o"));
    }
}
