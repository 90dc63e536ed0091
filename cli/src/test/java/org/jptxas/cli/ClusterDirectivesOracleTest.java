package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.dump.ElfDump;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A kernel's cluster directives ({@code .reqnctapercluster}, {@code .explicitcluster}, {@code .maxclusterrank})
 * become the .nv.info records ptxas 13 writes for sm_90: EIATTR_MAX_CLUSTER_RANK, EIATTR_EXPLICIT_CLUSTER,
 * EIATTR_CTA_PER_CLUSTER with their values, in ptxas's place (after KPARAM_INFO); none without directives.
 */
class ClusterDirectivesOracleTest {
    private static String kernel(String directives) {
        return ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k(.param .u64 out) " + directives + "\n{\n"
                + " .reg .b32 %r<4>; .reg .b64 %rd<2>;\n mov.u32 %r1, %cluster_ctarank;\n ld.param.u64 %rd1, [out];\n"
                + " st.global.u32 [%rd1], %r1;\n ret;\n}\n";
    }

    /** The kernel's .nv.info records from KPARAM_INFO up to SPARSE_MMA_MASK (where the cluster records sit). */
    static List<String> clusterRecords(Path cubin) throws Exception {
        List<String> out = new ArrayList<>();
        boolean in = false;
        for (String line : ElfDump.print(Cubin.read(Files.readAllBytes(cubin))).split("\n")) {
            if (line.contains("EIATTR_SPARSE_MMA_MASK")) {
                in = false;
            }
            if (in && !line.contains("KPARAM_INFO") && !line.isBlank()) {
                out.add(line.strip());
            }
            if (line.contains("EIATTR_KPARAM_INFO")) {
                in = true;
            }
        }
        return out.stream().filter(l -> !l.startsWith("Index") && !l.startsWith("Pointee")).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".reqnctapercluster 2, 1, 1", ".reqnctapercluster 4", ".explicitcluster .maxclusterrank 8",
            ".explicitcluster .reqnctapercluster 2, 2, 1"})
    void nvInfoRecordsAsPtxasWritesThem(String directives, @TempDir Path dir) throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        Path input = dir.resolve("k.ptx");
        Files.writeString(input, kernel(directives));
        Processes.Result r = Processes.run(List.of(ptxas.toString(), "-arch=sm_90", input.toString(), "-o", "p.cubin"), dir);
        assertEquals(0, r.exitCode(), r.stderr());
        CliRun run = CliRun.run(dir, "-arch=sm_90", input.toString(), "-o", "j.cubin");
        assertEquals(0, run.exitCode(), run.err());
        List<String> theirs = clusterRecords(dir.resolve("p.cubin"));
        assertTrue(directives.isEmpty() == theirs.stream().noneMatch(l -> l.contains("CLUSTER")),
                () -> "ptxas's records for '" + directives + "': " + theirs);
        assertEquals(theirs, clusterRecords(dir.resolve("j.cubin")), directives);
    }
}
