package org.jptxas.frontend.ptx.isa;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
import org.jptxas.ori.target.TargetInfo;
import org.jptxas.tables.ptx.InstructionDef;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;

/**
 * Differential test of the instruction table against ptxas 13: every variant {@link VariantGenerator} makes is
 * written into batches of one kernel each, ptxas reports its errors per line, and the checker's accept/reject
 * verdict is compared with ptxas's for each line. Disagreements are written to
 * {@code target/ptxas-differential-<target>.txt}, the batches to {@code target/ptxas-differential/<target>/}.
 */
class PtxasDifferentialTest {
    private static final int BATCH = 600;
    private static final Pattern ERROR = Pattern.compile("^ptxas [^,]+, line (\\d+); (error|fatal)   : (.*)$");

    /** Runs ptxas on one batch file in its folder (the real one, or a planted one in the fault tests). */
    interface PtxasRun {
        Processes.Result run(Path file, String target);
    }

    static PtxasRun ptxas(Path ptxas) {
        return (file, target) -> Processes.run(List.of(ptxas.toString(), "-arch=" + compiledFor(target),
                file.getFileName().toString(), "-o", "/dev/null"), file.getParent());
    }

    /**
     * ptxas 13 compiles for sm_75 and later only, but still checks a module's older {@code .target} (sm_50...sm_72)
     * against each instruction's gates when compiling it for sm_75; that is how those gates are compared.
     */
    static String compiledFor(String target) {
        int sm = Integer.parseInt(target.replaceAll("[^0-9]", ""));
        return sm < 75 ? "sm_75" : target;
    }

