package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompiledModule;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * BSSY/BSYNC placement against ptxas 13. The fixtures ({@code src/test/resources/simt}: divergent if/else, nested
 * and sequential regions, loops with divergent exits, early exits, uniform branches, both sides exiting, barriers and
 * shuffles inside divergent regions) have bodies long enough that ptxas keeps the branches; for each of sm_75, sm_80
 * and sm_90 our sequence of convergence-barrier instructions ({@code BMOV.32.CLEAR Bn}, {@code BSSY Bn},
 * {@code BSYNC Bn} in layout order) must equal ptxas's, and nvdisasm must read our cubin back as we printed it.
 */
class ReconvergencePlacementTest {
    private static final List<String> ARCHES = List.of("sm_75", "sm_80", "sm_90");
    /** The fixtures, and the (fixture, SM) pairs where ptxas writes convergence barriers: exact, not floors. */
    static final int FIXTURES = 19;
    static final int WITH_BARRIERS = 38;
    private static final Pattern BARRIER = Pattern.compile("\\b(BSSY B\\d+|BSYNC B\\d+|BMOV\\.32\\.CLEAR RZ, B\\d+)");
    private static final Pattern TARGET = Pattern.compile("(?m)^\\.target sm_\\d+");

    static List<String> skeleton(String listing) {
        List<String> out = new ArrayList<>();
        for (String line : listing.split("\n")) {
            Matcher m = BARRIER.matcher(line);
            if (line.matches("\\s+/\\*[0-9a-f]{4}\\*/.*") && m.find()) {
                out.add(m.group(1));
            }
        }
        return out;
    }

    /** {@code nvdisasm -c}, cached by the cubin's bytes ({@link OracleToolRuns}). */
    private static String nvdisasm(Path nvdisasm, Path cubin, Path dir) {
        Processes.Result r = OracleToolRuns.run(nvdisasm, List.of("-c"), cubin, dir, true);
        assertTrue(r.exitCode() == 0, "nvdisasm " + cubin + ": " + r.stderr());
        return r.stdout();
    }

