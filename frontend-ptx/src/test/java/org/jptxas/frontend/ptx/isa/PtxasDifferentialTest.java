package org.jptxas.frontend.ptx.isa;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.ori.target.TargetCatalog;
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.tables.ptx.InstructionDef;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Differential test of the instruction table against ptxas 13: every variant {@link VariantGenerator} makes is
 * written into batches of one kernel each, ptxas reports its errors per line, and the checker's accept/reject
 * verdict is compared with ptxas's for each line. Disagreements are written to
 * {@code target/ptxas-differential-<target>.txt}.
 */
@Tag("slow")
class PtxasDifferentialTest {
    private static final int BATCH = 600;
    private static final Pattern ERROR = Pattern.compile("^ptxas [^,]+, line (\\d+); error   : (.*)$");

    /** Minimum share of variants on which the checker and ptxas agree. */
    private static final double REQUIRED_AGREEMENT = 0.90;

    @ParameterizedTest
    @ValueSource(strings = {"sm_90a", "sm_100a", "sm_80"})
    void checkerAgreesWithPtxas(String targetName, @TempDir Path dir) throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        TargetInfo target = TargetCatalog.get().info(targetName).orElseThrow();
        PtxIsa isa = PtxIsa.get();
        VariantGenerator gen = new VariantGenerator();
        List<VariantGenerator.Variant> all = new ArrayList<>();
        for (InstructionDef def : isa.table().instructions().values()) {
            all.addAll(gen.variants(def));
        }
        List<List<VariantGenerator.Variant>> batches = new ArrayList<>();
        for (int i = 0; i < all.size(); i += BATCH) {
            batches.add(all.subList(i, Math.min(all.size(), i + BATCH)));
        }
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<Map<Integer, String>>> results = new ArrayList<>();
        List<Integer> firstLines = new ArrayList<>();
        for (int b = 0; b < batches.size(); b++) {
            Path file = dir.resolve("batch" + b + ".ptx");
            int first = writeBatch(file, batches.get(b), targetName);
            firstLines.add(first);
            results.add(pool.submit(() -> errorsByLine(ptxas, file, targetName, dir)));
        }
        int agree = 0;
        int acceptedBoth = 0;
        int rejectedBoth = 0;
        int messageSame = 0;
        Map<String, int[]> perOpcode = new TreeMap<>();
        StringBuilder report = new StringBuilder();
        for (int b = 0; b < batches.size(); b++) {
            Map<Integer, String> errors = results.get(b).get();
            List<VariantGenerator.Variant> batch = batches.get(b);
            for (int i = 0; i < batch.size(); i++) {
                VariantGenerator.Variant v = batch.get(i);
                String ptxasError = errors.get(firstLines.get(b) + i);
                List<IsaProblem> ours = isa.check(v.use(), 90, target);
                boolean same = (ptxasError == null) == ours.isEmpty();
                int[] counts = perOpcode.computeIfAbsent(v.use().opcode(), k -> new int[2]);
                counts[1]++;
                if (same) {
                    agree++;
                    counts[0]++;
                    if (ptxasError == null) {
                        acceptedBoth++;
                    } else {
                        rejectedBoth++;
                        if (ours.get(0).message().equals(ptxasError)) {
                            messageSame++;
                        }
                    }
                } else {
                    report.append(v.origin()).append("  ").append(v.text()).append("\n    ptxas: ")
                            .append(ptxasError == null ? "ok" : ptxasError).append("\n    ours:  ")
                            .append(ours.isEmpty() ? "ok" : ours.get(0).message()).append('\n');
                }
            }
        }
        pool.shutdown();
        StringBuilder summary = new StringBuilder();
        summary.append(String.format("target %s: %d variants, %d agree (%.1f%%): %d accepted by both, %d rejected by"
                + " both (%d with ptxas's first message)%n", targetName, all.size(), agree, 100.0 * agree / all.size(),
                acceptedBoth, rejectedBoth, messageSame));
        perOpcode.forEach((op, c) -> {
            if (c[0] != c[1]) {
                summary.append(String.format("  %-32s %4d/%4d%n", op, c[0], c[1]));
            }
        });
        Path out = Path.of("target", "ptxas-differential-" + targetName + ".txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, summary + "\n" + report, StandardCharsets.UTF_8);
        System.out.print(summary);
        assertTrue(agree >= REQUIRED_AGREEMENT * all.size(), summary.toString());
    }

    /** Writes one kernel holding the batch, one instruction per line; returns the line of the first instruction. */
    private static int writeBatch(Path file, List<VariantGenerator.Variant> batch, String target) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append(".version 9.0\n.target ").append(target).append("\n.address_size 64\n");
        sb.append(".global .u32 gsym;\n.visible .entry k()\n{\n");
        sb.append(VariantGenerator.declarations());
        int first = (int) sb.chars().filter(c -> c == '\n').count() + 1;
        for (VariantGenerator.Variant v : batch) {
            sb.append("  ").append(v.text()).append('\n');
        }
        sb.append("L_end:\n  ret;\n}\n");
        Files.writeString(file, sb.toString(), StandardCharsets.UTF_8);
        return first;
    }

    /** ptxas's first error message for each line of the file. */
    private static Map<Integer, String> errorsByLine(Path ptxas, Path file, String target, Path dir) {
        Processes.Result r = Processes.run(List.of(ptxas.toString(), "-arch=" + target, file.getFileName().toString(),
                "-o", "/dev/null"), dir);
        Map<Integer, String> errors = new HashMap<>();
        for (String line : (r.stdout() + "\n" + r.stderr()).split("\n")) {
            Matcher m = ERROR.matcher(line);
            if (m.matches()) {
                errors.putIfAbsent(Integer.parseInt(m.group(1)), m.group(2));
            }
        }
        return errors;
    }
}
