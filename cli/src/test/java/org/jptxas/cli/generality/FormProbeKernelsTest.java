package org.jptxas.cli.generality;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jptxas.cli.generality.FormKernels.Kernel;
import org.jptxas.cli.generality.ThreeWay.Compiled;
import org.jptxas.cli.generality.ThreeWay.Compiler;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Writes the sass-probe kernels of the instruction-form suite: per SM, the suite's kernels whose ptxas 13 cubin holds
 * a word jptxas's decoder cannot read (the emulator stops at it, and the case cannot agree three ways), a few per
 * dispatch key, as one module {@code forms_<sm>.ptx} in {@code -Djptxas.forms.probeDir}. {@code tools/sass-probe/probe
 * add} then learns their forms from ptxas's and nvdisasm's output. Not a check: tagged 'tool', which no build runs
 * unless asked: {@code mvn -Pcorpus -DexcludedTestGroups=none -Dtest=FormProbeKernelsTest -Djptxas.forms.probeDir=DIR}.
 */
class FormProbeKernelsTest {
    /** Kernels kept per unreadable dispatch key (bits [11:0] and [91]). */
    static final int PER_KEY = 3;

    @Test
    @Tag("tool")
    @EnabledIfSystemProperty(named = "jptxas.forms.probeDir", matches = ".+")
    void writeProbeKernels() throws IOException {
        Path out = Files.createDirectories(Path.of(System.getProperty("jptxas.forms.probeDir")));
        Compiler ptxas = ThreeWay.ptxas(Oracles.assumePtxas13(), Files.createTempDirectory("form-probe"));
        List<FormCase> cases = InstructionFormSuiteTest.cases();
        for (String sm : InstructionFormSuiteTest.SMS) {
            SassIsa isa = TestTargets.of(sm).isa();
            Kernel[] kernels = new Kernel[cases.size()];
            List<Integer> rendered = FormKernels.renderAll(cases, kernels, false);
            Map<Integer, List<Kernel>> byKey = new LinkedHashMap<>();
            for (List<Integer> chunk : FormSuite.chunks(rendered, FormSuite.MODULE)) {
                List<Kernel> ks = FormSuite.frontEnd(sm, chunk, kernels).stream().map(i -> kernels[i]).toList();
                if (ks.isEmpty() || unreadableKeys(isa, ptxas.compile("forms.ptx",
                        FormSuite.Module.of(sm, ks).text(), sm)).isEmpty() && !failed(ptxas, sm, ks)) {
                    continue;
                }
                for (Kernel k : ks) {
                    for (int key : unreadableKeys(isa, ptxas.compile("forms.ptx",
                            FormSuite.Module.of(sm, List.of(k)).text(), sm))) {
                        List<Kernel> kept = byKey.computeIfAbsent(key, x -> new ArrayList<>());
                        if (kept.size() < PER_KEY && !kept.contains(k)) {
                            kept.add(k);
                        }
                    }
                }
            }
            List<Kernel> chosen = new ArrayList<>();
            byKey.values().forEach(l -> l.stream().filter(k -> !chosen.contains(k)).forEach(chosen::add));
            String text = "// sass-probe kernels: instruction-form suite cases whose ptxas 13 cubin holds words the"
                    + " decoder did not read\n// (FormProbeKernelsTest), dispatch keys " + byKey.keySet() + "\n"
                    + "// sass-probe: target only\n"
                    + FormSuite.Module.of(sm, chosen).text();
            Files.writeString(out.resolve("forms_" + sm.replace("sm_", "sm") + ".ptx"), text);
            System.out.println(sm + ": " + chosen.size() + " kernels, " + byKey.size() + " unreadable keys");
        }
    }

    /** Whether the whole module failed to compile (then its kernels are tried one by one). */
    private static boolean failed(Compiler ptxas, String sm, List<Kernel> ks) {
        return !ptxas.compile("forms.ptx", FormSuite.Module.of(sm, ks).text(), sm).ok();
    }

    /** The dispatch keys of the words in a cubin's code that the decoder reads as UNKNOWN (none if no cubin). */
    static TreeSet<Integer> unreadableKeys(SassIsa isa, Compiled c) {
        TreeSet<Integer> keys = new TreeSet<>();
        if (!c.ok()) {
            return keys;
        }
        for (Section s : Cubin.read(c.cubin()).textSections()) {
            byte[] code = s.data();
            List<SassInstruction> insns = isa.decodeAllForExecution(code, 0, code.length - code.length % 16);
            for (int i = 0; i < insns.size(); i++) {
                if (insns.get(i) instanceof SassInstruction.Unknown) {
                    long lo = le64(code, 16 * i), hi = le64(code, 16 * i + 8);
                    keys.add((int) (lo & 0xfff) | (int) ((hi >>> 27) & 1) << 12);
                }
            }
        }
        return keys;
    }

    private static long le64(byte[] b, int at) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = v << 8 | (b[at + i] & 0xff);
        }
        return v;
    }
}