    @Test
    void placementMatchesPtxasOnDivergenceFixtures(@TempDir Path dir) throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Oracles.assumePtxas13();
        Path fixtures;
        try {
            fixtures = Path.of(ReconvergencePlacementTest.class.getResource("/simt").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        List<Path> files;
        try (Stream<Path> s = Files.list(fixtures)) {
            files = s.filter(p -> p.toString().endsWith(".ptx")).sorted().toList();
        }
        assertEquals(FIXTURES, files.size(), "fixtures: " + files);
        SuiteRun run = new SuiteRun();
        List<String> failures = new ArrayList<>();
        int withBarriers = 0;
        for (Path file : files) {
            String text = Files.readString(file, StandardCharsets.ISO_8859_1);
            for (String arch : ARCHES) {
                String name = file.getFileName().toString().replace(".ptx", "");
                Path ptx = dir.resolve(name + "-" + arch + ".ptx");
                Files.writeString(ptx, TARGET.matcher(text).replaceFirst(".target " + arch), StandardCharsets.ISO_8859_1);
                OracleCubins.Compiled theirs = OracleCubins.ptxas13(ptx, arch);
                assertTrue(theirs.ok(), name + " " + arch + ": ptxas: " + theirs.diagnostics());
                List<String> expected = skeleton(nvdisasm(nvdisasm, theirs.cubin().orElseThrow(), dir));
                CompiledModule ours = run.compile(ptx, arch, CompileOptions.defaults());
                List<String> actual = skeleton(ours.sass());
                if (!expected.isEmpty()) {
                    withBarriers++;
                }
                if (!expected.equals(actual)) {
                    failures.add(name + " " + arch + ":\n  ptxas:  " + expected + "\n  jptxas: " + actual);
                }
                Path cubin = dir.resolve(name + "-" + arch + ".cubin");
                Files.write(cubin, ours.cubin());
                List<String> readBack = OracleAcceptanceTest.codeLines(nvdisasm(nvdisasm, cubin, dir));
                if (!readBack.equals(OracleAcceptanceTest.codeLines(ours.sass()))) {
                    failures.add(name + " " + arch + ": nvdisasm reads our cubin differently:\n"
                            + OracleAcceptanceTest.firstDifference(readBack, OracleAcceptanceTest.codeLines(ours.sass())));
                }
            }
        }
        assertEquals(WITH_BARRIERS, withBarriers, "(fixture, SM) pairs where ptxas writes BSSY");
        assertTrue(failures.isEmpty(), failures.size() + " placements differ:\n" + String.join("\n", failures));
    }

    /**
     * Per suite kernel on sm_80: how many BSSYs ptxas and jptxas emit. Our branches differ from ptxas's where its
     * if-conversion or its out-of-line slow paths (division, square root) differ from ours, so this reports rather
     * than compares counts; a kernel fails when ptxas gives it barriers and we give none. A ptxas failure is an oracle
     * failure, a throw of ours a crash; every suite kernel is compared.
     */
    /** The barrier gate's verdict, the number of kernels ptxas gives BSSY, and the report. */
    record Barriers(Gate gate, int ptxasKernels, String report) {}

    /** The BSSY counts of {@code kernels} on sm_80, ptxas 13's (read by {@code nvdisasm}) against {@code run}'s. */
    static Barriers barriers(List<KernelCase> kernels, SuiteRun run, Path nvdisasm, Path dir) {
        Gate gate = Gate.named("suite kernels get BSSY where ptxas gives them");
        Map<String, String> rows = new TreeMap<>();
        int ptxasKernels = 0;
        for (KernelCase k : kernels) {
            OracleCubins.Compiled theirs = OracleCubins.ptxas13(k.ptx(), "sm_80");
            if (!theirs.ok()) {
                gate.oracleFailed(k.name(), theirs.diagnostics());
                continue;
            }
            long expected = skeleton(nvdisasm(nvdisasm, theirs.cubin().orElseThrow(), dir)).stream()
                    .filter(s -> s.startsWith("BSSY")).count();
            long actual;
            try {
                actual = skeleton(run.compile(k.ptx(), "sm_80", CompileOptions.defaults()).sass()).stream()
                        .filter(s -> s.startsWith("BSSY")).count();
            } catch (Exception | StackOverflowError e) {
                gate.crash(k.name(), e);
                continue;
            }
            rows.put(k.name(), expected + " / " + actual);
            ptxasKernels += expected > 0 ? 1 : 0;
            if (expected > 0 && actual == 0) {
                gate.differ(k.name(), "ptxas gives it " + expected + " BSSY, jptxas none");
            } else {
                gate.pass();
            }
        }
        StringBuilder report = new StringBuilder("BSSY per suite kernel on sm_80 (ptxas / jptxas), where either has one:\n");
        rows.forEach((k, v) -> {
            if (!v.equals("0 / 0")) {
                report.append("  ").append(k).append(": ").append(v).append('\n');
            }
        });
        report.append("kernels ptxas gives BSSY: ").append(ptxasKernels).append('\n').append(gate.summary()).append('\n');
        return new Barriers(gate, ptxasKernels, report.toString());
    }

    @Test
    @Tag("slow")
    void suiteBarrierCounts(@TempDir Path dir) {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Oracles.assumePtxas13();
        // compared on sm_80: the kernels that need a newer SM (sm_90's bulk copies) are left out
        List<KernelCase> kernels = KernelSuite.all().stream().filter(k -> k.minSm() <= 80).toList();
        Barriers b = barriers(kernels, new SuiteRun(), nvdisasm, dir);
        System.out.print(b.report());
        b.gate().verify(kernels.size());
        assertEquals(SUITE_KERNELS_WITH_BARRIERS, b.ptxasKernels(), "suite kernels ptxas gives BSSY on sm_80");
    }

    /** Suite kernels ptxas 13 gives convergence barriers on sm_80. */
    static final int SUITE_KERNELS_WITH_BARRIERS = 17;
}
