package org.jptxas.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code jcuobjdump -elf} against CUDA 12.5's {@code cuobjdump -elf} on cubins with full DWARF, whole text as in
 * {@link ToolDropInTest}: ptxas 13 {@code -g} (executable and {@code -c}) of {@code nvcc -G} PTX for small CUDA files
 * (test resources {@code dwarf/*.cu}, the PTX beside each named by its target). They carry what the corpus's three
 * DWARF files lack: location lists, structs, enums, unions, bit fields, templates, namespaces, inlined and called
 * device functions, and on sm_100 an attribute code cuobjdump 12.5 does not know and DW_OP_bregx. Exact: every cubin
 * equal.
 */
@Tag("slow")
class DwarfDropInTest {
    static final List<String> PTX = List.of("locals.sm_80.ptx", "types.sm_80.ptx", "bitfields.sm_80.ptx",
            "calls.sm_80.ptx", "types.sm_100.ptx", "templates.sm_100.ptx");

    @Test
    void jcuobjdumpDecodesDwarfAsCuobjdumpDoes() throws Exception {
        Path cuobjdump = Oracles.assumeCuobjdump();
        Gate gate = Gate.withKnown("jcuobjdump -elf vs cuobjdump 12.5 -elf on -g cubins, whole text", Map.of());
        List<ToolDropInTest.Job> jobs = new ArrayList<>();
        for (String name : PTX) {
            Path ptx = resource(name);
            String target = name.replaceAll(".*\\.(sm_\\d+)\\.ptx", "$1");
            for (String arch : target.equals("sm_80") ? List.of("sm_80", "sm_90") : List.of(target)) {
                for (List<String> options : List.of(List.of("-g"), List.of("-c", "-g"))) {
                    String[] extra = options.toArray(String[]::new);
                    String job = name + " " + arch + " " + String.join(" ", options);
                    jobs.add(new ToolDropInTest.Job(job, () -> {
                        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, arch, extra);
                        if (c.cubin().isEmpty()) {
                            gate.oracleFailed(job, "ptxas 13: " + c.diagnostics().lines().findFirst().orElse(""));
                            return null;
                        }
                        try {
                            return Files.readAllBytes(c.cubin().get());
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }, () -> OracleCubins.ptxas13(ptx, arch, extra).cubin().orElseThrow()));
                }
            }
        }
        Map<String, Integer> kinds = new ConcurrentHashMap<>();
        ToolDropInTest.compare("cuobjdump", jobs, gate,
                p -> OracleToolRuns.run(cuobjdump, List.of("-elf"), p, p.getParent(), true),
                ToolDropInTest::jcuobjdump, kinds);
        ToolDropInTest.writeReport("cuobjdump-dwarf");
        System.out.println(gate.summary());
        System.out.println("differing cubins by section: " + new TreeMap<>(kinds));
        gate.verify(jobs.size());
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(DwarfDropInTest.class.getResource("dwarf/" + name).toURI());
    }
}
