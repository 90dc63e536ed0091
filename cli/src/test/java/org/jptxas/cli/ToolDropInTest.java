package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.isel.gates.GateRuns;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The tools as drop-ins: {@code jcuobjdump -elf} prints what CUDA 12.5's {@code cuobjdump -elf} prints for a whole
 * cubin, character for character (the decoded {@code .debug_frame} included), and {@code jnvdisasm} what
 * {@code nvdisasm} prints, over ptxas 13's cubins of the corpus (7 targets, executable and {@code -c}) and of the
 * kernel suite. Each differing cubin is filed under the section where its output first departs from the oracle's;
 * those sections are an exact known list with reasons (a listed one that no longer differs fails as stale), and the
 * count of identical cubins is a figure. The oracles' outputs are remembered by cubin bytes ({@link OracleToolRuns}),
 * so a rerun over unchanged ptxas cubins spawns no oracle process; our tools still run on every cubin.
 */
@Tag("slow")
class ToolDropInTest {
    /** One cubin to compare: its name and a way to get its file (empty when ptxas refuses the combination). */
    record Job(String name, Supplier<byte[]> bytes, Supplier<Path> file) {}

    static final List<String> SUITE_ARCHS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");

    /** The corpus cubins and the suite's, as ptxas 13 writes them (the shared oracle cache). */
    static List<Job> cubins(Gate gate) throws IOException {
        List<Job> jobs = new ArrayList<>();
        for (CorpusCubin c : CorpusCubin.all()) {
            jobs.add(new Job(c.describe(), () -> c.bytes(CorpusCubin::compile, gate),
                    () -> c.compile().cubin().orElseThrow()));
        }
        Path kernels = RepoRoot.find().orElseThrow().resolve("kernels");
        try (var dirs = Files.list(kernels)) {
            for (Path dir : dirs.filter(Files::isDirectory).sorted().toList()) {
                Path ptx = dir.resolve(dir.getFileName() + ".ptx");
                if (!Files.exists(ptx)) {
                    continue;
                }
                int minSm = org.jptxas.testing.kernels.KernelSuite.byName(dir.getFileName().toString())
                        .map(org.jptxas.testing.kernels.KernelCase::minSm).orElse(0);
                for (String arch : SUITE_ARCHS) {
                    if (Integer.parseInt(arch.replaceAll("\\D", "")) < minSm) {
                        continue; // the kernel needs a newer target (mma.sync f64 from sm_80 on)
                    }
                    String name = "suite " + dir.getFileName() + "@" + arch;
                    jobs.add(new Job(name, () -> {
                        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, arch);
                        if (!c.ok()) {
                            // suite kernels a target lacks a feature for (ptxas refuses by target) are not compared
                            if (!CorpusCubin.refused(c.diagnostics())) {
                                gate.oracleFailed(name, "ptxas 13: " + c.diagnostics().lines().findFirst().orElse(""));
                            }
                            return null;
                        }
                        try {
                            return Files.readAllBytes(c.cubin().orElseThrow());
                        } catch (IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }, () -> OracleCubins.ptxas13(ptx, arch).cubin().orElseThrow()));
                }
            }
        }
        return jobs;
    }

    /** The oracle's run on the job's file; null (filed as the oracle's failure) when it throws or exits non-zero. */
    private static Processes.Result runOracle(String tool, Function<Path, Processes.Result> oracle, Job job,
                                              Gate gate) {
        Processes.Result r;
        try {
            r = oracle.apply(job.file().get());
        } catch (RuntimeException | AssertionError e) {
            gate.oracleFailed(job.name(), tool + ": " + e);
            return null;
        }
        if (r.exitCode() != 0) {
            gate.oracleFailed(job.name(), tool + " exit " + r.exitCode() + ": " + r.stderr());
            return null;
        }
        return r;
    }

    /**
     * The gate: {@code ours} on each cubin's bytes against {@code oracle} on its file, whole text. A difference is
     * keyed by {@link #where} (the section the first differing line belongs to), so a known entry covers one kind.
     */
    static Gate compare(String tool, List<Job> jobs, Gate gate, Function<Path, Processes.Result> oracle,
                        Function<byte[], String> ours, Map<String, Integer> kinds) {
        GateRuns.each(jobs, Job::name, gate, job -> {
            byte[] bytes = job.bytes().get();
            if (bytes == null) {
                return;
            }
            Processes.Result r = runOracle(tool, oracle, job, gate);
            if (r == null) {
                return;
            }
            String mine = stable(ours.apply(bytes));
            String theirs = stable(r.stdout());
            if (mine.equals(theirs)) {
                gate.pass();
                return;
            }
            String key = tool + " " + where(theirs, mine);
            String detail = job.name() + "\n" + firstDifference(theirs, mine);
            if (kinds.merge(key, 1, Integer::sum) == 1) {
                System.out.println("first of " + key + ": " + detail);
            }
            REPORT.add(key + "\t" + job.name());
            gate.differ(key, detail);
        });
        return gate;
    }

