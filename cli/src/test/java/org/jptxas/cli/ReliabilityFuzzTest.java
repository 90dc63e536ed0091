package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.cubin.Cubin;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.spi.TestTargets;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.LaunchSpecException;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;

/**
 * Coverage-guided fuzz targets (issue 22), one per component that reads outside input. Each allows only its
 * documented outcomes: success, or a diagnostic in ptxas's format (for the library targets: the exception type the
 * component documents for bad input). Anything else (another exception, an {@code Internal compiler error}, a
 * stack trace, a partial output file, a run past the time limit) is a finding.
 *
 * <p>{@code mvn verify} runs each target on its regression inputs ({@code ReliabilityFuzzTestInputs/<target>/}: every
 * finding, once fixed, and hand-made inputs of the bugs issue 22 lists). The emulator's target is {@link
 * EmulatorFuzzTest}. {@code scripts/fuzz} fuzzes each target
 * for a bounded time with seeds from the kernel suite and {@code ../shared/corpus}, read where they are.
 */
class ReliabilityFuzzTest {
    /** One line of a ptxas-format diagnostic, with or without a position. */
    private static final Pattern DIAGNOSTIC = Pattern.compile(
            "(jptxas|jcuobjdump) (\\S.*, line \\d+; )?(error|fatal|warning|info) +: \\S.*");
    private static final Path WORK;
    /**
     * The backends, discovered once: their tables are read-only, and loading them again for every input would spend
     * the fuzzing time on table loading (seconds per input under coverage instrumentation).
     */
    private static final Registries BACKENDS = Registries.shared();
    private static final BackendRegistry INSTALLED = InstalledBackends.ofEnvironment();

