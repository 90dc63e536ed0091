package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;
import org.jptxas.ori.diag.CompilationException;

/**
 * A module's functions compiled, in parallel where that cannot change the result ({@code --split-compile}): every
 * unit is optimized, then the units take their constant-bank-4 address slots one by one in module order (the
 * numbering a serial compilation gives), then the rest of each unit's code generation runs. The result, and the
 * failure reported when several units fail (the first in module order, as a serial compilation stops there), are the
 * same whatever the number of threads.
 */
final class UnitCompilation {
    private final FunctionCodegen codegen;
    private final List<FunctionCodegen.Unit> units;
    private final int threads;

    /** @param threads at most this many units at a time; 0 for one per processor, 1 for a serial compilation */
    UnitCompilation(FunctionCodegen codegen, List<FunctionCodegen.Unit> units, int threads) {
        this.codegen = codegen;
        this.units = List.copyOf(units);
        int cpus = Runtime.getRuntime().availableProcessors();
        this.threads = Math.min(units.size(), threads == 0 ? cpus : threads);
    }

    /** A unit's step, which may fail. */
    private interface Step {
        void run(int unit) throws CompilationException;
    }

    List<CompiledFunction> run() throws CompilationException {
        int n = units.size();
        List<List<FunctionCodegen.Staged>> staged = new ArrayList<>(java.util.Collections.nCopies(n, null));
        CompiledFunction[] compiled = new CompiledFunction[n];
        Throwable[] failed = new Throwable[n];
        // one pool for both parallel steps, none for a serial compilation
        ForkJoinPool pool = threads > 1 ? new ForkJoinPool(threads) : null;
        try {
            each(pool, n, failed, u -> staged.set(u, codegen.optimized(units.get(u))));
            int reached = firstFailure(failed, n);
            for (int u = 0; u < reached; u++) {
                try {
                    codegen.withAddresses(staged.get(u));
                } catch (CompilationException | RuntimeException | Error e) {
                    failed[u] = e;
                    reached = u;
                }
            }
            each(pool, reached, failed, u -> compiled[u] = codegen.finished(units.get(u), staged.get(u)));
        } finally {
            if (pool != null) {
                pool.shutdown();
            }
        }
        int first = firstFailure(failed, n);
        if (first < n) {
            rethrow(failed[first]);
        }
        return List.of(compiled);
    }

    /** Runs {@code step} on units {@code 0 .. count-1}, in {@code pool} (serially without one), failures by unit. */
    private static void each(ForkJoinPool pool, int count, Throwable[] failed, Step step) {
        if (pool == null || count <= 1) {
            for (int u = 0; u < count; u++) {
                attempt(step, u, failed);
            }
            return;
        }
        pool.submit(() -> IntStream.range(0, count).parallel().forEach(u -> attempt(step, u, failed))).join();
    }

    private static void attempt(Step step, int unit, Throwable[] failed) {
        try {
            step.run(unit);
        } catch (CompilationException | RuntimeException | Error e) {
            failed[unit] = e;
        }
    }

    private static int firstFailure(Throwable[] failed, int n) {
        for (int u = 0; u < n; u++) {
            if (failed[u] != null) {
                return u;
            }
        }
        return n;
    }

    private static void rethrow(Throwable t) throws CompilationException {
        if (t instanceof CompilationException c) {
            throw c;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        throw (Error) t;
    }
}