    /** Every differing cubin with its kind, written to target/reports/tool-drop-in-*.txt. */
    static final java.util.concurrent.ConcurrentLinkedQueue<String> REPORT = new java.util.concurrent.ConcurrentLinkedQueue<>();

    static void writeReport(String tool) throws IOException {
        Path dir = Files.createDirectories(Path.of("target/reports"));
        Files.write(dir.resolve("tool-drop-in-" + tool + ".txt"), REPORT.stream().sorted().toList());
        REPORT.clear();
    }

    /**
     * The oracle's output without what changes from run to run: for an empty {@code .debug_frame} cuobjdump prints
     * an address of its own as "frameBuf".
     */
    static String stable(String text) {
        return text.replaceAll("frameBuf 0x[0-9a-f]+, total_length 0\n", "frameBuf (address), total_length 0\n");
    }

    /** The section (by kind: function names replaced by F) where {@code actual} first departs from {@code expected}. */
    static String where(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        String section = "(header)";
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String el = i < e.length ? e[i] : null;
            String al = i < a.length ? a[i] : null;
            if (el != null && isHeader(el)) {
                section = el;
            }
            if (el == null || !el.equals(al)) {
                return normalize(section) + (el == null ? " (ours longer)" : al == null ? " (ours shorter)" : "");
            }
        }
        return normalize(section);
    }

    private static boolean isHeader(String line) {
        return line.startsWith(".section ") || line.startsWith("//--------------------- ")
                || line.matches("^\\.(nv|text|debug|rel|note)[^\\s]*$");
    }

    private static String normalize(String header) {
        return header.replaceFirst("^//-+ ", "").replaceAll("-+$", "").strip()
                .replaceAll("(\\.(text|info|constant\\d|shared|local|rel|rela|callgraph|debug_frame|global))\\.[^\\s,\"]+",
                        "$1.F")
                .replaceAll("\\s+", " ");
    }

    /** The first differing line pair, {@code expected => actual}, for the report (grouping by opcode). */
    static String firstDifferingPair(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String el = i < e.length ? e[i] : "(end)";
            String al = i < a.length ? a[i] : "(end)";
            if (!el.equals(al)) {
                return el.strip() + " => " + al.strip();
            }
        }
        return "(equal)";
    }

    static String firstDifference(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String el = i < e.length ? e[i] : "(end)";
            String al = i < a.length ? a[i] : "(end)";
            if (!el.equals(al)) {
                StringBuilder ctx = new StringBuilder("  line " + (i + 1));
                for (int k = Math.max(0, i - 3); k < Math.min(i + 3, Math.max(e.length, a.length)); k++) {
                    ctx.append("\n  expected: ").append(k < e.length ? e[k] : "(end)")
                            .append("\n  actual:   ").append(k < a.length ? a[k] : "(end)");
                }
                return ctx.toString();
            }
        }
        return "  (equal)";
    }

    static String jcuobjdump(byte[] bytes) {
        return run(bytes, (file, out, err) -> new JcuobjdumpCommand(out, err, file.getParent()).run("-elf", file.toString()));
    }

    static String jnvdisasm(byte[] bytes) {
        return run(bytes, (file, out, err) -> JnvdisasmMain.run(new String[] {file.toString()}, out, err));
    }

    /** jnvdisasm's listing alone (an instruction it cannot decode shows as UNKNOWN in the listing). */
    static String jnvdisasmListing(byte[] bytes) {
        return run(bytes, (file, out, err) -> {
            out.print(JnvdisasmRunner.output(file.toString()));
            return 0;
        });
    }

    interface ToolRun {
        int run(Path file, PrintWriter out, PrintWriter err);
    }

    private static String run(byte[] bytes, ToolRun tool) {
        try {
            Path dir = Files.createTempDirectory("drop-in");
            Path file = dir.resolve("x.cubin");
            Files.write(file, bytes);
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            tool.run(file, new PrintWriter(out), new PrintWriter(err));
            Files.delete(file);
            Files.delete(dir);
            return out.toString() + err;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * What still differs from cuobjdump 12.5, by the section where the output first departs (exact: a kind that no
     * longer occurs fails as stale).
     */
    static final Map<String, String> CUOBJDUMP_KNOWN = Map.of();

    /**
     * What still differs from nvdisasm 12.5, by section kind and cause ({@link #cause}; exact, as above): nothing.
     * Operands, data words and labels nvdisasm takes from relocations are printed as it does (NvdisasmRelocations),
     * jump tables too (NvdisasmJumpTables), and every corpus word decodes (cli CorpusUnknownWordsCensus).
     */
    static final Map<String, String> NVDISASM_KNOWN = Map.of();

    @Test
    void jcuobjdumpPrintsWhatCuobjdumpPrints() throws IOException {
        Path cuobjdump = Oracles.assumeCuobjdump();
        Gate gate = Gate.withKnown("jcuobjdump -elf vs cuobjdump 12.5 -elf, whole text", CUOBJDUMP_KNOWN);
        Map<String, Integer> kinds = new ConcurrentHashMap<>();
        compare("cuobjdump", cubins(gate), gate,
                p -> OracleToolRuns.run(cuobjdump, List.of("-elf"), p, p.getParent(), true),
                ToolDropInTest::jcuobjdump, kinds);
        writeReport("cuobjdump");
        System.out.println(gate.summary());
        System.out.println("differing cubins by section: " + new TreeMap<>(kinds));
        gate.verify(2000);
        Figures.check("tools.jcuobjdump.identical", gate.compared() - kinds.values().stream().mapToInt(i -> i).sum());
    }

    @Test
    void jnvdisasmPrintsWhatNvdisasmPrints() throws IOException {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Gate gate = Gate.withKnown("jnvdisasm vs nvdisasm 12.5, section by section", NVDISASM_KNOWN);
        Map<String, Integer> kinds = new ConcurrentHashMap<>();
        // nvdisasm 12.5 reads sm_75 ... sm_90 code
        List<Job> jobs = cubins(gate).stream().filter(j -> !j.name().contains("sm_100") && !j.name().contains("sm_120"))
                .toList();
        int[] whole = new int[2];
        compareSections(jobs, gate, p -> OracleToolRuns.run(nvdisasm, List.of(), p, p.getParent(), true),
                ToolDropInTest::jnvdisasmListing, kinds, whole);
        writeReport("nvdisasm");
        System.out.println(gate.summary());
        System.out.println("differing sections by kind: " + new TreeMap<>(kinds));
        System.out.println("whole listings identical: " + whole[0] + " of " + whole[1]);
        // the figures first: a run that improves them records them (update mode) even when a known entry is stale
        Figures.check("tools.jnvdisasm.sections.identical", gate.compared() - kinds.values().stream()
                .mapToInt(i -> i).sum());
        Figures.check("tools.jnvdisasm.identical", whole[0]);
        gate.verify(25_000);
    }

    /**
     * The listing gate, section by section: both listings split at nvdisasm's section banners; each section of the
     * oracle's listing is one item, equal or filed under its kind ({@link #normalize}d name). {@code whole} counts
     * the cubins whose whole listing is identical, and those compared.
     */
    static Gate compareSections(List<Job> jobs, Gate gate, Function<Path, Processes.Result> oracle,
                                Function<byte[], String> ours, Map<String, Integer> kinds, int[] whole) {
        GateRuns.each(jobs, Job::name, gate, job -> {
            byte[] bytes = job.bytes().get();
            if (bytes == null) {
                return;
            }
            Processes.Result r = runOracle("nvdisasm", oracle, job, gate);
            if (r == null) {
                return;
            }
            String mine = ours.apply(bytes);
            synchronized (whole) {
                whole[1]++;
                if (mine.equals(r.stdout())) {
                    whole[0]++;
                }
            }
            Map<String, String> expected = sections(r.stdout());
            Map<String, String> actual = sections(mine);
            for (var e : expected.entrySet()) {
                if (e.getValue().equals(actual.get(e.getKey()))) {
                    gate.pass();
                    continue;
                }
                String key = "nvdisasm " + normalize(e.getKey().replaceFirst("#\\d+$", "")) + ": "
                        + cause(e.getValue(), actual.getOrDefault(e.getKey(), ""));
                String detail = job.name() + " " + e.getKey() + "\n"
                        + firstDifference(e.getValue(), actual.getOrDefault(e.getKey(), "(missing)"));
                if (kinds.merge(key, 1, Integer::sum) == 1) {
                    System.out.println("first of " + key + ": " + detail);
                }
                REPORT.add(key + "\t" + job.name() + " " + e.getKey() + "\t"
                        + firstDifferingPair(e.getValue(), actual.getOrDefault(e.getKey(), "")));
                gate.differ(key, detail);
            }
        });
        return gate;
    }

    /** Why a section's listing differs, read off its first differing line pair. */
    static String cause(String expected, String actual) {
        String[] e = expected.split("\n", -1);
        String[] a = actual.split("\n", -1);
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String x = i < e.length ? e[i] : "";
            String y = i < a.length ? a[i] : "";
            if (x.equals(y)) {
                continue;
            }
            if (y.contains("UNKNOWN")) {
                return "UNKNOWN";
            }
            if (x.matches(".*\\.L_x_\\d+@srel.*")) {
                return "relocation label";
            }
            if (x.matches("\\s*\\.size\\s+\\S+,\\(\\.L_x_\\d+ - .*")
                    && x.replaceAll("\\.L_x_\\d+", "").equals(y.replaceAll("\\.L_x_\\d+", ""))) {
                return "end label";
            }
            if (x.strip().matches("\\.L_x_\\d+:") || y.strip().matches("\\.L_x_\\d+:")) {
                return "label";
            }
            if (x.matches(".*(@(lo|hi|srel)\\(|`\\().*")) {
                return "relocated operand";
            }
            if (x.endsWith(";") && !x.endsWith(" ;") && y.endsWith(" ;")) {
                return "blank before ;";
            }
            return "other";
        }
        return "other";
    }

    /** A listing's blocks by section banner (the file header as "(header)"), repeated names numbered. */
    static Map<String, String> sections(String listing) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        String key = "(header)";
        StringBuilder block = new StringBuilder();
        for (String line : listing.split("\n", -1)) {
            if (line.startsWith("//--------------------- ")) {
                put(out, key, block);
                key = line.substring("//--------------------- ".length()).replaceAll("\\s*-+$", "").strip();
                block.setLength(0);
            }
            block.append(line).append('\n');
        }
        put(out, key, block);
        return out;
    }

    private static void put(Map<String, String> out, String key, StringBuilder block) {
        String k = key;
        for (int n = 2; out.containsKey(k); n++) {
            k = key + "#" + n;
        }
        out.put(k, block.toString());
    }

    // ---- planted faults: the gate's own logic

    private static Job job(String name, byte[] bytes) {
        return new Job(name, () -> bytes, () -> Path.of(name));
    }

    private static Processes.Result ok(String out) {
        return new Processes.Result(0, out, "");
    }

    @Test
    void plantedDifferenceIsFiledUnderItsSection() {
        Gate gate = Gate.named("fault");
        Map<String, Integer> kinds = new TreeMap<>();
        String expected = "head\n.section .nv.info.k\nA\n.section .debug_frame\nB\n";
        compare("t", List.of(job("a", new byte[1])), gate, p -> ok(expected),
                b -> expected.replace("B", "b"), kinds);
        assertEquals(Map.of("t .section .debug_frame", 1), kinds);
        assertFalse(gate.passes(1));
        assertEquals(".section .nv.info.F", where(".section .nv.info.kernel\nx\n", ".section .nv.info.kernel\ny\n"));
    }

    @Test
    void plantedSectionDifferenceIsFiledByKindAndCause() {
        Gate gate = Gate.named("fault");
        Map<String, Integer> kinds = new TreeMap<>();
        String expected = "head\n\n\n" + NvdisasmDirectives.banner(".text.k")
                + "\n        .size           k,(.L_x_3 - k)\nk:\n\n\n" + NvdisasmDirectives.banner(".nv.info") + "\nA\n";
        int[] whole = new int[2];
        compareSections(List.of(job("a", new byte[1])), gate, p -> ok(expected),
                b -> expected.replace(".L_x_3", ".L_x_2"), kinds, whole);
        assertEquals(Map.of("nvdisasm .text.F: end label", 1), kinds);
        assertEquals(0, whole[0]);
        assertEquals(1, whole[1]);
        assertFalse(gate.passes(1));
        assertEquals("relocated operand", cause("  UMOV UR4, 32@lo(dummy_sink_f32) ;", "  UMOV UR4, 0x0 ;"));
        assertEquals("relocation label", cause("  .dword (f + .L_x_28@srel)", "  .dword (f + 0x380)"));
        Gate same = Gate.named("fault");
        int[] all = new int[2];
        compareSections(List.of(job("a", new byte[1])), same, p -> ok(expected), b -> expected, new TreeMap<>(), all);
        assertEquals(1, all[0]);
        assertTrue(same.passes(1));
    }

    @Test
    void plantedCrashEmptyListAndOracleFailureFail() {
        Gate crashes = Gate.named("fault");
        compare("t", List.of(job("a", new byte[1])), crashes, p -> ok("x"), b -> {
            throw new IllegalStateException("planted");
        }, new TreeMap<>());
        assertFalse(crashes.passes(1));
        assertTrue(crashes.crashes().get(0).contains("planted"));
        Gate empty = Gate.named("fault");
        compare("t", List.of(), empty, p -> ok("x"), b -> "x", new TreeMap<>());
        assertFalse(empty.passes(1));
        Gate oracle = Gate.named("fault");
        compare("t", List.of(job("a", new byte[1])), oracle, p -> new Processes.Result(1, "", "bad"), b -> "x",
                new TreeMap<>());
        assertFalse(oracle.passes(1));
        Gate same = Gate.named("fault");
        compare("t", List.of(job("a", new byte[1])), same, p -> ok("x"), b -> "x", new TreeMap<>());
        assertTrue(same.passes(1));
    }
}