    static {
        try {
            WORK = Files.createTempDirectory("jptxas-fuzz");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @AfterAll
    static void cleanUp() throws IOException {
        clear();
        Files.deleteIfExists(WORK);
    }

    static void clear() throws IOException {
        try (Stream<Path> files = Files.list(WORK)) {
            for (Path p : files.toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private static List<String> listWork() throws IOException {
        try (Stream<Path> files = Files.list(WORK)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    /** Every line of {@code err} is a diagnostic of {@code tool} and none is an internal error. */
    private static void assertDiagnostics(String err, String context) {
        assertTrue(!err.isBlank(), context + ": failed without a diagnostic");
        for (String line : err.lines().toList()) {
            assertTrue(DIAGNOSTIC.matcher(line).matches(), context + ": not a diagnostic line: " + line);
            assertTrue(!line.contains("Internal compiler error") && !line.contains("Internal error"),
                    context + ": " + line);
        }
    }

    // ---- the whole compile: PTX text -> cubin through the jptxas command, as bin/jptxas runs it

    @FuzzTest(maxDuration = "60s")
    @Timeout(30)
    void compile(byte[] ptx) throws IOException {
        clear();
        Files.write(WORK.resolve("in.ptx"), ptx);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new JptxasCommand(new PrintWriter(out), new PrintWriter(err), Map.of(), null, WORK, BACKENDS)
                .run(new String[] {"-arch=sm_80", "in.ptx", "-o", "out.cubin", "--out-sass", "out.sass"});
        String e = err.toString();
        if (rc == 0) {
            assertEquals(List.of("in.ptx", "out.cubin", "out.sass"), listWork());
            Cubin.read(Files.readAllBytes(WORK.resolve("out.cubin")));
            for (String line : e.lines().toList()) {
                assertTrue(DIAGNOSTIC.matcher(line).matches() && line.contains("warning"), "exit 0 with: " + line);
            }
        } else {
            assertEquals(JptxasCommand.FAILURE, rc, e);
            assertDiagnostics(e, "compile");
            assertEquals(List.of("in.ptx"), listWork(), "a failed compile leaves no output: " + e);
        }
    }

    // ---- the PTX front end alone: parse, check, lower

    @FuzzTest(maxDuration = "60s")
    @Timeout(30)
    void frontEnd(byte[] ptx) {
        String text = new String(ptx, StandardCharsets.ISO_8859_1);
        try {
            PtxFrontEnd.CheckedModule m = TestFrontEnds.of("sm_90").check("in.ptx", text);
            m.lower();
        } catch (CompilationException ex) {
            assertTrue(!ex.diagnostics().isEmpty(), "refused without a diagnostic");
            for (Diagnostic d : ex.diagnostics()) {
                assertTrue(DIAGNOSTIC.matcher(d.format("jptxas")).matches(), d.format("jptxas"));
            }
            assertTrue(ex.diagnostics().stream().anyMatch(Diagnostic::isError), "refused without an error");
        }
    }

    // ---- the SASS decoder on random words; what decodes prints, re-assembles and decodes to the same text

    static final String[] SMS = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"};
    @FuzzTest(maxDuration = "60s")
    @Timeout(30)
    void sassDecode(byte[] words) {
        if (words.length < 1) {
            return;
        }
        SassIsa isa = TestTargets.of(SMS[(words[0] & 0xff) % SMS.length]).isa();
        SassAssembler assembler = new SassAssembler(isa);
        for (int p = 1; p + 16 <= words.length; p += 16) {
            long lo = SassIsa.le64(words, p);
            long hi = SassIsa.le64(words, p + 8);
            SassInstruction inst = isa.decode(lo, hi);
            if (!(inst instanceof SassInstruction.Known k) || !k.control().legal()) {
                // the decoder reads any bits; the assembler refuses illegal scheduling values (Y with stall 0)
                continue;
            }
            long address = 0x100;
            String text = SassPrinter.text(inst, address, null);
            long[] again;
            try {
                // the listing's text, decode-only reuse-flag combinations included, assembles back
                again = assembler.assembleListing(text, k.control(), address, name -> {
                    throw new IllegalArgumentException("no label " + name);
                });
            } catch (SassAssembler.AssemblyException ex) {
                fail(isa.sm() + " " + SassIsa.hex128(lo, hi) + ": '" + text + "' does not assemble: " + ex.getMessage());
                return;
            }
            String back = SassPrinter.text(isa.decode(again[0], again[1]), address, null);
            assertEquals(text, back, isa.sm() + " " + SassIsa.hex128(lo, hi) + " re-assembled as "
                    + SassIsa.hex128(again[0], again[1]));
        }
    }

    // ---- the SASS assembler on random text

    @FuzzTest(maxDuration = "60s")
    @Timeout(30)
    void sassAssemble(byte[] bytes) {
        if (bytes.length < 1) {
            return;
        }
        SassIsa isa = TestTargets.of(SMS[(bytes[0] & 0xff) % SMS.length]).isa();
        SassAssembler assembler = new SassAssembler(isa);
        String text = new String(bytes, 1, bytes.length - 1, StandardCharsets.ISO_8859_1);
        long address = 0;
        for (String line : text.split("\n", 64)) {
            try {
                long[] w = assembler.assemble(line, address, name -> {
                    throw new IllegalArgumentException("no label " + name);
                });
                assertTrue(isa.decode(w[0], w[1]) instanceof SassInstruction.Known, line);
            } catch (SassAssembler.AssemblyException ex) {
                // bad text: the documented outcome
            }
            address += 16;
        }
    }

    // ---- the cubin reader, as jcuobjdump runs it (-elf and -sass)

    @FuzzTest(maxDuration = "60s")
    @Timeout(30)
    void cubinReader(byte[] cubin) throws IOException {
        clear();
        Files.write(WORK.resolve("in.cubin"), cubin);
        for (String mode : List.of("-elf", "-sass")) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = new JcuobjdumpCommand(new PrintWriter(out), new PrintWriter(err), WORK, () -> INSTALLED)
                    .run(new String[] {mode, "in.cubin"});
            if (rc != 0) {
                assertEquals(255, rc, err.toString());
                assertDiagnostics(err.toString(), "jcuobjdump " + mode);
                assertEquals(1, err.toString().lines().count(), "one line: " + err);
            }
        }
    }

    // ---- the launch-spec reader (jptxas-run's --spec), then the launch it describes

    static final Path SUITE = RepoRoot.find().orElseThrow().resolve("kernels");

    @FuzzTest(maxDuration = "60s")
    @Timeout(30)
    void launchSpec(byte[] json) {
        LaunchSpec spec;
        try {
            spec = LaunchSpecReader.parse("launch.json", new String(json, StandardCharsets.UTF_8),
                    SUITE.resolve("saxpy"));
        } catch (LaunchSpecException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "refused without a reason");
            return;
        }
        long buffers = spec.params().stream().mapToLong(p -> p instanceof org.jptxas.simulator.launch.ParamSpec.Pointer b
                ? b.bytes() : 0).sum();
        if (buffers > (16 << 20)) {
            return; // a legal spec (the reader allows 1 GiB buffers), too slow to allocate on every execution
        }
        try {
            Launch.prepare(Target.of("sm_80"), spec);
        } catch (LaunchException e) {
            assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), "refused without a reason");
        }
    }
}
