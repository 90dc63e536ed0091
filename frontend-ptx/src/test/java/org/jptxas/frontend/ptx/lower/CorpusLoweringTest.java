package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.file.Path;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.frontend.ptx.TestFrontEnds;

/**
 * Every ptxas-accepted file of the shared corpus either lowers (verifier clean, every instruction with an sm_80
 * encoding) or stops with a "not yet supported" error naming an instruction, a variable or a target without code
 * generation; any other error is a
 * difference and any other exception a crash, by file. How many files lower is a figure. Prints the counts and the
 * instructions most often missing.
 */
class CorpusLoweringTest {
    /** One file's lowering: throws what the front end throws. */
    interface Lowering {
        OriModule lower(String name, String text, Target target) throws CompilationException;
    }

    static final Lowering FRONT_END = (name, text, target) -> TestFrontEnds.of(target).check(name, text).lower();

    /** The gate, how many files lowered, and the unsupported instructions by family. */
    record Result(Gate gate, int lowered, int instructions, Map<String, Integer> missing, List<String> gaps) {}

    /** The gate's core over (file, arch) entries. */
    static Result lowerAll(List<Corpus.Entry> entries, Lowering lowering) {
        Gate gate = Gate.named("corpus lowering");
        AtomicInteger lowered = new AtomicInteger();
        AtomicInteger instructions = new AtomicInteger();
        Map<String, Integer> missing = Collections.synchronizedMap(new TreeMap<>());
        List<String> gaps = Collections.synchronizedList(new ArrayList<>());
        entries.parallelStream().forEach(e -> {
            String name = e.file().getFileName().toString();
            String arch = e.arch().isBlank() ? "sm_80" : e.arch();
            Target target = Target.parse(arch).orElse(Target.of("sm_80"));
            try {
                String text = Files.readString(e.file());
                OriModule m;
                try {
                    m = lowering.lower(name, text, target);
                } catch (UnsupportedFeatureException u) {
                    String msg = u.diagnostics().get(0).message();
                    if (System.getenv("LOWER_VERBOSE") != null) {
                        System.out.println("unsupported: " + name + ": " + msg);
                    }
                    boolean noCodegen = msg.startsWith("Code generation for ");
                    if (!msg.startsWith("Instruction '") && !msg.startsWith("Variable '") && !noCodegen) {
                        gate.differ(name, "unsupported without naming an instruction: " + msg);
                        return;
                    }
                    missing.merge(msg.startsWith("Instruction '") ? KernelSuiteLoweringTest.missing(msg)
                            : noCodegen ? "(target without code generation)" : "(variable)", 1, Integer::sum);
                    gate.pass();
                    return;
                }
                List<String> problems = new ArrayList<>();
                NaiveSass sass = new NaiveSass();
                int n = 0;
                for (OriFunction fn : m.functions()) {
                    n += fn.body().instructionCount();
                    problems.addAll(IrVerifier.verify(fn.name(), fn.body()));
                    for (String p : sass.check(fn)) {
                        (NaiveSass.tableGap(p) ? gaps : problems).add(name + ": " + p);
                    }
                }
                instructions.addAndGet(n);
                if (problems.isEmpty()) {
                    lowered.incrementAndGet();
                    gate.pass();
                } else {
                    gate.differ(name, problems.size() + " problems, first: " + problems.get(0));
                }
            } catch (CompilationException c) {
                gate.differ(name, String.valueOf(c.getMessage()));
            } catch (Exception | StackOverflowError x) {
                gate.crash(name, x);
            }
        });
        return new Result(gate, lowered.get(), instructions.get(), new TreeMap<>(missing), List.copyOf(gaps));
    }

    @Test
    @Tag("slow")
    void corpusLowersOrNamesWhatIsMissing() {
        List<Corpus.Entry> entries = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).toList();
        Result r = lowerAll(entries, FRONT_END);
        List<Map.Entry<String, Integer>> top = new ArrayList<>(r.missing().entrySet());
        top.sort((a, b) -> b.getValue() - a.getValue());
        System.out.println("corpus: " + entries.size() + " ptxas-accepted files, " + r.lowered() + " lowered ("
                + r.instructions() + " Ori instructions); unsupported by instruction: " + top);
        System.out.println(r.gate().summary());
        System.out.println(r.gaps().size() + " instructions hit SASS-table gaps");
        if (System.getenv("LOWER_GAPS") != null) {
            r.gaps().forEach(g -> System.out.println("GAP " + g));
        }
        r.gate().verify(Math.max(1, entries.size()));
        Figures.check("frontend.corpus.lowered", r.lowered());
    }

    private static Corpus.Entry planted(Path dir, String text) throws IOException {
        Path f = dir.resolve("k.ptx");
        Files.writeString(f, text);
        return new Corpus.Entry(f, Map.of("ptxas", "ok", "ptxas_arch", "sm_80"));
    }

    static final String KERNEL = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n  ret;\n}\n";

    @Test
    void theGateCountsALoweredFileAndFailsOnNothingACrashAndAnUnnamedRefusal(@TempDir Path dir) throws IOException {
        Corpus.Entry e = planted(dir, KERNEL);
        Result ok = lowerAll(List.of(e), FRONT_END);
        ok.gate().verify(1);
        assertEquals(1, ok.lowered());
        assertFalse(lowerAll(List.of(), FRONT_END).gate().passes(1), "an empty corpus");
        Result crash = lowerAll(List.of(e), (n, t, target) -> {
            throw new IllegalStateException("planted");
        });
        assertEquals(1, crash.gate().crashes().size());
        Result unnamed = lowerAll(List.of(e), (n, t, target) -> {
            throw new UnsupportedFeatureException(n, 1, "something unnamed");
        });
        assertFalse(unnamed.gate().passes(1));
    }
}
