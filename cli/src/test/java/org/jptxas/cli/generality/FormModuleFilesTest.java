package org.jptxas.cli.generality;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Writes the instruction-form suite's modules as PTX files ({@code -Djptxas.forms.moduleDir=DIR}, optionally
 * {@code -Djptxas.forms.sms=sm_80,sm_90}): {@code DIR/sm_XX/mNNN.ptx}, the suite kernels of up to
 * {@link FormSuite#MODULE} cases each, as the suite hands them to both compilers. For comparing what the compilers
 * print on them (warnings, messages) outside the suite. A tool (tagged {@code tool}).
 */
@Tag("tool")
class FormModuleFilesTest {
    @Test
    void writeModules() throws IOException {
        Path dir = Path.of(System.getProperty("jptxas.forms.moduleDir", "target/form-modules"));
        List<String> sms = Arrays.asList(System.getProperty("jptxas.forms.sms",
                String.join(",", InstructionFormSuiteTest.SMS)).split(","));
        List<FormCase> cases = InstructionFormSuiteTest.cases();
        FormKernels.Kernel[] kernels = new FormKernels.Kernel[cases.size()];
        List<Integer> rendered = FormKernels.renderAll(cases, kernels, false);
        List<List<Integer>> chunks = FormSuite.chunks(rendered, FormSuite.MODULE);
        for (String sm : sms) {
            Path out = Files.createDirectories(dir.resolve(sm));
            for (int m = 0; m < chunks.size(); m++) {
                List<FormKernels.Kernel> ks = chunks.get(m).stream().map(i -> kernels[i]).toList();
                Files.writeString(out.resolve(String.format("m%03d.ptx", m)), FormSuite.Module.of(sm, ks).text(),
                        StandardCharsets.UTF_8);
            }
        }
        System.out.printf("%d modules per SM in %s%n", chunks.size(), dir.toAbsolutePath());
    }
}
