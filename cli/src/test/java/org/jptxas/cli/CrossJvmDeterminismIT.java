package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.jptxas.testing.Prerequisites;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Determinism across processes and JVMs (issue 22): the packaged distribution run by this JDK (17, the launcher's
 * flags, serial) and by JDK 25 (default flags, two jobs, the inputs in reverse order) writes the same cubins for the
 * whole suite on sm_80 and sm_90. JDK 25 is taken from {@code JPTXAS_JDK25} or {@code /usr/lib/jvm/*25*}.
 */
@Tag("slow")
class CrossJvmDeterminismIT {
    @TempDir
    Path dir;

    static Optional<Path> jdk25() throws IOException {
        String env = System.getenv("JPTXAS_JDK25");
        if (env != null && Files.isExecutable(Path.of(env, "bin/java"))) {
            return Optional.of(Path.of(env, "bin/java"));
        }
        Path jvms = Path.of("/usr/lib/jvm");
        if (!Files.isDirectory(jvms)) {
            return Optional.empty();
        }
        try (Stream<Path> s = Files.list(jvms)) {
            return s.filter(p -> p.getFileName().toString().matches(".*\\b25\\b.*|.*-25-.*|.*-25"))
                    .map(p -> p.resolve("bin/java")).filter(Files::isExecutable).sorted().findFirst();
        }
    }

    private Map<String, byte[]> run(String java, List<String> jvmFlags, List<String> options, List<String> inputs,
            String name) throws Exception {
        Path out = Files.createDirectory(dir.resolve(name));
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-Djptxas.home=" + Path.of("target").toAbsolutePath(), "-cp",
                Path.of("target/lib").toAbsolutePath() + "/*", "org.jptxas.cli.JptxasBatchMain",
                "--out-dir", out.toString()));
        cmd.addAll(options);
        cmd.addAll(inputs);
        Processes.Result r = Processes.run(cmd, dir, Map.of(), 600);
        assertEquals(0, r.exitCode(), name + ": " + r.stdout() + r.stderr());
        Map<String, byte[]> cubins = new java.util.TreeMap<>();
        try (Stream<Path> s = Files.list(out)) {
            for (Path p : s.toList()) {
                cubins.put(p.getFileName().toString().replaceFirst("^\\d+-", ""), Files.readAllBytes(p));
            }
        }
        return cubins;
    }

    @Test
    void jdk17AndJdk25WriteTheSameCubins() throws Exception {
        Optional<Path> other = jdk25();
        Prerequisites.require(other.isPresent(), "JDK 25 not found (JPTXAS_JDK25 or /usr/lib/jvm/*25*)");
        String java17 = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        assertTrue(Runtime.version().feature() == 17, "this test runs on JDK 17: " + Runtime.version());
        int compared = 0;
        for (String sm : List.of("sm_80", "sm_90")) {
            // sm_80 leaves out the kernels whose .target is newer (sm_90's bulk copies), which it refuses by design
            List<String> inputs = BatchDeterminismTest.suitePtx().stream()
                    .filter(p -> sm.equals("sm_90") || BatchDeterminismTest.atMostSm80(Path.of(p))).toList();
            List<String> reversed = new ArrayList<>(inputs);
            Collections.reverse(reversed);
            Map<String, byte[]> a = run(java17, List.of("-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"),
                    List.of("-arch=" + sm, "--quiet-errors"), inputs, "jdk17-" + sm);
            Map<String, byte[]> b = run(other.get().toString(), List.of(),
                    List.of("-arch=" + sm, "--quiet-errors", "--jobs", "2"), reversed, "jdk25-" + sm);
            BatchDeterminismTest.assertSameBytes(a, b, "JDK 25 against JDK 17, " + sm);
            compared += a.size();
        }
        assertTrue(compared >= 110, "compared " + compared);
        System.out.println("cross-JVM determinism: " + compared + " cubins equal under JDK 17 and JDK 25");
    }
}
