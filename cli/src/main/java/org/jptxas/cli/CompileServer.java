package org.jptxas.cli;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The compile server behind {@code bin/jptxas}: a JVM that stays up between invocations, so that a toolchain calling
 * jptxas once per kernel pays the JVM's start-up and the backends' table loading once. The launcher starts it on first
 * use and talks to it over loopback TCP (bash's {@code /dev/tcp}, so the client costs no JVM); each request carries the
 * invocation's working directory, arguments and environment, and the server runs exactly the {@link JptxasCommand}
 * the in-process launcher runs, sending back what it wrote to stdout and stderr, in order, and its exit code.
 *
 * <p>Access is the owner's only: the server listens on the loopback address alone and serves a request only with the
 * token from its state file, which it writes with mode 600 in a folder that must be the user's own with mode 700 (it
 * refuses to start otherwise). It exits after {@code --idle} seconds without a request, and when its state file no
 * longer names it (a newer server took over). Anything the client cannot do with it (no state file, a refused
 * connection, a wrong token) makes the launcher run jptxas in-process instead.
 *
 * <p>Request: {@code JPTXAS1 NUL token NUL cwd NUL argc NUL args... NUL envc NUL KEY=VALUE... NUL}, or
 * {@code JPTXAS2} with a field {@code sources} after {@code cwd}: the source tree of the launcher in {@code bin/}, which
 * the server checks against the distribution's build stamp before running anything ({@link SourceFreshness}; empty:
 * no check). Response: frames {@code o LEN\n} + bytes (stdout) and {@code e LEN\n} + bytes (stderr) in the order the
 * command flushed them, then {@code x CODE\n}. A refused request gets {@code denied\n} and nothing else; a request
 * whose sources are newer than the build gets {@code stale\n} and nothing else (the launcher rebuilds).
 */
public final class CompileServer {
    static final String MAGIC = "JPTXAS1";
    /**
     * Warm-up compilations by default: about where saxpy's compilation stops getting faster (CPU time, loaded machine:
     * 17 ms on the first call after start-up, 8 ms after 40, 6-7 ms after 100; about a second of CPU in all).
     */
    static final int DEFAULT_WARM_UP = 100;
    /** {@link #MAGIC}'s request with one more field after the working directory: a source tree to check first. */
    static final String MAGIC_CHECKED = "JPTXAS2";
    private static final int MAX_FIELD = 16 << 20;

    private final Path stateFile;
    private final long idleMillis;
    private final String token;
    private final Registries registries = Registries.shared();
    private final String home = System.getProperty("jptxas.home");
    private final AtomicLong lastActivity = new AtomicLong(System.currentTimeMillis());
    private final AtomicInteger active = new AtomicInteger();
    private final ExecutorService workers;
    private ServerSocket socket;
    /** Compilations the warm-up runs after the first request (0: none; {@link ServerWarmUp}). */
    private int warmUpRounds;
    private final AtomicBoolean warmUpStarted = new AtomicBoolean();
    private volatile String firstTarget;

