package org.jptxas.cli.generality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.jptxas.cli.generality.FormSuite.Report;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The instruction-form suite on some opcodes only ({@code -Djptxas.forms.opcodes=bar,barrier}, optionally
 * {@code -Djptxas.forms.sms=sm_80,sm_90}): a quick measure after a change to those instructions, where the whole
 * suite takes half an hour. It writes {@code target/reports/form-sample.txt}: the summary per SM, the failure-list
 * rows of those opcodes as the suite would now write them, the listed rows that no longer occur, and each failure's
 * detail (which output differs, with both values). A tool, not a
 * gate (tagged {@code tool}: no build runs it unless asked with {@code -DexcludedTestGroups=none}).
 */
@Tag("tool")
class FormSuiteSampleTest {
    @Test
    void sampleOfTheSuite() throws IOException {
        Path ptxas = Oracles.assumePtxas13();
        Set<String> opcodes = Set.of(System.getProperty("jptxas.forms.opcodes", "").split(","));
        List<String> sms = Arrays.asList(System.getProperty("jptxas.forms.sms",
                String.join(",", InstructionFormSuiteTest.SMS)).split(","));
        List<FormCase> cases = InstructionFormSuiteTest.cases().stream().filter(c -> opcodes.contains(c.opcode()))
                .toList();
        Path work = Files.createTempDirectory("forms");
        List<Report> reports = new ArrayList<>();
        StringBuilder out = new StringBuilder();
        for (String sm : sms) {
            Report r = FormSuite.run(sm, cases, ThreeWay.JPTXAS, ThreeWay.ptxas(ptxas, work), 2);
            out.append(r.summary()).append('\n');
            reports.add(r);
        }
        Map<String, String> now = FormFailures.parse(FormFailures.render(reports));
        Set<String> caseKeys = cases.stream().map(FormCase::key).collect(Collectors.toSet());
        Map<String, String> stale = new TreeMap<>();
        FormFailures.known().forEach((k, v) -> {
            String example = v.replaceFirst("^\\d+ cases, e.g. ", "");
            if (sms.contains(k.substring(0, k.indexOf(' '))) && caseKeys.contains(example) && !now.containsKey(k)) {
                stale.put(k, v);
            }
        });
        out.append("\n-- rows now (").append(now.size()).append(")\n");
        now.forEach((k, v) -> out.append(k).append('\t').append(v).append('\n'));
        out.append("\n-- listed rows of these cases that no longer occur (").append(stale.size()).append(")\n");
        stale.forEach((k, v) -> out.append(k).append('\t').append(v).append('\n'));
        out.append("\n-- each failure's detail\n");
        for (Report r : reports) {
            for (FormSuite.Outcome o : r.failures()) {
                out.append(r.sm()).append(" | ").append(o.kind()).append(" | ").append(o.c().key()).append('\t')
                        .append(o.detail()).append('\n');
            }
        }
        Path dir = Files.createDirectories(Path.of("target", "reports"));
        Files.writeString(dir.resolve("form-sample.txt"), out.toString(), StandardCharsets.UTF_8);
        System.out.print(out);
    }
}
