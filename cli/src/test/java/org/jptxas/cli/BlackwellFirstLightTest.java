package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.TextDifferences;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Blackwell code generation against ptxas 13: saxpy and four small suite kernels compiled for sm_100 and sm_120 by
 * both, their {@code .text} compared instruction by instruction (128-bit words, control bits included), and the ELF
 * {@code e_flags} compared. Where the code is not yet byte-identical the instructions that differ are pinned by offset
 * in {@code blackwell-first-light.tsv}: a new difference fails, and so does a pinned one that no longer differs (lower
 * the pin). The differences are those of jptxas's sm_90 code against ptxas's sm_90 code (instruction order and
 * register choice); the Blackwell-specific facts (bank-0 layout, LDCU, the descriptor at 0x358) agree.
 */
class BlackwellFirstLightTest {
    private static final String PINS = "blackwell-first-light.tsv";

    @ParameterizedTest
    @CsvSource({"examples/saxpy.ptx, sm_100", "examples/saxpy.ptx, sm_120",
            "kernels/vec_add_i32/vec_add_i32.ptx, sm_100", "kernels/vec_add_i32/vec_add_i32.ptx, sm_120",
            "kernels/byte_perm/byte_perm.ptx, sm_100", "kernels/byte_perm/byte_perm.ptx, sm_120",
            "kernels/bit_count/bit_count.ptx, sm_100", "kernels/bit_count/bit_count.ptx, sm_120",
            "kernels/reduce_sum_f32/reduce_sum_f32.ptx, sm_100", "kernels/reduce_sum_f32/reduce_sum_f32.ptx, sm_120"})
    void textMatchesPtxasOrDiffersOnlyWherePinned(String source, String arch, @TempDir Path dir) throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        Path root = RepoRoot.find().orElseThrow();
        Path input = root.resolve(source);
        Processes.Result r = Processes.run(List.of(ptxas.toString(), "-arch=" + arch, input.toString(), "-o",
                "p.cubin"), dir);
        assertEquals(0, r.exitCode(), r.stderr());
        CliRun run = CliRun.run(dir, "-arch=" + arch, input.toString(), "-o", "j.cubin");
        assertEquals(0, run.exitCode(), run.err());
        Cubin theirs = Cubin.read(Files.readAllBytes(dir.resolve("p.cubin")));
        Cubin ours = Cubin.read(Files.readAllBytes(dir.resolve("j.cubin")));
        assertEquals(Integer.toHexString(theirs.header().flags()), Integer.toHexString(ours.header().flags()),
                "e_flags");

        String key = source.substring(source.lastIndexOf('/') + 1) + "\t" + arch;
        String found = TextDifferences.of(theirs, ours);
        String pinned = pins().get(key);
        assertTrue(pinned != null, key + " has no pin; its differences: " + found);
        TreeSet<String> now = set(found);
        TreeSet<String> allowed = set(pinned);
        TreeSet<String> added = new TreeSet<>(now);
        added.removeAll(allowed);
        TreeSet<String> gone = new TreeSet<>(allowed);
        gone.removeAll(now);
        assertTrue(added.isEmpty(), key + ": instructions that now differ from ptxas's: " + added);
        assertTrue(gone.isEmpty(), key + ": these pinned instructions now match ptxas's, lower the pin to: " + found);
    }

    private static TreeSet<String> set(String list) {
        return new TreeSet<>(Arrays.asList(list.trim().split(" +")));
    }

    private static Map<String, String> pins() throws IOException {
        Map<String, String> out = new LinkedHashMap<>();
        try (InputStream in = BlackwellFirstLightTest.class.getResourceAsStream(PINS)) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                out.put(f[0] + "\t" + f[1], f.length > 2 ? f[2] : "");
            }
        }
        return out;
    }
}
