package org.jptxas.cli.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.opt.OptPipeline;
import org.jptxas.ori.opt.Pass;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.spi.TestTargets;

/**
 * What the mid-level optimizer does to lowered PTX: every kernel of the suite (and, tagged slow, every corpus file
 * ptxas accepts) is lowered for sm_80 and run through {@code OptPipeline.forLevel(3)} with the verifier after each
 * pass; the report gives the Ori instruction count before and after and the share each pass removed. Each function
 * is a gate item: a pass, a broken function (a difference), or a crash of the front end or the optimizer. A file the
 * front end refuses with a diagnostic (an instruction out of scope, a feature sm_80 lacks) is counted, by name, and
 * is no item; the counts are figures.
 */
class OptReductionReportTest {
    private static final org.jptxas.ori.target.TargetProfile SM80 = TestTargets.profile("sm_80");

    /** Totals over many functions: instructions before, after, removed by each pass; the gate; refused inputs. */
    static final class Tally {
        final AtomicLong before = new AtomicLong();
        final AtomicLong after = new AtomicLong();
        final Map<String, AtomicLong> byPass = new ConcurrentHashMap<>();
        final Map<String, String> refused = new ConcurrentHashMap<>();
        final Gate gate;

        Tally(String name) {
            gate = Gate.named(name);
        }

        void add(String name, Path ptx) {
            String text;
            try {
                text = Files.readString(ptx, StandardCharsets.ISO_8859_1);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            add(name, text, (file, t) -> TestFrontEnds.of(SM80.target()).check(file, t).lower());
        }

        /** {@code lowering} is the front end, or a planted one in the fault test. */
        void add(String name, String text, Lowering lowering) {
            OriModule module;
            try {
                module = lowering.lower(name, text);
            } catch (CompilationException e) {
                refused.put(name, e.getMessage());
                return;
            } catch (RuntimeException | StackOverflowError e) {
                gate.crash(name + " (lowering)", e);
                return;
            }
            for (OriFunction f : module.functions()) {
                if (f.body().blocks().isEmpty()) {
                    continue;
                }
                String key = name + " " + f.name();
                int n0 = f.body().instructionCount();
                // A device function's parameters are read before any write: the input's own problems are not ours.
                List<String> input = IrVerifier.verify(f.name(), f.body());
                Map<String, Long> removed = new LinkedHashMap<>();
                int[] last = {n0};
                try {
                    OptPipeline.forLevel(3).verifying(true).observedBy((Pass p, OriFunction fn, boolean changed) -> {
                        int n = fn.body().instructionCount();
                        removed.merge(p.name(), (long) (last[0] - n), Long::sum);
                        last[0] = n;
                    }).run(f, SM80);
                } catch (RuntimeException | StackOverflowError e) {
                    gate.crash(key, e);
                    continue;
                }
                List<String> problems = new ArrayList<>(IrVerifier.verify(f.name(), f.body()));
                problems.removeAll(input);
                if (!problems.isEmpty()) {
                    gate.differ(key, problems.get(0));
                    continue;
                }
                gate.pass();
                before.addAndGet(n0);
                after.addAndGet(f.body().instructionCount());
                removed.forEach((p, n) -> byPass.computeIfAbsent(p, k -> new AtomicLong()).addAndGet(n));
            }
        }

        String format(String title) {
            StringBuilder sb = new StringBuilder("== ").append(title).append(" ==\n");
            long b = before.get();
            long a = after.get();
            sb.append(String.format(Locale.ROOT, "%d functions (%d inputs refused by the front end): Ori instructions "
                    + "%d -> %d (%.1f%% fewer)%n", gate.compared(), refused.size(), b, a, b == 0 ? 0.0 : 100.0 * (b - a) / b));
            Map<String, AtomicLong> ordered = new LinkedHashMap<>();
            for (Pass p : OptPipeline.forLevel(3).passes()) {
                ordered.putIfAbsent(p.name(), byPass.getOrDefault(p.name(), new AtomicLong()));
            }
            ordered.forEach((name, removed) -> sb.append(String.format(Locale.ROOT, "   %-10s %7d (%.1f%%)%n", name,
                    removed.get(), b == 0 ? 0.0 : 100.0 * removed.get() / b)));
            new TreeMap<>(refused).forEach((f, why) -> sb.append("   refused ").append(f).append(": ").append(why)
                    .append('\n'));
            sb.append(gate.summary()).append('\n');
            return sb.toString();
        }
    }

