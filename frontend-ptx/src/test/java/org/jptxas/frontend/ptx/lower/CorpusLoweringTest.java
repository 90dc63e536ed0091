package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.Corpus;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every ptxas-accepted file of the shared corpus either lowers (verifier clean, every instruction with an sm_80
 * encoding) or stops with a "not yet supported" error naming an instruction or variable; any other exception fails.
 * Prints the counts and the instructions most often missing.
 */
@Tag("slow")
class CorpusLoweringTest {
    @Test
    void corpusLowersOrNamesWhatIsMissing() {
        List<Corpus.Entry> entries = Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).toList();
        AtomicInteger lowered = new AtomicInteger();
        AtomicInteger instructions = new AtomicInteger();
        Map<String, Integer> missing = Collections.synchronizedMap(new TreeMap<>());
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        List<String> gaps = Collections.synchronizedList(new ArrayList<>());
        entries.parallelStream().forEach(e -> {
            String name = e.file().getFileName().toString();
            String arch = e.arch().isBlank() ? "sm_80" : e.arch();
            Target target = Target.parse(arch).orElse(Target.of("sm_80"));
            try {
                String text = Files.readString(e.file());
                OriModule m;
                try {
                    m = new PtxFrontEnd(target).check(name, text).lower();
                } catch (UnsupportedFeatureException u) {
                    String msg = u.diagnostics().get(0).message();
                    if (!msg.startsWith("Instruction '") && !msg.startsWith("Variable '")) {
                        problems.add(name + ": unsupported without naming an instruction: " + msg);
                    }
                    if (System.getenv("LOWER_VERBOSE") != null) {
                        System.out.println("unsupported: " + name + ": " + msg);
                    }
                    missing.merge(msg.startsWith("Instruction '") ? KernelSuiteLoweringTest.missing(msg) : "(variable)", 1,
                            Integer::sum);
                    return;
                }
                lowered.incrementAndGet();
                NaiveSass sass = new NaiveSass();
                for (OriFunction fn : m.functions()) {
                    instructions.addAndGet(fn.body().instructionCount());
                    IrVerifier.verify(fn.name(), fn.body()).forEach(p -> problems.add(name + ": " + p));
                    for (String p : sass.check(fn)) {
                        (NaiveSass.tableGap(p) ? gaps : problems).add(name + ": " + p);
                    }
                }
            } catch (CompilationException c) {
                problems.add(name + ": " + c.getMessage());
            } catch (Exception | StackOverflowError x) {
                StackTraceElement[] st = x.getStackTrace();
                problems.add(name + ": " + x + (st.length > 0 ? " at " + st[0] : ""));
            }
        });
        List<Map.Entry<String, Integer>> top = new ArrayList<>(missing.entrySet());
        top.sort((a, b) -> b.getValue() - a.getValue());
        System.out.println("corpus: " + entries.size() + " ptxas-accepted files, " + lowered + " lowered ("
                + instructions + " Ori instructions), " + (entries.size() - lowered.get()) + " unsupported; "
                + "first missing instruction: " + top);
        System.out.println(gaps.size() + " instructions hit SASS-table gaps");
        if (System.getenv("LOWER_GAPS") != null) {
            gaps.forEach(g -> System.out.println("GAP " + g));
        }
        problems.stream().limit(80).forEach(System.out::println);
        assertEquals(List.of(), problems.stream().limit(20).toList(), problems.size() + " problems");
    }
}