    CompileServer(Path stateFile, long idleMillis) {
        this.stateFile = stateFile;
        this.idleMillis = idleMillis;
        byte[] bytes = new byte[32];
        new SecureRandom().nextBytes(bytes);
        this.token = HexFormat.of().formatHex(bytes);
        this.workers = Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()), r -> {
            Thread t = new Thread(r, "jptxas-server-worker");
            t.setDaemon(true);
            return t;
        });
    }

    /** {@code CompileServer --state FILE [--idle SECONDS] [--warm-up ROUNDS]}. */
    public static void main(String[] args) throws Exception {
        Path state = null;
        long idle = 600;
        int warmUp = DEFAULT_WARM_UP;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--state" -> state = Path.of(args[i + 1]);
                case "--idle" -> idle = Long.parseLong(args[i + 1]);
                case "--warm-up" -> warmUp = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        if (state == null) {
            System.err.println("usage: CompileServer --state FILE [--idle SECONDS]");
            System.exit(2);
        }
        CompileServer server = new CompileServer(state.toAbsolutePath(), idle * 1000);
        server.warmUpRounds = warmUp;
        server.start();
        server.serve();
        System.exit(0);
    }

    /** Binds the loopback port and publishes the state file; throws when the folder is not the owner's alone. */
    void start() throws IOException {
        Path dir = stateFile.getParent();
        checkPrivateFolder(dir);
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        socket.setSoTimeout(1000);
        publish();
    }

    /** The folder must exist, be a real folder (no link), belong to this user and be closed to everyone else. */
    static void checkPrivateFolder(Path dir) throws IOException {
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(dir + " is not a folder");
        }
        String me = System.getProperty("user.name");
        String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (!owner.equals(me) || !perms.equals(PosixFilePermissions.fromString("rwx------"))) {
            throw new IOException(dir + " must be owned by " + me + " with mode 700 (owner " + owner + ", "
                    + PosixFilePermissions.toString(perms) + ")");
        }
    }

    private String stateLine() {
        return socket.getLocalPort() + " " + token + " " + ProcessHandle.current().pid() + "\n";
    }

    private void publish() throws IOException {
        Path tmp = stateFile.resolveSibling(stateFile.getFileName() + "." + ProcessHandle.current().pid() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(tmp, stateLine(), StandardCharsets.US_ASCII);
        try {
            Files.move(tmp, stateFile, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, stateFile, StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /** Whether the state file still names this server. */
    private boolean stillPublished() {
        try {
            return Files.readString(stateFile, StandardCharsets.US_ASCII).equals(stateLine());
        } catch (IOException e) {
            return false;
        }
    }

    /** Accepts until idle (or replaced), then removes its state file if it is still its own. */
    void serve() throws IOException {
        try {
            while (true) {
                Socket client;
                try {
                    client = socket.accept();
                } catch (SocketTimeoutException e) {
                    long idleFor = System.currentTimeMillis() - lastActivity.get();
                    if (active.get() == 0 && (idleFor >= idleMillis || !stillPublished())) {
                        break;
                    }
                    continue;
                }
                lastActivity.set(System.currentTimeMillis());
                active.incrementAndGet();
                workers.execute(() -> {
                    try (client) {
                        handle(client);
                    } catch (IOException | RuntimeException e) {
                        // a client that went away; nothing to report to
                    } finally {
                        lastActivity.set(System.currentTimeMillis());
                        active.decrementAndGet();
                        startWarmUp();
                    }
                });
            }
        } finally {
            if (stillPublished()) {
                Files.deleteIfExists(stateFile);
            }
            socket.close();
            workers.shutdownNow();
        }
    }

    /** Once, after the first request was answered: warms the code up for that request's target. */
    private void startWarmUp() {
        String target = firstTarget;
        if (warmUpRounds > 0 && target != null && warmUpStarted.compareAndSet(false, true)) {
            Thread t = new Thread(new ServerWarmUp(registries, home, warmUpRounds, () -> active.get() > 0, target),
                    "jptxas-server-warm-up");
            t.setDaemon(true);
            t.start();
        }
    }

    private void handle(Socket client) throws IOException {
        client.setSoTimeout(30_000);
        client.setTcpNoDelay(true); // frames go out as written, not after the previous one is acknowledged
        InputStream in = new BufferedInputStream(client.getInputStream());
        OutputStream out = client.getOutputStream();
        Request request;
        try {
            request = Request.read(in, token);
        } catch (IOException e) {
            out.write("denied\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            return;
        }
        if (firstTarget == null) {
            firstTarget = ServerWarmUp.targetOf(request.args());
        }
        client.setSoTimeout(0);
        // bin/'s staleness check runs beside the compilation (a tree walk costs about half a saxpy compile; SourceWatch
        // walks only after a change): the answer is held back and nothing is written until it says the build is current
        CompletableFuture<Boolean> stale = request.sources().isEmpty() ? CompletableFuture.completedFuture(false)
                : CompletableFuture.supplyAsync(() -> SourceWatch.stale(Path.of(request.sources())));
        Frames frames = new Frames(out, stale);
        PrintWriter stdout = new PrintWriter(new OutputStreamWriter(frames.stream('o'), StandardCharsets.UTF_8), true);
        PrintWriter stderr = new PrintWriter(new OutputStreamWriter(frames.stream('e'), StandardCharsets.UTF_8), true);
        Path cwd = Path.of(request.cwd());
        int rc = new JptxasCommand(stdout, stderr, request.env(), home, cwd, registries, checkedFiles(cwd, stale))
                .run(request.args().toArray(String[]::new));
        stdout.flush();
        stderr.flush();
        if (stale.join()) {
            out.write("stale\n".getBytes(StandardCharsets.US_ASCII)); // and the held frames are dropped
            out.flush();
            return;
        }
        frames.exit(rc);
    }

    /** The caller's files, written only once {@code stale} says the build is current. */
    private static Workspace checkedFiles(Path cwd, CompletableFuture<Boolean> stale) {
        Workspace files = Workspace.files(cwd);
        return new Workspace() {
            @Override
            public byte[] read(String name) throws IOException {
                return files.read(name);
            }

            @Override
            public void write(List<Output> outputs) throws OutputFailure {
                if (stale.join()) {
                    throw new OutputFailure("the distribution is older than its sources");
                }
                files.write(outputs);
            }
        };
    }

    /** One invocation: working directory, source tree to check (empty: none), arguments, environment. */
    record Request(String cwd, String sources, List<String> args, Map<String, String> env) {
        static Request read(InputStream in, String token) throws IOException {
            String magic = field(in);
            if (!magic.equals(MAGIC) && !magic.equals(MAGIC_CHECKED)) {
                throw new IOException("not a jptxas request");
            }
            String presented = field(in);
            if (!MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8),
                    token.getBytes(StandardCharsets.UTF_8))) {
                throw new IOException("wrong token");
            }
            String cwd = field(in);
            String sources = magic.equals(MAGIC_CHECKED) ? field(in) : "";
            int argc = count(field(in));
            List<String> args = new ArrayList<>(argc);
            for (int i = 0; i < argc; i++) {
                args.add(field(in));
            }
            int envc = count(field(in));
            Map<String, String> env = new HashMap<>();
            for (int i = 0; i < envc; i++) {
                String kv = field(in);
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    env.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            if (!Path.of(cwd).isAbsolute()) {
                throw new IOException("working directory must be absolute");
            }
            if (!sources.isEmpty() && !Path.of(sources).isAbsolute()) {
                throw new IOException("source tree must be absolute");
            }
            return new Request(cwd, sources, args, env);
        }

        private static int count(String s) throws IOException {
            try {
                int n = Integer.parseInt(s);
                if (n < 0 || n > 1_000_000) {
                    throw new IOException("bad count " + s);
                }
                return n;
            } catch (NumberFormatException e) {
                throw new IOException("bad count " + s, e);
            }
        }

        /** One NUL-terminated field; bash passes arguments as bytes, read as the platform's UTF-8. */
        private static String field(InputStream in) throws IOException {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            while (true) {
                int c = in.read();
                if (c < 0) {
                    throw new EOFException("request ended early");
                }
                if (c == 0) {
                    return b.toString(StandardCharsets.UTF_8);
                }
                if (b.size() >= MAX_FIELD) {
                    throw new IOException("field too long");
                }
                b.write(c);
            }
        }
    }

    /** The response stream: tagged, length-prefixed frames, written in the order the command flushes. */
    static final class Frames {
        private final OutputStream out;
        private final CompletableFuture<Boolean> stale;
        /** Frames written before the staleness check said the build is current; null once they went out. */
        private ByteArrayOutputStream held = new ByteArrayOutputStream();

        Frames(OutputStream out, CompletableFuture<Boolean> stale) {
            this.out = out;
            this.stale = stale;
        }

        OutputStream stream(char tag) {
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                    if (len > 0) {
                        frame(tag, b, off, len);
                    }
                }
            };
        }

        private synchronized void frame(char tag, byte[] b, int off, int len) throws IOException {
            byte[] header = (tag + " " + len + "\n").getBytes(StandardCharsets.US_ASCII);
            byte[] frame = java.util.Arrays.copyOf(header, header.length + len);
            System.arraycopy(b, off, frame, header.length, len);
            if (!release()) {
                held.write(frame);
                return;
            }
            out.write(frame);
            out.flush();
        }

        /** Sends the held frames when the check said current; whether frames may go out as written now. */
        private boolean release() throws IOException {
            if (held != null && stale.isDone() && !stale.join()) {
                out.write(held.toByteArray());
                held = null;
            }
            return held == null;
        }

        /** The exit frame, after the held ones; only once the check said current. */
        synchronized void exit(int rc) throws IOException {
            if (!release()) {
                throw new IllegalStateException("the staleness check has not said current");
            }
            out.write(("x " + rc + "\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }
    }

    /** Creates the private state folder (mode 700) when it does not exist yet. */
    static void createPrivateFolder(Path dir) throws IOException {
        try {
            Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } catch (FileAlreadyExistsException e) {
            // checked by checkPrivateFolder
        }
    }
}
