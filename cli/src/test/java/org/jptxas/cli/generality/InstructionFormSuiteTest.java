package org.jptxas.cli.generality;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jptxas.cli.generality.FormSuite.Outcome;
import org.jptxas.cli.generality.FormSuite.Report;
import org.jptxas.tables.ptx.PtxInstructionSet;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 20's instruction-form suite: every form of the PTX instruction table the front end accepts for sm_75, sm_80,
 * sm_86, sm_89 and sm_90 (instruction, types, modifiers, operand kinds: registers, immediates, vectors, sinks, address
 * forms, guarded), each in a small kernel run on edge-case and random inputs by the PTX interpreter, the SASS emulator
 * on jptxas's cubin and the SASS emulator on ptxas 13's cubin. Per SM the counts of forms accepted, compiled, agreeing
 * with the interpreter on jptxas's cubin and agreeing three ways are figures; every failure is listed by kind in
 * {@code form-failures.tsv} ({@link FormFailures}) and in {@code cli/target/reports/instruction-forms.txt}.
 */
class InstructionFormSuiteTest {
    static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    static List<FormCase> cases() {
        return FormSuite.included(FormCatalog.all(PtxInstructionSet.bundled()));
    }

    @Test
    void catalogCoversEveryInstructionOfTheTable() {
        PtxInstructionSet set = PtxInstructionSet.bundled();
        Set<String> covered = new TreeSet<>();
        FormCatalog.all(set).forEach(c -> covered.add(c.opcode()));
        List<String> missing = new ArrayList<>();
        for (String op : set.instructions().keySet()) {
            if (!covered.contains(op) && FormCatalog.exclusionOf(op, List.of()) == null) {
                missing.add(op);
            }
        }
        assertEquals(List.of(), missing, "instructions of the table with no case and no exclusion");
        assertEquals(List.of(), FormCatalog.staleExclusions(set), "exclusions that match no form of the table");
        Figures.check("forms.cases", cases().size());
    }

    @Test
    @Tag("slow") // about 45 s per SM with ptxas's cubins cached (the first run compiles some 50,000 kernels with ptxas)
    void everyFormOnEverySm() throws IOException {
        Path ptxas = Oracles.assumePtxas13();
        List<FormCase> cases = cases();
        Path work = Files.createTempDirectory("forms");
        List<Report> reports = new ArrayList<>();
        for (String sm : SMS) {
            long t0 = System.nanoTime();
            Report r = FormSuite.run(sm, cases, ThreeWay.JPTXAS, ThreeWay.ptxas(ptxas, work), 2);
            System.out.printf("%s (%.0f s)%n", r.summary(), (System.nanoTime() - t0) / 1e9);
            reports.add(r);
        }
        writeReport(reports);
        if (Boolean.getBoolean("jptxas.forms.update")) {
            FormFailures.write(reports);
        }
        Gate gate = FormFailures.gate(reports, Boolean.getBoolean("jptxas.forms.update") ? knownOf(reports)
                : FormFailures.known());
        System.out.println(gate.summary());
        // every figure is checked (and, in update mode, recorded) before the first mismatch fails the test
        List<AssertionError> figures = new ArrayList<>();
        for (Report r : reports) {
            check(figures, "forms.accepted." + r.sm(), r.accepted());
            check(figures, "forms.compiled." + r.sm(), r.compiled());
            check(figures, "forms.jptxas." + r.sm(), r.jptxasAgrees());
            check(figures, "forms.agree." + r.sm(), r.agrees());
        }
        gate.verify(reports.stream().mapToInt(Report::accepted).sum());
        if (!figures.isEmpty()) {
            throw figures.get(0);
        }
        assertTrue(reports.stream().allMatch(r -> r.accepted() > 0), "an SM with no accepted form");
    }

    private static void check(List<AssertionError> failures, String key, long measured) {
        try {
            Figures.check(key, measured);
        } catch (AssertionError e) {
            failures.add(e);
        }
    }

    private static Map<String, String> knownOf(List<Report> reports) {
        return FormFailures.parse(FormFailures.render(reports));
    }

    static void writeReport(List<Report> reports) throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "reports"));
        StringBuilder sb = new StringBuilder("Instruction forms three ways (InstructionFormSuiteTest)\n\n");
        for (Report r : reports) {
            sb.append(r.summary()).append('\n');
        }
        for (Report r : reports) {
            sb.append("\n=== ").append(r.sm()).append('\n');
            r.byKind().forEach((k, l) -> {
                sb.append("\n-- ").append(k.what).append(" (").append(l.size()).append(")\n");
                for (Outcome o : l) {
                    sb.append(o.c().key()).append('\t').append(o.detail()).append('\n');
                }
            });
        }
        Files.writeString(dir.resolve("instruction-forms.txt"), sb.toString(), StandardCharsets.UTF_8);
    }
}
