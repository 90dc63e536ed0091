package org.jptxas.cli.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.opt.OptPipeline;
import org.jptxas.ori.opt.Pass;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the mid-level optimizer does to lowered PTX: every kernel of the suite (and, tagged slow, every corpus file)
 * is lowered for sm_80 and run through {@code OptPipeline.forLevel(3)} with the verifier after each pass; the
 * report gives the Ori instruction count before and after and the share each pass removed.
 */
class OptReductionReportTest {
    private static final Target SM80 = Target.of("sm_80");

    /** Totals over many functions: instructions before, after, removed by each pass, functions, failures. */
    static final class Tally {
        final AtomicLong before = new AtomicLong();
        final AtomicLong after = new AtomicLong();
        final Map<String, AtomicLong> byPass = new ConcurrentHashMap<>();
        final AtomicInteger functions = new AtomicInteger();
        final AtomicInteger notLowered = new AtomicInteger();
        final List<String> broken = java.util.Collections.synchronizedList(new ArrayList<>());

        void add(String name, Path ptx) {
            OriModule module;
            try {
                String text = Files.readString(ptx, StandardCharsets.ISO_8859_1);
                module = new PtxFrontEnd(SM80).check(ptx.getFileName().toString(), text).lower();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exception | StackOverflowError e) {
                notLowered.incrementAndGet();
                return;
            }
            for (OriFunction f : module.functions()) {
                if (f.body().blocks().isEmpty()) {
                    continue;
                }
                int n0 = f.body().instructionCount();
                // A device function's parameters are read before any write: the input's own problems are not ours.
                List<String> input = IrVerifier.verify(f.name(), f.body());
                int[] last = {n0};
                try {
                    OptPipeline.forLevel(3).verifying(true).observedBy((Pass p, OriFunction fn, boolean changed) -> {
                        int n = fn.body().instructionCount();
                        byPass.computeIfAbsent(p.name(), k -> new AtomicLong()).addAndGet(last[0] - n);
                        last[0] = n;
                    }).run(f, SM80);
                } catch (RuntimeException e) {
                    broken.add(name + " " + f.name() + ": " + e.getMessage());
                    continue;
                }
                List<String> problems = new ArrayList<>(IrVerifier.verify(f.name(), f.body()));
                problems.removeAll(input);
                if (!problems.isEmpty()) {
                    broken.add(name + " " + f.name() + ": " + problems.get(0));
                }
                before.addAndGet(n0);
                after.addAndGet(f.body().instructionCount());
                functions.incrementAndGet();
            }
        }

        String format(String title) {
            StringBuilder sb = new StringBuilder("== ").append(title).append(" ==\n");
            long b = before.get();
            long a = after.get();
            sb.append(String.format(Locale.ROOT, "%d functions (%d inputs not lowered yet): Ori instructions %d -> %d"
                    + " (%.1f%% fewer)%n", functions.get(), notLowered.get(), b, a, b == 0 ? 0.0 : 100.0 * (b - a) / b));
            Map<String, AtomicLong> ordered = new LinkedHashMap<>();
            for (Pass p : OptPipeline.forLevel(3).passes()) {
                ordered.putIfAbsent(p.name(), byPass.getOrDefault(p.name(), new AtomicLong()));
            }
            ordered.forEach((name, removed) -> sb.append(String.format(Locale.ROOT, "   %-10s %7d (%.1f%%)%n", name,
                    removed.get(), b == 0 ? 0.0 : 100.0 * removed.get() / b)));
            broken.stream().limit(20).forEach(x -> sb.append("   BROKEN ").append(x).append('\n'));
            return sb.toString();
        }
    }

    @Test
    void kernelSuiteShrinksAndStaysWellFormed() {
        Tally t = new Tally();
        KernelSuite.all().parallelStream().forEach((KernelCase k) -> t.add(k.name(), k.ptx()));
        String text = t.format("mid-level optimizer on the kernel suite (sm_80, -O3)");
        System.out.print(text);
        CodegenRatioReport.write("opt-reduction-suite.txt", text);
        assertTrue(t.broken.isEmpty(), text);
        assertTrue(t.functions.get() == 0 || t.after.get() < t.before.get(), text);
    }

    /**
     * What each pass is worth: the suite's Ori instruction count after -O3 without that one pass, against full -O3
     * (propagation passes remove nothing themselves; dead-code elimination removes what they free).
     */
    @Test
    void eachPassesShareOfTheReduction() {
        List<Pass> all = OptPipeline.forLevel(3).passes();
        long full = countAfter(all);
        long none = countAfter(List.of());
        StringBuilder sb = new StringBuilder("== -O3 without one pass, kernel suite on sm_80 (Ori instructions) ==\n");
        sb.append(String.format(Locale.ROOT, "   lowered %d, -O3 %d (%.1f%% fewer)%n", none, full, 100.0 * (none - full) / none));
        java.util.Set<String> names = new java.util.LinkedHashSet<>();
        all.forEach(p -> names.add(p.name()));
        for (String name : names) {
            long without = countAfter(all.stream().filter(p -> !p.name().equals(name)).toList());
            sb.append(String.format(Locale.ROOT, "   without %-10s %6d (+%d, the pass is worth %.1f%% of the lowered code)%n",
                    name, without, without - full, 100.0 * (without - full) / none));
        }
        System.out.print(sb);
        CodegenRatioReport.write("opt-ablation-suite.txt", sb.toString());
        assertTrue(full < none, sb.toString());
    }

    private static long countAfter(List<Pass> passes) {
        AtomicLong total = new AtomicLong();
        KernelSuite.all().parallelStream().forEach(k -> {
            try {
                String text = Files.readString(k.ptx(), StandardCharsets.ISO_8859_1);
                OriModule m = new PtxFrontEnd(SM80).check(k.name(), text).lower();
                for (OriFunction f : m.functions()) {
                    if (!f.body().blocks().isEmpty()) {
                        OptPipeline.of(passes).run(f, SM80);
                        total.addAndGet(f.body().instructionCount());
                    }
                }
            } catch (Exception | StackOverflowError e) {
                // not lowered yet: left out of every configuration alike
            }
        });
        return total.get();
    }

    @Test
    @Tag("slow")
    void corpusShrinksAndStaysWellFormed() {
        Tally t = new Tally();
        Corpus.assumeEntries().parallelStream().filter(Corpus.Entry::ptxasAccepts)
                .forEach(e -> t.add(e.file().getFileName().toString(), e.file()));
        String text = t.format("mid-level optimizer on the shared corpus (sm_80, -O3)");
        System.out.print(text);
        CodegenRatioReport.write("opt-reduction-corpus.txt", text);
        assertTrue(t.broken.isEmpty(), text);
    }
}
