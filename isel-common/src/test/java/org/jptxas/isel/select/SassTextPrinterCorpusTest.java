package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.isel.gates.GateRuns;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/**
 * The printer against ptxas's own output: every instruction of ptxas-compiled cubins, decoded to nvdisasm's text,
 * read back into operands and printed again must give the same text (assemble → decode → print inside). An
 * instruction the decoder does not know or the test's parser cannot read is not compared, and counted: their
 * numbers are figures, so neither can grow unseen.
 */
class SassTextPrinterCorpusTest {
    static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    /**
     * The instructions that print differently, exactly: none since IMAD's 32-bit immediate prints signed in every
     * form, as nvdisasm prints it.
     */
    static final Map<String, String> CORPUS_KNOWN = Map.of();

    /** The printer under test: {@code SassTextPrinter} of the SM (one per cubin: it remembers what it printed). */
    static Function<SelectedInstr, String> printer(SassIsa isa) {
        SassTextPrinter printer = new SassTextPrinter(isa);
        return instr -> {
            try {
                return printer.print(instr, b -> "x").text();
            } catch (SelectionException e) {
                return "error: " + e.getMessage();
            }
        };
    }

    /** What a gate run did not compare, by reason. */
    record Uncompared(AtomicInteger unknown, AtomicInteger unparsed, Map<String, Integer> unparsedByOpcode) {
        Uncompared() {
            this(new AtomicInteger(), new AtomicInteger(), new java.util.concurrent.ConcurrentSkipListMap<>());
        }
    }

    /** The gate: one item per decoded instruction of each job's ptxas 13 cubin. */
    static Gate roundTrip(String name, List<CorpusCubin> jobs, Function<CorpusCubin, OracleCubins.Compiled> compile,
                          Map<String, String> known, Function<SassIsa, Function<SelectedInstr, String>> printerFor,
                          Uncompared uncompared) {
        Gate gate = Gate.withKnown(name, known);
        GateRuns.each(jobs, CorpusCubin::describe, gate, job -> {
            byte[] bytes = job.bytes(compile, gate);
            if (bytes == null) {
                return;
            }
            Cubin cubin = Cubin.read(bytes);
            SassIsa isa = TestTargets.of(job.arch()).isa();
            Function<SelectedInstr, String> printer = printerFor.apply(isa);
            for (Section s : cubin.textSections()) {
                byte[] code = s.data();
                List<SassInstruction> insts = isa.decodeAll(code, 0, code.length);
                for (int i = 0; i < insts.size(); i++) {
                    if (!(insts.get(i) instanceof SassInstruction.Known)) {
                        uncompared.unknown().incrementAndGet();
                        continue;
                    }
                    String expected = SassPrinter.text(insts.get(i), 16L * i, null).replace(".reuse", "");
                    var parsed = SassTextParser.parse(expected);
                    if (parsed.isEmpty()) {
                        uncompared.unparsed().incrementAndGet();
                        uncompared.unparsedByOpcode().merge(expected.replaceAll("^@!?U?P\\w+ ", "").split("[ .]")[0],
                                1, Integer::sum);
                        continue;
                    }
                    String got = printer.apply(parsed.get());
                    if (got.equals(expected)) {
                        gate.pass();
                    } else {
                        gate.differ(job.arch() + ": " + expected, got);
                    }
                }
            }
        });
        return gate;
    }

    @Test
    void kernelSuiteInstructionsPrintBackExactly() {
        Oracles.assumePtxas13();
        List<KernelCase> suite = KernelSuite.all();
        List<CorpusCubin> jobs = new ArrayList<>();
        for (KernelCase k : suite.subList(0, Math.min(8, suite.size()))) {
            for (String sm : List.of("sm_75", "sm_80", "sm_90")) {
                jobs.add(new CorpusCubin(new Corpus.Entry(k.ptx(), Map.of()), sm, false));
            }
        }
        Uncompared un = new Uncompared();
        Gate gate = roundTrip("printer round trip, 8 suite kernels x 3 SMs", jobs, CorpusCubin::compile, Map.of(),
                SassTextPrinterCorpusTest::printer, un);
        System.out.println(gate.summary() + "; not compared: " + un.unknown() + " UNKNOWN, " + un.unparsed()
                + " the parser cannot read");
        gate.verify(2262);
    }

    @Test
    @Tag("slow")
    void corpusInstructionsPrintBackExactly() {
        Oracles.assumePtxas13();
        List<CorpusCubin> jobs = new ArrayList<>();
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            if (e.ptxasAccepts()) {
                SMS.forEach(sm -> jobs.add(new CorpusCubin(e, sm, false)));
            }
        }
        Uncompared un = new Uncompared();
        Gate gate = roundTrip("printer round trip, corpus x 5 SMs", jobs, CorpusCubin::compile, CORPUS_KNOWN,
                SassTextPrinterCorpusTest::printer, un);
        System.out.println(gate.summary() + "; not compared: " + un.unknown() + " UNKNOWN, " + un.unparsed()
                + " the parser cannot read: " + un.unparsedByOpcode());
        gate.verify(1);
        Figures.check("sass.printer.corpus.compared", gate.compared());
        Figures.check("sass.printer.corpus.unparsed", un.unparsed().get());
        Figures.check("sass.printer.corpus.unknown", un.unknown().get());
    }
}
