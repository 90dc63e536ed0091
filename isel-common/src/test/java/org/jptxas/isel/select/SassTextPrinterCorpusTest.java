package org.jptxas.isel.select;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.jptxas.isel.cubin.Cubin;
import org.jptxas.isel.cubin.Section;
import org.jptxas.isel.sass.SassInstruction;
import org.jptxas.isel.sass.SassIsa;
import org.jptxas.isel.sass.SassPrinter;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The printer against ptxas's own output: every instruction of ptxas-compiled cubins, decoded to nvdisasm's text,
 * read back into operands and printed again must give the same text (assemble → decode → print inside).
 */
class SassTextPrinterCorpusTest {
    static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    record Tally(AtomicInteger checked, AtomicInteger same, TreeMap<String, String> firstMismatch) {
        Tally() {
            this(new AtomicInteger(), new AtomicInteger(), new TreeMap<>());
        }

        double rate() {
            return checked.get() == 0 ? 1 : (double) same.get() / checked.get();
        }
    }

    static void check(Path ptx, String sm, Tally tally) throws Exception {
        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, sm);
        if (!c.ok()) {
            return;
        }
        Cubin cubin = Cubin.read(Files.readAllBytes(c.cubin().get()));
        SassIsa isa = SassIsa.forSm(sm);
        SassTextPrinter printer = new SassTextPrinter(isa);
        for (Section s : cubin.textSections()) {
            byte[] code = s.data();
            List<SassInstruction> insts = isa.decodeAll(code, 0, code.length);
            for (int i = 0; i < insts.size(); i++) {
                if (!(insts.get(i) instanceof SassInstruction.Known)) {
                    continue;
                }
                String expected = SassPrinter.text(insts.get(i), 16L * i, null).replace(".reuse", "");
                Optional<SelectedInstr> parsed = SassTextParser.parse(expected);
                if (parsed.isEmpty()) {
                    continue;
                }
                tally.checked.incrementAndGet();
                String got;
                try {
                    got = printer.print(parsed.get(), b -> "x").text();
                } catch (SelectionException e) {
                    got = "error: " + e.getMessage();
                }
                if (got.equals(expected)) {
                    tally.same.incrementAndGet();
                } else {
                    synchronized (tally.firstMismatch) {
                        tally.firstMismatch.putIfAbsent(expected.replaceAll("^@!?U?P\\d ", "").split(" ")[0],
                                sm + ": " + expected + "  <>  " + got);
                    }
                }
            }
        }
    }

    @Test
    void kernelSuiteInstructionsPrintBackExactly() throws Exception {
        Oracles.assumePtxas13();
        Tally t = new Tally();
        List<KernelCase> suite = KernelSuite.all();
        for (KernelCase k : suite.subList(0, Math.min(8, suite.size()))) {
            for (String sm : List.of("sm_75", "sm_80", "sm_90")) {
                check(k.ptx(), sm, t);
            }
        }
        System.out.printf("printer round trip, 8 suite kernels x 3 SMs: %d/%d (%.2f%%)%n", t.same.get(), t.checked.get(),
                100 * t.rate());
        t.firstMismatch.values().forEach(m -> System.out.println("  " + m));
        assertTrue(t.checked.get() > 300, "too few instructions checked: " + t.checked.get());
        assertTrue(t.rate() >= 0.99, "only " + t.same.get() + "/" + t.checked.get() + "\n" + t.firstMismatch);
    }

    @Test
    @Tag("slow")
    void corpusInstructionsPrintBackExactly() {
        List<Corpus.Entry> entries = Corpus.assumeEntries();
        Oracles.assumePtxas13();
        Tally t = new Tally();
        List<Runnable> jobs = new ArrayList<>();
        for (Corpus.Entry e : entries) {
            if (!e.ptxasAccepts()) {
                continue;
            }
            for (String sm : SMS) {
                jobs.add(() -> {
                    try {
                        check(e.file(), sm, t);
                    } catch (Exception x) {
                        throw new IllegalStateException(e.file() + " " + sm, x);
                    }
                });
            }
        }
        jobs.parallelStream().forEach(Runnable::run);
        System.out.printf("printer round trip, corpus x 5 SMs: %d/%d (%.3f%%)%n", t.same.get(), t.checked.get(),
                100 * t.rate());
        t.firstMismatch.values().forEach(m -> System.out.println("  " + m));
        assertTrue(t.rate() >= 0.99, "only " + t.same.get() + "/" + t.checked.get() + "\n" + t.firstMismatch);
    }
}
