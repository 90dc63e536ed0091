package org.jptxas.frontend.ptx.corpus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.frontend.ptx.ast.ModelEquality;
import org.jptxas.frontend.ptx.check.CheckResult;
import org.jptxas.frontend.ptx.check.PtxChecker;
import org.jptxas.frontend.ptx.parse.ParseResult;
import org.jptxas.frontend.ptx.parse.PtxParser;
import org.jptxas.frontend.ptx.print.PtxPrinter;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Prerequisites;
import org.jptxas.testing.gate.Figures;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.spi.TestTargets;

/**
 * The front end over the shared corpus: what ptxas accepts passes, what ptxas rejects for a language reason is
 * rejected with a positioned diagnostic, every accepted file survives parse → print → parse and ptxas accepts the
 * printed text, and thousands of mutations never crash or hang.
 *
 * <p><b>Link-time rejections.</b> ptxas without {@code -c} links the module as a whole program, so a call to an
 * {@code .extern .func} that no file defines fails with {@code fatal : Unresolved extern function 'f'} (no line).
 * That is not a language error: the same file compiles with {@code ptxas -c} (relocatable, resolved by nvlink), and
 * {@code --syntax-only} accepts it. {@link #linkTimeRejectionsAreAcceptedAndCompileWithDashC} checks both halves.
 */
@Tag("slow")
class CorpusFrontEndTest {
    private static final Pattern PTXAS_LINE = Pattern.compile(", line (\\d+);");
    private static final Pattern NEWER_ISA = Pattern.compile("Unsupported \\.version 9\\.[12];");

    @TempDir
    Path dir;