    /** PTX text to Ori: the front end's lowering, or a planted one. */
    @FunctionalInterface
    interface Lowering {
        OriModule lower(String file, String text) throws CompilationException;
    }

    /** The suite's verdict: every kernel lowers and every function is optimized and well formed. */
    static void verifySuite(Tally t, int functions) {
        assertEquals(Map.of(), t.refused, "every suite kernel lowers");
        t.gate.verify(functions);
        assertTrue(t.after.get() < t.before.get(), "-O3 removes instructions");
    }

    @Test
    void kernelSuiteShrinksAndStaysWellFormed() {
        Tally t = new Tally("mid-level optimizer on the kernel suite");
        // lowered for sm_80: kernels that need a newer SM (sm_90's bulk copies) are the backends' suite tests'
        KernelSuite.all().parallelStream().filter(k -> k.minSm() <= 80)
                .forEach((KernelCase k) -> t.add(k.name(), k.ptx()));
        String text = t.format("mid-level optimizer on the kernel suite (sm_80, -O3)");
        System.out.print(text);
        CodegenRatioReport.write("opt-reduction-suite.txt", text);
        verifySuite(t, Figures.get("opt.suite.functions").value().intValue());
        Figures.check("opt.suite.functions", t.gate.compared());
    }

    /** The gate fails on a front end that crashes, on one that gives no functions, and on no input at all. */
    @Test
    void gateFailsOnPlantedFaults() throws Exception {
        int functions = Figures.get("opt.suite.functions").value().intValue();
        String saxpy = Files.readString(KernelSuite.byName("saxpy").orElseThrow().ptx(), StandardCharsets.ISO_8859_1);
        Tally real = new Tally("real");
        real.add("saxpy", saxpy, (file, t) -> TestFrontEnds.of(SM80.target()).check(file, t).lower());
        real.gate.verify(1);

        Tally crash = new Tally("crash");
        crash.add("saxpy", saxpy, (file, t) -> {
            throw new IllegalStateException("planted lowering crash");
        });
        assertTrue(org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.AssertionFailedError.class,
                () -> crash.gate.verify(1)).getMessage().contains("saxpy (lowering): java.lang.IllegalStateException"));

        Tally empty = new Tally("no functions");
        empty.add("saxpy", saxpy, (file, t) -> new OriModule(file, SM80.target(), List.of()));
        org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.AssertionFailedError.class,
                () -> verifySuite(empty, functions));
        org.junit.jupiter.api.Assertions.assertThrows(org.opentest4j.AssertionFailedError.class,
                () -> verifySuite(new Tally("no input"), functions));
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

    /** The suite's Ori instruction count after {@code passes}; a kernel that does not lower fails the test. */
    private static long countAfter(List<Pass> passes) {
        return KernelSuite.all().parallelStream().filter(k -> k.minSm() <= 80).mapToLong(k -> {
            try {
                String text = Files.readString(k.ptx(), StandardCharsets.ISO_8859_1);
                OriModule m = TestFrontEnds.of(SM80.target()).check(k.name(), text).lower();
                long total = 0;
                for (OriFunction f : m.functions()) {
                    if (!f.body().blocks().isEmpty()) {
                        OptPipeline.of(passes).run(f, SM80);
                        total += f.body().instructionCount();
                    }
                }
                return total;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (CompilationException e) {
                throw new IllegalStateException(k.name() + " does not lower: " + e.getMessage(), e);
            }
        }).sum();
    }

    @Test
    @Tag("slow")
    void corpusShrinksAndStaysWellFormed() {
        Tally t = new Tally("mid-level optimizer on the shared corpus");
        List<Corpus.Entry> accepted = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).toList();
        accepted.parallelStream().forEach(e -> t.add(e.file().getFileName().toString(), e.file()));
        String text = t.format("mid-level optimizer on the shared corpus (sm_80, -O3)");
        System.out.print(text);
        CodegenRatioReport.write("opt-reduction-corpus.txt", text);
        t.gate.verify(Figures.get("opt.corpus.functions").value().intValue());
        Figures.check("opt.corpus.files", accepted.size() - t.refused.size());
        Figures.check("opt.corpus.functions", t.gate.compared());
    }
}
