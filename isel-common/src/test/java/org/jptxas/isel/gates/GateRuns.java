package org.jptxas.isel.gates;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jptxas.testing.gate.Gate;

/** Runs a gate's items on the machine's two cores; an item whose work throws is a crash of our code, by its key. */
public final class GateRuns {
    private GateRuns() {}

    public static <T> void each(List<T> items, Function<T, String> key, Gate gate, Consumer<T> work) {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (T item : items) {
                futures.add(pool.submit(() -> {
                    try {
                        work.accept(item);
                    } catch (RuntimeException | Error e) {
                        gate.crash(key.apply(item), e);
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } finally {
            pool.shutdownNow();
        }
    }
}
