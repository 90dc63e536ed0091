package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Symbol;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution's launcher called as Triton and XLA call ptxas (the forms in ../shared/docs/toolchain-contracts.md),
 * through a link named {@code ptxas} as a toolchain's ptxas path would be: the version patterns they read, their
 * argument order and options on real kernels (Triton's corpus files, the kernel suite for XLA), the cubins, and the
 * message texts XLA matches, which must be ptxas 13's own for the same call.
 */
class ToolchainInvocationIT {
    @TempDir
    static Path tmp;

    static PtxasLink link;
    static Path ptxas;
    static Map<String, String> env;

    @BeforeAll
    static void setUp() throws IOException {
        link = PtxasLink.create(tmp);
        ptxas = link.ptxas();
        env = link.env();
    }

    @AfterAll
    static void stopServer() throws IOException {
        link.stopServers();
    }

    static Processes.Result call(Path dir, List<String> args) {
        List<String> cmd = new ArrayList<>(List.of(ptxas.toString()));
        cmd.addAll(args);
        return Processes.run(cmd, dir, env, 300);
    }

    @Test
    void versionReadsAsTritonAndXlaReadIt() {
        String first = call(tmp, List.of("--version")).stdout();
        assertEquals(first, call(tmp, List.of("--version")).stdout(), "stable: both put it in their cache keys");
        Matcher triton = Pattern.compile(".*release (\\d+\\.\\d+).*").matcher(first);
        assertTrue(triton.find(), first);
        assertEquals("13.0", triton.group(1));
        Matcher xla = Pattern.compile("\\bV(\\d+)\\.(\\d+)\\.(\\d+)\\b").matcher(first);
        assertTrue(xla.find(), first);
        int[] v = {Integer.parseInt(xla.group(1)), Integer.parseInt(xla.group(2)), Integer.parseInt(xla.group(3))};
        assertTrue(v[0] > 11 || v[0] == 11 && v[1] >= 8, "XLA wants at least 11.8.0: " + first);
        assertFalse(v[0] == 12 && v[1] == 3 && v[2] == 103, "XLA refuses 12.3.103");
    }

    /** Triton's files in the corpus that ptxas accepts for sm_75 ... sm_90a, each with Triton's command line. */
    @Test
    void tritonsCommandLineOnTritonsKernels() throws IOException {
        List<Corpus.Entry> files = Corpus.assumeEntries().stream()
                .filter(e -> e.get("source").equals("triton_runner") && e.ptxasAccepts())
                .filter(e -> e.arch().matches("sm_(75|8\\d|90a?)")).toList();
        Gate gate = Gate.withKnown("Triton's command line on Triton's kernels", TRITON_NOT_YET);
        int compiled = 0;
        for (Corpus.Entry e : files) {
            Path dir = Files.createTempDirectory(tmp, "triton");
            Path in = dir.resolve(e.file().getFileName());
            Files.copy(e.file(), in);
            // compiler.py: ptxas -lineinfo [--fmad=false] -v [--opt-level 0] --gpu-name=sm_XX[a] in.ptx -o in.ptx.o
            List<String> args = List.of("-lineinfo", "-v", "--gpu-name=" + e.arch(), in.toString(), "-o", in + ".o");
            Processes.Result r = call(dir, args);
            String key = e.file().getFileName().toString();
            if (r.exitCode() != 0) {
                gate.differ(key, "exit " + r.exitCode() + ": " + r.stderr().strip());
                continue;
            }
            String problem = cubinProblem(in, Path.of(in + ".o"), e.arch());
            if (problem != null) {
                gate.differ(key, problem);
            } else if (!r.stderr().contains("ptxas info    : Used ")) {
                gate.differ(key, "-v's report does not say 'ptxas info    : Used': " + r.stderr());
            } else {
                gate.pass();
                compiled++;
            }
        }
        gate.verify(1);
        Figures.check("toolchain.triton.compiled", compiled);
    }

    /** Files ptxas takes that jptxas cannot compile yet, by what they use: none (sm_120a ones wait for Blackwell). */
    static final Map<String, String> TRITON_NOT_YET = Map.of();

    /** XLA's command line (input first, --warn-on-spills, -v; and -O0) on the kernel suite for sm_80 and sm_90a. */
    @Test
    void xlasCommandLineOnTheKernelSuite() throws IOException {
        Path kernels = Path.of("../kernels").toAbsolutePath().normalize();
        List<Path> inputs;
        try (var s = Files.list(kernels)) {
            inputs = s.filter(Files::isDirectory).map(d -> d.resolve(d.getFileName() + ".ptx")).filter(Files::isRegularFile)
                    .sorted().toList();
        }
        Gate gate = Gate.named("XLA's command line on the kernel suite");
        int skipped = 0;
        for (String arch : List.of("sm_80", "sm_90a")) {
            for (int i = 0; i < inputs.size(); i++) {
                Path in = inputs.get(i);
                if (arch.equals("sm_80") && !BatchDeterminismTest.atMostSm80(in)) {
                    skipped++; // a kernel for a newer SM (sm_90's bulk copies): XLA would not ask for it on sm_80
                    continue;
                }
                Path dir = Files.createTempDirectory(tmp, "xla");
                Path out = dir.resolve("out.cubin");
                List<String> args = new ArrayList<>(List.of(in.toString(), "-o", out.toString(), "-arch=" + arch,
                        "--warn-on-spills", "-v"));
                if (i % 4 == 0) {
                    args.add("-O0");
                }
                Processes.Result r = call(dir, args);
                String key = arch + " " + in.getFileName() + (args.contains("-O0") ? " -O0" : "");
                String problem = r.exitCode() != 0 ? "exit " + r.exitCode() + ": " + r.stderr().strip()
                        : cubinProblem(in, out, arch);
                if (problem == null && r.stderr().contains("Registers are spilled")
                        && !SPILL_LINE.matcher(r.stderr()).find()) {
                    problem = "a spill warning XLA cannot read: " + r.stderr();
                }
                if (problem == null) {
                    gate.pass();
                } else {
                    gate.differ(key, problem);
                }
            }
        }
        gate.verify(2 * inputs.size() - skipped);
    }

    /** XLA's statistics pattern for spill warnings. */
    static final Pattern SPILL_LINE = Pattern.compile("function '(\\w+)', (\\d+) bytes spill stores, (\\d+) bytes spill loads");

    /**
     * The failures XLA tells apart by ptxas's text: an unknown target (it falls back to the driver) and a PTX ISA
     * version the tool does not know (it reads the newest one from the quotes). The whole log is ptxas 13's, apart
     * from the newest version, which jptxas names as its own.
     */
    @Test
    void theMessagesXlaMatchesAreTheOnesPtxasPrints() throws IOException {
        Path real = Oracles.assumePtxas13();
        Path dir = Files.createTempDirectory(tmp, "messages");
        Path saxpy = Files.copy(Path.of("../examples/saxpy.ptx"), dir.resolve("saxpy.ptx"));
        List<String> unknownTarget = List.of(saxpy.toString(), "-o", "out.cubin", "-arch=sm_999", "--warn-on-spills");
        Processes.Result ours = call(dir, unknownTarget);
        Processes.Result theirs = Processes.run(concat(real.toString(), unknownTarget), dir, Map.of(), 120);
        assertEquals(theirs.exitCode(), ours.exitCode());
        assertEquals(theirs.stderr(), ours.stderr());
        assertTrue(ours.stderr().contains("ptxas fatal   : Value '") && ours.stderr().contains(
                "is not defined for option 'gpu-name'"), ours.stderr());
        assertFalse(Files.exists(dir.resolve("out.cubin")));

        Path future = dir.resolve("future.ptx");
        Files.writeString(future, Files.readString(saxpy).replace(".version 8.0", ".version 9.9"));
        List<String> newer = List.of(future.toString(), "-o", "out.cubin", "-arch=sm_80");
        ours = call(dir, newer);
        theirs = Processes.run(concat(real.toString(), newer), dir, Map.of(), 120);
        assertEquals(theirs.exitCode(), ours.exitCode());
        assertEquals(theirs.stderr().replace("current version is '9.0'", "current version is '9.2'"), ours.stderr());
        // XLA splits the log at single quotes and reads the middle part as the newest version
        String[] chunks = ours.stderr().split("'", -1);
        assertEquals(3, chunks.length, ours.stderr());
        assertEquals("9.2", chunks[1]);
    }

    /** The cubin check fails on a cubin for another SM, one missing an entry, and bytes that are no cubin. */
    @Test
    void theCubinCheckFailsOnPlantedFaults() throws IOException {
        Path dir = Files.createTempDirectory(tmp, "faults");
        Path saxpy = Files.copy(Path.of("../examples/saxpy.ptx"), dir.resolve("saxpy.ptx"));
        Path out = dir.resolve("out.cubin");
        assertEquals(0, call(dir, List.of(saxpy.toString(), "-o", out.toString(), "-arch=sm_80")).exitCode());
        assertEquals(null, cubinProblem(saxpy, out, "sm_80"));
        assertTrue(cubinProblem(saxpy, out, "sm_90") != null);
        Path other = dir.resolve("other.ptx");
        Files.writeString(other, Files.readString(saxpy) + "\n.visible .entry missing()\n{\n\tret;\n}\n");
        assertTrue(cubinProblem(other, out, "sm_80").contains("missing"));
        Files.write(out, java.util.Arrays.copyOf(Files.readAllBytes(out), 40));
        assertTrue(cubinProblem(saxpy, out, "sm_80") != null);
    }

    private static List<String> concat(String first, List<String> rest) {
        List<String> all = new ArrayList<>(List.of(first));
        all.addAll(rest);
        return all;
    }

    private static final Pattern ENTRY = Pattern.compile("\\.entry\\s+([\\w$]+)");

    /** Null when {@code cubin} is a cubin for {@code arch} defining every entry of {@code ptx}; else what is wrong. */
    static String cubinProblem(Path ptx, Path cubin, String arch) throws IOException {
        if (!Files.isRegularFile(cubin)) {
            return "no output file";
        }
        Cubin c;
        try {
            c = Cubin.read(Files.readAllBytes(cubin));
        } catch (RuntimeException e) {
            return "not a cubin: " + e;
        }
        int sm = Integer.parseInt(arch.replaceAll("\\D", ""));
        if (c.sm() != sm) {
            return "a cubin for sm_" + c.sm();
        }
        Set<String> entries = new TreeSet<>();
        Matcher m = ENTRY.matcher(Files.readString(ptx, StandardCharsets.ISO_8859_1));
        while (m.find()) {
            entries.add(m.group(1));
        }
        Map<String, Symbol> functions = new TreeMap<>();
        for (Symbol s : c.symbols()) {
            if (s.symbolType() == Symbol.STT_FUNC && s.shndx() > 0) {
                functions.put(s.name(), s);
            }
        }
        if (entries.isEmpty() || !functions.keySet().containsAll(entries)) {
            return "entries " + entries + ", functions defined " + functions.keySet();
        }
        return null;
    }
}
