package org.jptxas.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.dump.ElfDump;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Figures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21's acceptance for {@code -lineinfo} (what Triton passes to ptxas): every corpus file ptxas 13 accepts that
 * holds {@code .loc} is compiled with {@code -lineinfo} by ptxas 13 and by jptxas, for sm_80 (files whose
 * {@code .target} allows it) and sm_90 (sm_90a for files that need it); on both cubins {@code nvdisasm -g} (12.5) must
 * annotate the same source lines per function and {@code cuobjdump -elf} (12.5) list the same debug sections
 * ({@link LineInfoGate}). Line sets differ where the code differs: {@link #KNOWN} lists those file/SM pairs, each with
 * its reason (exact: a pair that comes to agree fails as stale). Files with an instruction jptxas does not compile yet
 * are not compared. The pairs compared and those agreeing are figures.
 */
@Tag("slow")
class LineInfoOracleTest {
    @TempDir
    Path dir;

    static final Pattern LOC = Pattern.compile("^\\s*\\.loc\\s", Pattern.MULTILINE);

    /** jptxas refuses an instruction it does not compile yet: no code, so no line table to compare. */
    static final Pattern NOT_SUPPORTED = Pattern.compile("Instruction '[^']+' not yet supported");

    /** The file/SM pairs whose annotations differ, and why (none today; a pair listed here that agrees fails). */
    static final Map<String, String> KNOWN = Map.of();

    @Test
    void jptxasAnnotatesTheSourceLinesPtxasDoes() throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Oracles.assumePtxas13();
        List<LineInfoGate.Item> items = new ArrayList<>();
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            String text = Files.readString(e.file(), java.nio.charset.StandardCharsets.ISO_8859_1);
            if (!e.ptxasAccepts() || !LOC.matcher(text).find()) {
                continue;
            }
            if (!undeclaredFiles(text).isEmpty()) {
                // nvdisasm 12.5 -g crashes (SIGSEGV) on a line table naming a file its table lacks, ptxas's as ours
                System.out.println("not compared (a .loc names an undeclared .file): " + e.file());
                continue;
            }
            String name = e.file().getParent().getFileName() + "/" + e.file().getFileName();
            String arch = e.arch();
            int sm = Integer.parseInt(arch.substring(3).replaceAll("[a-z]+$", ""));
            if (sm <= 80) {
                items.add(new LineInfoGate.Item(name + "@sm_80", e.file(), "sm_80"));
            }
            if (sm <= 90) {
                String a90 = arch.endsWith("a") ? "sm_90a" : "sm_90";
                items.add(new LineInfoGate.Item(name + "@" + a90, e.file(), a90));
            }
        }
        LineInfoGate.Outcome o = LineInfoGate.run("-lineinfo: nvdisasm -g source lines and cuobjdump debug sections",
                items, LineInfoOracleTest::ptxas, this::jptxas, c -> annotate(nvdisasm, cuobjdump, c),
                m -> NOT_SUPPORTED.matcher(m).find(), KNOWN);
        System.out.println(o.gate().summary() + "; agreeing " + o.agreeing() + ", out of scope " + o.outOfScope());
        o.gate().differences().forEach(d -> System.out.println("  " + d.replace("\n", "\n    ")));
        o.gate().oracleFailures().forEach(d -> System.out.println("  oracle: " + d));
        report(o.details());
        Figures.check("lineinfo.compared", o.gate().compared());
        Figures.check("lineinfo.agree", o.agreeing());
        o.gate().verify(Figures.get("lineinfo.compared").value().intValue());
    }

    /** Every differing pair's difference, excused ones too: target/reports/lineinfo-differences.txt. */
    static void report(Map<String, String> details) throws java.io.IOException {
        StringBuilder sb = new StringBuilder();
        // the pairs grouped by their known reason first (the largest group first), then each pair's difference
        Map<String, List<String>> byReason = new java.util.TreeMap<>();
        details.keySet().forEach(key -> byReason.computeIfAbsent(KNOWN.getOrDefault(key, "(not known)"),
                r -> new ArrayList<>()).add(key));
        byReason.entrySet().stream()
                .sorted(java.util.Comparator.comparing((Map.Entry<String, List<String>> e) -> -e.getValue().size())
                        .thenComparing(Map.Entry::getKey))
                .forEach(e -> sb.append(e.getValue().size()).append(" pairs: ").append(e.getKey()).append('\n')
                        .append("  ").append(String.join(", ", e.getValue())).append('\n'));
        sb.append('\n');
        details.forEach((key, d) -> sb.append(key).append(KNOWN.containsKey(key) ? " (known: " + KNOWN.get(key) + ")" : "")
                .append('\n').append("  ").append(d.strip().replace("\n", "\n  ")).append('\n'));
        Path reports = Path.of("target", "reports");
        Files.createDirectories(reports);
        Files.writeString(reports.resolve("lineinfo-differences.txt"), sb.toString());
    }

    private static final Pattern FILE = Pattern.compile("^\\s*\\.file\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern LOC_FILE = Pattern.compile("^\\s*\\.loc\\s+(\\d+)", Pattern.MULTILINE);

    /** The file numbers {@code .loc} directives name that no {@code .file} declares. */
    static java.util.Set<String> undeclaredFiles(String ptx) {
        java.util.Set<String> named = new java.util.TreeSet<>();
        LOC_FILE.matcher(ptx).results().forEach(m -> named.add(m.group(1)));
        FILE.matcher(ptx).results().forEach(m -> named.remove(m.group(1)));
        return named;
    }

    static LineInfoGate.Compiled ptxas(LineInfoGate.Item item) {
        OracleCubins.Compiled c = OracleCubins.ptxas13(item.ptx(), item.arch(), "-lineinfo");
        return new LineInfoGate.Compiled(c.cubin().orElse(null), c.diagnostics());
    }

    LineInfoGate.Compiled jptxas(LineInfoGate.Item item) {
        Path out = dir.resolve(item.key().replaceAll("[^A-Za-z0-9_.@-]", "_") + ".cubin");
        CliRun r = CliRun.run(dir, "-lineinfo", "-arch=" + item.arch(), item.ptx().toString(), "-o", out.toString());
        return new LineInfoGate.Compiled(r.exitCode() == 0 ? out : null, r.err());
    }

    static LineInfoGate.Annotation annotate(Path nvdisasm, Path cuobjdump, Path cubin) {
        // remembered by the cubin's bytes (neither tool names its input in what it prints): a rerun spawns no process
        Processes.Result g = OracleToolRuns.run(nvdisasm, List.of("-g"), cubin, cubin.getParent(), true);
        if (g.exitCode() != 0) {
            throw new IllegalStateException("nvdisasm -g: " + g.stderr().strip());
        }
        Processes.Result elf = OracleToolRuns.run(cuobjdump, List.of("-elf"), cubin, cubin.getParent(), true);
        if (elf.exitCode() != 0) {
            throw new IllegalStateException("cuobjdump -elf: " + elf.stderr().strip());
        }
        // jcuobjdump decodes the line programs as cuobjdump does, on ptxas's cubins and on ours
        try {
            String ours = ElfDump.print(Cubin.read(Files.readAllBytes(cubin)));
            if (!LineInfoGate.lineSectionBlocks(ours).equals(LineInfoGate.lineSectionBlocks(elf.stdout()))) {
                throw new AssertionError("jcuobjdump -elf prints the line and DWARF sections of " + cubin.getFileName()
                        + " otherwise than cuobjdump 12.5");
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return new LineInfoGate.Annotation(LineInfoGate.annotatedLines(g.stdout()),
                LineInfoGate.debugSections(elf.stdout()));
    }
}
