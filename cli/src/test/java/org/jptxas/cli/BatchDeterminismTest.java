package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jptxas.testing.RepoRoot;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jptxas-batch --jobs N} (issue 22): the suite compiled four at a time, in reverse order, gives the serial
 * run's cubins byte for byte.
 */
class BatchDeterminismTest {
    @TempDir
    Path dir;

    /** The suite's PTX files: kernels/ without the arch-specific kernels beside it (.target sm_90a, run elsewhere). */
    static List<String> suitePtx() throws IOException {
        try (Stream<Path> s = Files.walk(RepoRoot.find().orElseThrow().resolve("kernels"))) {
            return s.filter(p -> p.toString().endsWith(".ptx")).filter(p -> !archSpecific(p)).map(Path::toString)
                    .sorted().toList();
        }
    }

    static boolean archSpecific(Path ptx) {
        try (Stream<String> lines = Files.lines(ptx)) {
            return lines.map(String::strip).filter(l -> l.startsWith(".target")).findFirst()
                    .map(l -> l.split("[\\s,]+")[1].endsWith("a")).orElse(false);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    static boolean atMostSm80(Path ptx) {
        try (Stream<String> lines = Files.lines(ptx)) {
            return lines.map(String::strip).filter(l -> l.startsWith(".target")).findFirst()
                    .map(l -> l.replaceAll("[^0-9]", "")).map(n -> n.isEmpty() || Integer.parseInt(n) <= 80)
                    .orElse(true);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** The cubins of one batch run, by input file name ({@code i-NAME.cubin} without its index). */
    static Map<String, byte[]> batch(Path out, List<String> options, List<String> inputs) throws Exception {
        List<String> args = new ArrayList<>(options);
        args.add("--out-dir");
        args.add(out.toString());
        args.addAll(inputs);
        StringWriter text = new StringWriter();
        int rc = JptxasBatchMain.run(args.toArray(String[]::new), new PrintWriter(text));
        assertEquals(0, rc, text.toString());
        Map<String, byte[]> cubins = new TreeMap<>();
        try (Stream<Path> s = Files.list(out)) {
            for (Path p : s.toList()) {
                cubins.put(p.getFileName().toString().replaceFirst("^\\d+-", ""), Files.readAllBytes(p));
            }
        }
        return cubins;
    }

    static void assertSameBytes(Map<String, byte[]> expected, Map<String, byte[]> actual, String what) {
        assertEquals(expected.keySet(), actual.keySet(), what);
        List<String> differ = new ArrayList<>();
        expected.forEach((name, bytes) -> {
            if (!Arrays.equals(bytes, actual.get(name))) {
                differ.add(name);
            }
        });
        assertTrue(differ.isEmpty(), what + ": cubins differ from the serial run's: " + differ);
    }

    @Test
    void fourJobsInReverseOrderGiveTheSerialBytes() throws Exception {
        List<String> all = suitePtx();
        // the standalone kernels beside the suite (KernelSuite.standalone()) are compiled too, not counted
        Set<String> standalone = KernelSuite.standalone().stream().map(k -> k.name() + ".ptx").collect(Collectors.toSet());
        assertEquals(Figures.get("suite.kernels").value().intValueExact(),
                all.stream().filter(p -> !standalone.contains(Path.of(p).getFileName().toString())).count(),
                "the kernel suite");
        // compiled for sm_80: kernels whose .target is newer (sm_90's bulk copies) are refused there by design
        List<String> inputs = all.stream().filter(p -> atMostSm80(Path.of(p))).toList();
        int kernels = inputs.size();
        Map<String, byte[]> serial = batch(Files.createDirectory(dir.resolve("serial")), List.of("-arch=sm_80"), inputs);
        List<String> reversed = new ArrayList<>(inputs);
        Collections.reverse(reversed);
        Map<String, byte[]> parallel = batch(Files.createDirectory(dir.resolve("parallel")),
                List.of("-arch=sm_80", "--jobs", "4"), reversed);
        assertEquals(kernels, serial.size());
        assertSameBytes(serial, parallel, "--jobs 4, reversed");
    }
}
