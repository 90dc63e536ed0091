package org.jptxas.cli;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link SourceFreshness}'s answer for a source tree, kept between the compile server's calls while nothing in the
 * tree changes. The walk costs about 4 ms of CPU per call (mostly the kernel's: a stat per entry), as much as a
 * small compilation; here the folders it reads are watched (inotify through a {@link WatchService}) and the tree is
 * walked again only after an event in one of them, a new build stamp, or anything unexpected.
 *
 * <p>Events arrive on the watch service's own thread, so an edit made just before a call could still be on its way.
 * Each check therefore touches a probe file in the watched root ({@code .launch.lock}, the launcher's lock, ignored
 * by git) and waits for that event: the kernel queues events in order and the service reads them in order, so once
 * the probe's event is in, every earlier change's is too. No probe event within {@link #PROBE_WAIT_MS}: walk.
 */
final class SourceWatch {
    private static final int PROBE_WAIT_MS = 200;
    private static final String PROBE = ".launch.lock";
    private static final int KEEP = 4;
    private static final Map<Path, SourceWatch> WATCHES = new LinkedHashMap<>(8, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Path, SourceWatch> eldest) {
            if (size() > KEEP) {
                eldest.getValue().close();
                return true;
            }
            return false;
        }
    };

    private final Path root;
    private WatchService service;
    private WatchKey rootKey;
    private FileTime stamp;
    /** Walks done (tests). */
    private int walks;

    SourceWatch(Path root) {
        this.root = root;
    }

    /** Whether the distribution built from {@code root} is older than a source, as {@link SourceFreshness#stale}. */
    static boolean stale(Path root) {
        SourceWatch w;
        synchronized (WATCHES) {
            w = WATCHES.computeIfAbsent(root.toAbsolutePath().normalize(), SourceWatch::new);
        }
        return w.check();
    }

    synchronized boolean check() {
        try {
            FileTime st = Files.getLastModifiedTime(root.resolve(SourceFreshness.STAMP));
            if (service != null && st.equals(stamp) && quiet()) {
                return false;
            }
            close();
            // watched before the walk: a change during the walk shows at the next check
            arm();
            walks++;
            boolean stale = SourceFreshness.stale(root);
            stamp = stale ? null : st; // only "current" is kept
            if (stale) {
                close();
            }
            return stale;
        } catch (IOException | RuntimeException e) {
            close();
            walks++;
            return SourceFreshness.stale(root);
        }
    }

    int walks() {
        return walks;
    }

    /** No event since the last check but the probe's (which this waits for). */
    private boolean quiet() throws IOException {
        Path probe = root.resolve(PROBE);
        if (!Files.exists(probe, LinkOption.NOFOLLOW_LINKS)) {
            Files.createFile(probe);
        }
        Files.setLastModifiedTime(probe, FileTime.fromMillis(System.currentTimeMillis()));
        boolean quiet = true;
        boolean probed = false;
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PROBE_WAIT_MS);
        try {
            while (true) {
                long left = deadline - System.nanoTime();
                // once the probe is in, what was queued before it is too: take what is ready, then stop
                WatchKey key = probed ? service.poll() : service.poll(Math.max(0, left), TimeUnit.NANOSECONDS);
                if (key == null) {
                    return probed && quiet;
                }
                for (WatchEvent<?> e : key.pollEvents()) {
                    if (key == rootKey && e.kind() != StandardWatchEventKinds.OVERFLOW
                            && e.context() instanceof Path p && p.toString().equals(PROBE)) {
                        probed = true;
                    } else {
                        quiet = false;
                    }
                }
                if (!key.reset()) {
                    quiet = false; // a watched folder went away
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ClosedWatchServiceException e) {
            return false;
        }
    }

    /** Watches the root, each module folder (its pom.xml) and every folder under each module's src/main. */
    private void arm() throws IOException {
        service = root.getFileSystem().newWatchService();
        rootKey = register(root);
        try (DirectoryStream<Path> modules = Files.newDirectoryStream(root,
                p -> !p.getFileName().toString().startsWith(".") && Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))) {
            for (Path module : modules) {
                register(module);
                Path main = module.resolve("src/main");
                if (Files.isDirectory(module.resolve("src"), LinkOption.NOFOLLOW_LINKS)) {
                    register(module.resolve("src")); // src/main appearing later
                }
                if (Files.isDirectory(main, LinkOption.NOFOLLOW_LINKS)) {
                    Files.walkFileTree(main, new SimpleFileVisitor<>() {
                        @Override
                        public FileVisitResult preVisitDirectory(Path d, BasicFileAttributes attrs) throws IOException {
                            register(d);
                            return FileVisitResult.CONTINUE;
                        }
                    });
                }
            }
        }
    }

    private WatchKey register(Path dir) throws IOException {
        return dir.register(service, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_DELETE,
                StandardWatchEventKinds.ENTRY_MODIFY);
    }

    synchronized void close() {
        if (service != null) {
            try {
                service.close();
            } catch (IOException e) {
                // nothing held that matters
            }
        }
        service = null;
        rootKey = null;
        stamp = null;
    }
}
