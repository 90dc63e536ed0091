package org.jptxas.frontend.ptx.corpus;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.target.Target;
import org.jptxas.frontend.ptx.TestFrontEnds;

/**
 * Runs mutated PTX through parse + check and records every case that ended in anything but acceptance or positioned
 * diagnostics: an exception, a hang, or a rejection without a line number.
 */
final class MutationHarness {
    /** Fatal diagnostics that are about the command line, not a place in the file. */
    private static boolean unpositionedByDesign(Diagnostic d) {
        return d.message().startsWith("SM version specified by .target")
                || d.message().startsWith("PTX with .target")
                || d.message().startsWith("Unresolved extern function"); // ptxas gives no line either
    }

    record Outcome(int cases, int accepted, int rejected, List<String> problems) {
    }

    static Outcome run(List<String> texts, List<String> names, Target target, long seed, int maxCases, long budgetMillis)
            throws InterruptedException {
        Random random = new Random(seed);
        List<Mutator> mutators = texts.stream().map(Mutator::new).toList();
        List<String> problems = new ArrayList<>();
        int accepted = 0;
        int rejected = 0;
        int cases = 0;
        long deadline = System.currentTimeMillis() + budgetMillis;
        ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(null, r, "mutation-worker", 64L << 20);
            t.setDaemon(true);
            return t;
        });
        try {
            while (cases < maxCases && System.currentTimeMillis() < deadline && problems.size() < 20) {
                int f = random.nextInt(mutators.size());
                Mutator.Mutation m = mutators.get(f).mutate(random);
                String label = names.get(f) + " / " + m.description();
                cases++;
                Future<List<Diagnostic>> result = worker.submit(() -> {
                    try {
                        TestFrontEnds.of(target).check(names.get(f), m.text());
                        return List.of();
                    } catch (CompilationException e) {
                        return e.diagnostics();
                    }
                });
                try {
                    List<Diagnostic> diags = result.get(20, TimeUnit.SECONDS);
                    if (diags.isEmpty()) {
                        accepted++;
                    } else {
                        rejected++;
                        boolean positioned = diags.stream().anyMatch(d -> d.line() > 0 || unpositionedByDesign(d));
                        if (!positioned) {
                            problems.add(label + ": no positioned diagnostic: " + diags);
                        }
                    }
                } catch (TimeoutException e) {
                    result.cancel(true);
                    problems.add(label + ": hang (over 20 s)");
                    break;
                } catch (java.util.concurrent.ExecutionException e) {
                    problems.add(label + ": " + e.getCause());
                }
            }
        } finally {
            worker.shutdownNow();
        }
        return new Outcome(cases, accepted, rejected, problems);
    }
}
