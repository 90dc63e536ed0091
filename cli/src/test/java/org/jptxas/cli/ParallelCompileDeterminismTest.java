package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Parallel library use (issue 22): every suite kernel on every SM of sm_75 ... sm_90, executable and {@code -c},
 * compiled by many threads of one JVM at once (each compile its own command object, in a random order) gives the
 * bytes of the serial run. Finds shared mutable state: a static cache that is not
 * thread-safe, or one whose contents change what a later compile writes.
 */
@Tag("slow")
class ParallelCompileDeterminismTest {
    private static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    @TempDir
    Path dir;

    private record Job(String ptx, String sm, boolean relocatable) {
        String key() {
            return Path.of(ptx).getFileName() + "@" + sm + (relocatable ? "-c" : "");
        }
    }

    /**
     * Compiles every job on {@code threads} threads in the given order; the cubins by job. The run's compiles share
     * one set of backends, as the compile server's and the Java API's do: their lazily built tables are the state
     * most exposed to races and to order.
     */
    private Map<String, byte[]> compileAll(List<Job> jobs, int threads, String run) throws Exception {
        Path out = Files.createDirectory(dir.resolve(run));
        Registries backends = Registries.shared();
        Map<String, byte[]> cubins = new ConcurrentHashMap<>();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (Job j : jobs) {
                fs.add(pool.submit(() -> {
                    Path cubin = out.resolve(j.key() + ".cubin");
                    List<String> args = new ArrayList<>(List.of("-arch=" + j.sm(), j.ptx(), "-o", cubin.toString()));
                    if (j.relocatable()) {
                        args.add("-c");
                    }
                    StringWriter err = new StringWriter();
                    int rc = new JptxasCommand(new PrintWriter(new StringWriter()), new PrintWriter(err), Map.of(),
                            null, Path.of(""), backends).run(args.toArray(String[]::new));
                    if (rc == 0) {
                        cubins.put(j.key(), Files.readAllBytes(cubin));
                    } else {
                        failures.add(j.key() + ": " + err.toString().lines().findFirst().orElse("exit " + rc));
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(failures.isEmpty(), run + ": " + failures);
        return cubins;
    }

    @Test
    void manyThreadsGiveTheSerialBytes() throws Exception {
        List<Job> jobs = new ArrayList<>();
        for (String ptx : BatchDeterminismTest.suitePtx()) {
            String text = Files.readString(Path.of(ptx));
            for (String sm : SMS) {
                // each kernel on the SMs its .target allows
                if (MutationAgreementTest.targetSm(text) > Integer.parseInt(sm.substring(3))) {
                    continue;
                }
                jobs.add(new Job(ptx, sm, false));
                jobs.add(new Job(ptx, sm, true));
            }
        }
        Map<String, byte[]> serial = compileAll(jobs, 1, "serial");
        // one parallel run in another order finds both: shared state that races, and caches whose contents
        // depend on what was compiled before
        List<Job> shuffled = new ArrayList<>(jobs);
        Collections.shuffle(shuffled, new Random(22));
        Map<String, byte[]> parallel = compileAll(shuffled, 8, "parallel-8");
        assertTrue(serial.size() >= 2 * 280, "compiled " + serial.size());
        for (var other : List.of(Map.entry("8 threads, shuffled", parallel))) {
            assertEquals(serial.keySet(), other.getValue().keySet(), other.getKey());
            List<String> differ = new ArrayList<>();
            serial.forEach((k, v) -> {
                if (!Arrays.equals(v, other.getValue().get(k))) {
                    differ.add(k);
                }
            });
            assertTrue(differ.isEmpty(), other.getKey() + ": cubins differ from the serial run's: " + differ);
        }
        System.out.println("parallel determinism: " + serial.size() + " compilations equal in 2 runs (1 thread in order, 8 threads shuffled)");
    }
}
