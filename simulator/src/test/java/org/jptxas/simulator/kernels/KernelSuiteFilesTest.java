package org.jptxas.simulator.kernels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The suite's files agree with {@link KernelSuite}: every kernel ({@link KernelSuite#all()} and the arch-specific
 * {@link KernelSuite#archSpecific()}, the standalone {@link KernelSuite#standalone()}) has its CUDA source, PTX and committed launch spec, the committed spec is the
 * generated one (regenerate with {@code -Djptxas.kernels.regenerate=true}), and every spec is accepted by the
 * launch-spec reader.
 */
class KernelSuiteFilesTest {
    static List<KernelCase> cases() {
        List<KernelCase> all = new java.util.ArrayList<>(KernelSuite.all());
        all.addAll(KernelSuite.archSpecific());
        all.addAll(KernelSuite.standalone());
        return all;
    }

    @Test
    void theSuiteHasAtLeastFortyKernelsAndOneFolderEach() throws IOException {
        List<KernelCase> all = cases();
        assertTrue(all.size() >= 40, "only " + all.size() + " kernels");
        Set<String> names = all.stream().map(KernelCase::name).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(all.size(), names.size(), "duplicate kernel names");
        try (Stream<Path> dirs = Files.list(KernelSuite.kernelsDir())) {
            Set<String> folders = dirs.filter(Files::isDirectory).map(p -> p.getFileName().toString())
                    .collect(Collectors.toCollection(TreeSet::new));
            assertEquals(names, folders, "kernels/ folders and KernelSuite disagree");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void filesExistAndTheCommittedSpecIsTheGeneratedOne(KernelCase k) throws IOException {
        assertTrue(Files.isRegularFile(k.cuda()), k.cuda().toString());
        assertTrue(Files.isRegularFile(k.ptx()), k.ptx().toString());
        String ptx = Files.readString(k.ptx());
        assertTrue(ptx.contains(".entry " + k.entry() + "("), "no .entry " + k.entry() + " in " + k.ptx());
        if (Boolean.getBoolean("jptxas.kernels.regenerate")) {
            k.materialize(k.launchJson().getParent());
        }
        assertTrue(Files.isRegularFile(k.launchJson()), k.launchJson() + " missing (run with -Djptxas.kernels.regenerate=true)");
        assertEquals(k.launchSpecJson(), Files.readString(k.launchJson()), "stale " + k.launchJson());
        // The committed inputs are the generated ones, so `bin/jptxas-run --spec kernels/<k>/launch.json` runs as is.
        for (KernelCase.Arg a : k.args()) {
            if (a instanceof KernelCase.Buffer b && b.input()) {
                Path bin = k.launchJson().resolveSibling(b.name() + ".bin");
                assertTrue(Files.isRegularFile(bin), bin + " missing (run with -Djptxas.kernels.regenerate=true)");
                assertTrue(Arrays.equals(b.initial(), Files.readAllBytes(bin)), "stale " + bin);
            } else if (a instanceof KernelCase.TextureArg t) {
                Path bin = k.launchJson().resolveSibling(t.name() + ".bin");
                assertTrue(Files.isRegularFile(bin), bin + " missing (run with -Djptxas.kernels.regenerate=true)");
                assertTrue(Arrays.equals(t.texels(), Files.readAllBytes(bin)), "stale " + bin);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theSpecLoadsAndTheInputsReachTheBuffers(KernelCase k, @TempDir Path dir) throws Exception {
        Path specFile = k.materialize(dir);
        LaunchSpec spec = LaunchSpecReader.read(specFile);
        assertEquals(k.args().size(), spec.params().size());
        Launch launch = Launch.prepare(Target.of("sm_90"), spec);
        int i = 0;
        for (KernelCase.Arg a : k.args()) {
            if (a instanceof KernelCase.Buffer b) {
                byte[] actual = launch.arguments().get(i).buffer().orElseThrow().bytes();
                assertTrue(Arrays.equals(b.input() ? b.initial() : new byte[b.initial().length], actual), b.name());
            } else if (a instanceof KernelCase.Scalar s) {
                assertEquals(s.bits(), launch.arguments().get(i).bits(), s.name());
            } else if (a instanceof KernelCase.TextureArg t) {
                assertTrue(Arrays.equals(t.texels(), launch.arguments().get(i).buffer().orElseThrow().bytes()), t.name());
            }
            i++;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void theReferenceIsDeterministicAndWritesEveryOutput(KernelCase k) {
        Map<String, byte[]> first = k.expectedOutputs();
        Map<String, byte[]> second = k.expectedOutputs();
        assertFalse(first.isEmpty(), "no outputs");
        first.forEach((name, bytes) -> {
            assertTrue(Arrays.equals(bytes, second.get(name)), name + " differs between runs");
            assertTrue(k.compare(Map.of(name, bytes), 3).stream().noneMatch(p -> p.contains(name + "[")),
                    "reference does not match itself");
        });
        // The comparison can fail: flipping one bit of an output is reported.
        String name = first.keySet().iterator().next();
        byte[] wrong = first.get(name).clone();
        wrong[wrong.length - 1] ^= 0x10;
        Map<String, byte[]> actual = new java.util.HashMap<>(first);
        actual.put(name, wrong);
        assertFalse(k.compare(actual, 3).isEmpty(), "a flipped bit was not noticed in " + name);
    }
}
