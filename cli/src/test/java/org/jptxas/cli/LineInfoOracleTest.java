package org.jptxas.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.jptxas.cli.e2e.CorpusCodegenAcceptanceTest;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
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
 * its reason (exact: a pair that comes to agree fails as stale). The pairs compared and those agreeing are figures.
 */
@Tag("slow")
class LineInfoOracleTest {
    @TempDir
    Path dir;

    static final Pattern LOC = Pattern.compile("^\\s*\\.loc\\s", Pattern.MULTILINE);

    private static final String FOLDED = "jptxas keeps code for these source lines where ptxas 13 folds it into other "
            + "lines' code or removes it (a mov of a constant, address arithmetic ptxas folds into an offset)";
    private static final String UNFOLDED = "ptxas 13 keeps code for these source lines where jptxas folds it into "
            + "other lines' code or removes it";
    private static final String BOTH = "jptxas and ptxas 13 fold different lines' code into others (see both lists)";
    private static final String SUBROUTINES = "ptxas 13 keeps the called functions as subroutines of the kernel "
            + "(their lines, up to the return, count for it); jptxas inlines them";
    private static final String DWARF = "the PTX carries its own DWARF (.debug_info, .debug_abbrev, ...), which "
            + "ptxas 13 turns into .debug_info, .nv_debug_info_reg_*; jptxas writes the line tables only";
    private static final String SHARED = "ptxas 13 writes .nv_debug.shared for this file's module-scope shared "
            + "variables; jptxas does not";

    /** The file/SM pairs whose annotations differ, and why. */
    static final Map<String, String> KNOWN = Map.ofEntries(
            Map.entry("gpuocelot/sdk2.2__nbody_kernel.ptx@sm_80", SHARED));

    @Test
    void jptxasAnnotatesTheSourceLinesPtxasDoes() throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Oracles.assumePtxas13();
        List<LineInfoGate.Item> items = new ArrayList<>();
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            if (!e.ptxasAccepts() || !LOC.matcher(Files.readString(e.file(), java.nio.charset.StandardCharsets.ISO_8859_1)).find()) {
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
                m -> CorpusCodegenAcceptanceTest.outOfScopeFamily(m).isPresent(), KNOWN);
        System.out.println(o.gate().summary() + "; agreeing " + o.agreeing() + ", out of scope " + o.outOfScope());
        o.gate().differences().forEach(d -> System.out.println("  " + d.replace("\n", "\n    ")));
        Figures.check("lineinfo.compared", o.gate().compared());
        Figures.check("lineinfo.agree", o.agreeing());
        o.gate().verify(Figures.get("lineinfo.compared").value().intValue());
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
        Processes.Result g = Processes.run(List.of(nvdisasm.toString(), "-g", cubin.toString()), cubin.getParent());
        if (g.exitCode() != 0) {
            throw new IllegalStateException("nvdisasm -g: " + g.stderr().strip());
        }
        Processes.Result elf = Processes.run(List.of(cuobjdump.toString(), "-elf", cubin.toString()), cubin.getParent());
        if (elf.exitCode() != 0) {
            throw new IllegalStateException("cuobjdump -elf: " + elf.stderr().strip());
        }
        return new LineInfoGate.Annotation(LineInfoGate.annotatedLines(g.stdout()),
                LineInfoGate.debugSections(elf.stdout()));
    }
}