    static String read(Path p) {
        try {
            return new String(Files.readAllBytes(p), StandardCharsets.ISO_8859_1);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean isLinkTime(Corpus.Entry e) {
        return e.get("ptxas_error").contains("Unresolved extern function");
    }

    static List<Corpus.Entry> accepted() {
        return Corpus.assumeEntries().stream().filter(Corpus.Entry::ptxasAccepts).toList();
    }

    static String name(Corpus.Entry e) {
        return e.file().getFileName().toString();
    }

    @Test
    void acceptedFilesPassParsingAndNameChecks() {
        List<String> failures = new ArrayList<>();
        List<Corpus.Entry> accepted = accepted();
        Figures.check("frontend.corpus.accepted", accepted.size());
        for (Corpus.Entry e : accepted) {
            ParseResult parsed = PtxParser.parse(name(e), read(e.file()));
            List<Diagnostic> diags = new ArrayList<>(parsed.diagnostics());
            if (!parsed.hasErrors()) {
                CheckResult checked = PtxChecker.check(name(e), parsed.module(), Target.of(e.arch()), TestTargets.catalog(), false);
                diags.addAll(checked.diagnostics());
            }
            diags.stream().filter(Diagnostic::isError).findFirst().ifPresent(d -> failures.add(d.format("jptxas")));
        }
        assertEquals(List.of(), failures);
    }

    /** The full --syntax-only check, instruction table included (the table is module isa's). */
    @Test
    void acceptedFilesPassTheFullCheck() {
        List<String> failures = new ArrayList<>();
        for (Corpus.Entry e : accepted()) {
            try {
                TestFrontEnds.of(Target.of(e.arch())).check(name(e), read(e.file()));
            } catch (CompilationException ex) {
                failures.add(ex.diagnostics().get(0).format("jptxas"));
            }
        }
        assertEquals(List.of(), failures, failures.size() + " accepted corpus files rejected");
    }

    @Test
    void languageRejectionsArePositionedAtPtxassLine() {
        List<String> failures = new ArrayList<>();
        List<String> newerIsa = new ArrayList<>();
        int checked = 0;
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            if (e.ptxasAccepts() || isLinkTime(e)) {
                continue;
            }
            if (NEWER_ISA.matcher(e.get("ptxas_error")).find()) {
                // PTX ISA 9.1 and 9.2, which jptxas accepts beyond ptxas 13.0: ptxas's verdict is about its version
                newerIsa.add(name(e));
                continue;
            }
            checked++;
            try {
                TestFrontEnds.of(Target.of(e.arch())).check(name(e), read(e.file()));
                failures.add(name(e) + ": accepted, ptxas says " + e.get("ptxas_error"));
            } catch (CompilationException ex) {
                List<Diagnostic> errors = ex.diagnostics().stream().filter(Diagnostic::isError).toList();
                if (errors.stream().noneMatch(d -> d.line() > 0)) {
                    failures.add(name(e) + ": no positioned diagnostic " + errors);
                    continue;
                }
                Matcher m = PTXAS_LINE.matcher(e.get("ptxas_error"));
                if (m.find()) {
                    int line = Integer.parseInt(m.group(1));
                    if (errors.stream().noneMatch(d -> d.line() == line)) {
                        failures.add(name(e) + ": ptxas reports line " + line + ", we report " + errors);
                    }
                }
            }
        }
        assertEquals(List.of(), failures);
        assertEquals(List.of("makepath_rtxpy__rtxpy__kernel.ptx", "v3.7.0__ptx__sm120__matmul_kernel_make_tensor_desciptor.ptx"),
                newerIsa.stream().sorted().toList(), "files ptxas 13.0 refuses only for their .version 9.1/9.2");
        Figures.check("frontend.corpus.rejected", checked);
    }

    @Test
    void linkTimeRejectionsAreAcceptedAndCompileWithDashC() throws CompilationException {
        List<Corpus.Entry> linkTime = Corpus.assumeEntries().stream().filter(CorpusFrontEndTest::isLinkTime).toList();
        assertTrue(linkTime.size() >= 1);
        for (Corpus.Entry e : linkTime) {
            TestFrontEnds.of(Target.of(e.arch())).check(name(e), read(e.file()));
        }
        Oracles.assumePtxas13(); // the ptxas half: skipped on a bare JDK, required under CI
        for (Corpus.Entry e : linkTime) {
            OracleCubins.Compiled c = OracleCubins.ptxas13(e.file(), e.arch(), "-c");
            assertTrue(c.ok(), () -> name(e) + " with -c: " + c.diagnostics());
        }
    }

    @Test
    void roundTripGivesEqualModelsAndPtxasAcceptsThePrintedText() throws Exception {
        List<Corpus.Entry> entries = accepted();
        boolean ptxas = Oracles.ptxas13().isPresent();
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            List<Future<?>> jobs = new ArrayList<>();
            for (Corpus.Entry e : entries) {
                jobs.add(pool.submit(() -> {
                    ParseResult first = PtxParser.parse(name(e), read(e.file()));
                    String printed = PtxPrinter.print(first.module());
                    ParseResult second = PtxParser.parse(name(e), printed);
                    Optional<String> diff = ModelEquality.firstDifference(first.module(), second.module());
                    if (second.hasErrors() || diff.isPresent()) {
                        failures.add(name(e) + ": " + diff.orElse("") + " " + second.diagnostics());
                        return;
                    }
                    if (ptxas) {
                        Path out = dir.resolve(name(e));
                        try {
                            Files.writeString(out, printed, StandardCharsets.ISO_8859_1);
                        } catch (IOException ex) {
                            throw new UncheckedIOException(ex);
                        }
                        OracleCubins.Compiled c = OracleCubins.ptxas13(out, e.arch());
                        if (!c.ok()) {
                            failures.add(name(e) + ": ptxas rejects the printed text: " + c.diagnostics());
                        }
                    }
                }));
            }
            for (Future<?> j : jobs) {
                j.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(List.of(), failures);
        assertTrue(entries.size() > 0, "the corpus has accepted files");
        // the printed text's ptxas half: skipped on a bare JDK (after the round trip passed), required under CI
        Prerequisites.require(ptxas, "ptxas 13 for the printed text's acceptance");
    }

    @Test
    void thousandsOfMutationsNeverCrashOrHang() throws InterruptedException {
        List<String> texts = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (Corpus.Entry e : accepted()) {
            // Small and medium files: the mutation budget goes to variety, not to re-lexing megabytes.
            if (e.file().toFile().length() < 60_000) {
                texts.add(read(e.file()));
                names.add(name(e));
            }
        }
        MutationHarness.Outcome o = MutationHarness.run(texts, names, Target.of("sm_90a"), 0x5EED_F00DL, 3000, 75_000);
        assertTrue(o.problems().isEmpty(), () -> String.join("\n", o.problems()));
        assertTrue(o.cases() >= 2000, "at least 2000 cases in the time budget: " + o);
    }
}