    @Tag("slow")
    @ParameterizedTest
    @ValueSource(strings = {"sm_52", "sm_61", "sm_70", "sm_75", "sm_80", "sm_90a", "sm_100a", "sm_120a"})
    void checkerAgreesWithPtxas(String targetName) throws Exception {
        Path dir = Files.createDirectories(Path.of("target", "ptxas-differential", targetName));
        PtxasRun ptxas = ptxas(Oracles.assumePtxas13());
        TargetInfo target = TestTargets.catalog().info(targetName).orElseThrow();
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
        for (int b = 0; b < batches.size(); b++) {
            List<VariantGenerator.Variant> batch = batches.get(b);
            String name = "batch" + b;
            results.add(pool.submit(() -> errorsByVariant(ptxas, batch, targetName, dir, name)));
        }
        Gate gate = Gate.named("instruction table against ptxas 13 on " + targetName);
        int agree = 0;
        int acceptedBoth = 0;
        int rejectedBoth = 0;
        int messageSame = 0;
        Map<String, int[]> perOpcode = new TreeMap<>();
        StringBuilder report = new StringBuilder();
        Map<String, Integer> messageDifferences = new TreeMap<>();
        StringBuilder rawMessages = new StringBuilder();
        for (int b = 0; b < batches.size(); b++) {
            Map<Integer, String> errors;
            try {
                errors = results.get(b).get();
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof OracleFailure f) {
                    gate.oracleFailed("batch" + b, f.getMessage());
                    continue;
                }
                throw e;
            }
            List<VariantGenerator.Variant> batch = batches.get(b);
            gate.pass(batch.size());
            for (int i = 0; i < batch.size(); i++) {
                VariantGenerator.Variant v = batch.get(i);
                String ptxasError = errors.get(i);
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
                        } else {
                            messageDifferences.merge(shape(ptxasError) + "\n      ours: " + shape(ours.get(0).message())
                                    + "\n      e.g.: " + v.text(), 1, Integer::sum);
                            rawMessages.append(ptxasError).append('\t').append(ours.get(0).message()).append('\t')
                                    .append(v.text()).append('\n');
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
        int forms = 0;
        int rendered = 0;
        int opcodesTested = 0;
        for (InstructionDef def : isa.table().instructions().values()) {
            boolean any = false;
            for (var f : def.forms()) {
                forms++;
                if (VariantGenerator.renderable(f)) {
                    rendered++;
                    any = true;
                }
            }
            opcodesTested += any ? 1 : 0;
        }
        StringBuilder summary = new StringBuilder();
        summary.append(String.format("table: %d opcodes, %d forms; generated variants cover %d opcodes, %d forms%n",
                isa.opcodes().size(), forms, opcodesTested, rendered));
        summary.append(String.format("target %s: %d variants, %d agree (%.1f%%): %d accepted by both, %d rejected by"
                + " both (%d with ptxas's first message)%n", targetName, all.size(), agree, 100.0 * agree / all.size(),
                acceptedBoth, rejectedBoth, messageSame));
        perOpcode.forEach((op, c) -> {
            if (c[0] != c[1]) {
                summary.append(String.format("  %-32s %4d/%4d%n", op, c[0], c[1]));
            }
        });
        StringBuilder messages = new StringBuilder("\nrejected by both, other first message than ptxas's:\n");
        Map<String, Integer> byShape = new TreeMap<>();
        messageDifferences.forEach((k, n) -> byShape.merge(k.substring(0, k.indexOf("\n      e.g.")), n, Integer::sum));
        byShape.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).forEach(
                e -> messages.append(String.format("%5d  %s%n", e.getValue(), e.getKey())));
        report.append(messages);
        Path out = Path.of("target", "ptxas-differential-" + targetName + ".txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, summary + "\n" + report, StandardCharsets.UTF_8);
        Files.writeString(Path.of("target", "ptxas-messages-" + targetName + ".tsv"), rawMessages, StandardCharsets.UTF_8);
        System.out.print(summary);
        System.out.println(gate.summary());
        gate.verify(Math.max(1, all.size()));
        Figures.checkPercent("frontend.ptxas.agreement." + targetName, agree, all.size());
        Figures.checkPercent("frontend.ptxas.first.message." + targetName, messageSame, rejectedBoth);
    }

    /** ptxas failed on a batch without naming a line: its verdicts on the batch are unknown. */
    static final class OracleFailure extends RuntimeException {
        OracleFailure(String message) {
            super(message);
        }
    }

    private static List<VariantGenerator.Variant> twoVariants() {
        return List.of(new VariantGenerator.Variant("add.s32 r1, r2, r3;", null, "planted"),
                new VariantGenerator.Variant("add.s32 r1, r2, 1.5;", null, "planted"));
    }

    /** ptxas's line errors are read per variant: the second of two variants is the rejected one. */
    @Test
    void ptxasErrorsAreReadPerVariant(@TempDir Path dir) throws IOException {
        Map<Integer, String> errors = errorsByVariant((file, target) -> {
            int second = lineOf(file, "add.s32 r1, r2, 1.5;");
            return new Processes.Result(255, "", "ptxas " + file.getFileName() + ", line " + second
                    + "; error   : Arguments mismatch for instruction 'add'\n");
        }, twoVariants(), "sm_80", dir, "planted");
        assertEquals(Map.of(1, "Arguments mismatch for instruction 'add'"), errors);
    }

    /** A ptxas that fails without naming a line (a crash) is an oracle failure, not a batch accepted by ptxas. */
    @Test
    void aPtxasCrashIsAnOracleFailure(@TempDir Path dir) {
        assertThrows(OracleFailure.class, () -> errorsByVariant(
                (file, target) -> new Processes.Result(139, "", "Segmentation fault (core dumped)\n"), twoVariants(),
                "sm_80", dir, "planted"));
    }

    private static int lineOf(Path file, String text) {
        try {
            return Files.readAllLines(file).indexOf("  " + text) + 1;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** A message with its quoted names replaced, so that messages of one kind group together. */
    private static String shape(String message) {
        return message.replaceAll("'[^']*'", "'X'");
    }

    /** Writes one kernel holding the variants, one instruction per line; returns the line of the first instruction. */
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

    /**
     * ptxas's first error message for each variant of the batch (by index). A syntax error is fatal to ptxas: the
     * variants after it are checked again in a file of their own.
     */
    static Map<Integer, String> errorsByVariant(PtxasRun ptxas, List<VariantGenerator.Variant> batch, String target,
            Path dir, String name) throws IOException {
        Map<Integer, String> errors = new HashMap<>();
        int start = 0;
        int round = 0;
        while (start < batch.size()) {
            Path file = dir.resolve(name + "-" + round++ + ".ptx");
            int first = writeBatch(file, batch.subList(start, batch.size()), target);
            Processes.Result r = ptxas.run(file, target);
            int fatalAt = -1;
            boolean anyLine = false;
            for (String line : (r.stdout() + "\n" + r.stderr()).split("\n")) {
                Matcher m = ERROR.matcher(line);
                if (m.matches()) {
                    anyLine = true;
                    int index = Integer.parseInt(m.group(1)) - first;
                    if (index >= 0 && index < batch.size() - start) {
                        errors.putIfAbsent(start + index, m.group(3));
                        if (m.group(2).equals("fatal")) {
                            fatalAt = index;
                        }
                    }
                }
            }
            if (r.exitCode() != 0 && !anyLine) {
                // a crash, a timeout or an error without a line: counting the batch as accepted would be a guess
                throw new OracleFailure(name + " round " + (round - 1) + ": ptxas exit " + r.exitCode() + " without a"
                        + " line: " + (r.stdout() + r.stderr()).strip());
            }
            if (fatalAt < 0) {
                break;
            }
            start += fatalAt + 1;
        }
        return errors;
    }
}
