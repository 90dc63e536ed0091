package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds a jar holding a backend for a fictitious target at test time, drops it into a plugin folder and runs the
 * packaged distribution ({@code target/bin/jptxas}) as a child process: the target must be listed and selected.
 */
class DropInPluginIT {
    private static final String MARKER = "FICTITIOUS-CUBIN for sm_999\n";
    private static final String SOURCE = """
            package org.example.fictitious;

            import java.nio.charset.StandardCharsets;
            import java.util.List;
            import org.jptxas.isel.spi.*;
            import org.jptxas.ori.target.Target;

            public final class FictitiousBackend implements Backend {
                public String id() { return "fictitious"; }
                public String description() { return "a backend dropped in at run time"; }
                public List<Target> targets() { return List.of(Target.of("sm_999")); }
                public CompiledModule compile(CompileRequest r) {
                    String text = "FICTITIOUS-CUBIN for " + r.target().name() + "\\n";
                    return new CompiledModule(text.getBytes(StandardCharsets.US_ASCII), List.of());
                }
            }
            """;

    @TempDir
    static Path plugins;

    static Path dist;
    static Path jar;

    @BeforeAll
    static void buildPluginJar() throws IOException {
        dist = Path.of("target").toAbsolutePath();
        assertTrue(Files.isExecutable(dist.resolve("bin/jptxas")), "the distribution is built in package phase");
        Path src = plugins.resolve("src/org/example/fictitious/FictitiousBackend.java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, SOURCE);
        Path classes = plugins.resolve("classes");
        String classPath;
        try (Stream<Path> libs = Files.list(dist.resolve("lib"))) {
            classPath = libs.map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests run on a JDK");
        int rc = javac.run(null, null, null, "-d", classes.toString(), "-cp", classPath, "--release", "17",
                src.toString());
        assertEquals(0, rc, "fictitious backend compiles against the distribution's lib/");
        Path drop = plugins.resolve("drop");
        Files.createDirectories(drop);
        jar = drop.resolve("fictitious-backend.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("META-INF/services/org.jptxas.isel.spi.Backend"));
            out.write("org.example.fictitious.FictitiousBackend\n".getBytes(StandardCharsets.UTF_8));
            String cls = "org/example/fictitious/FictitiousBackend.class";
            out.putNextEntry(new JarEntry(cls));
            out.write(Files.readAllBytes(classes.resolve(cls)));
        }
    }

    private static Processes.Result jptxas(Map<String, String> env, Path workDir, String... args) {
        List<String> cmd = new java.util.ArrayList<>(List.of(dist.resolve("bin/jptxas").toString()));
        cmd.addAll(List.of(args));
        return Processes.run(cmd, workDir, env, 120);
    }

    @Test
    void droppedInBackendIsListedAndSelected() throws IOException {
        Map<String, String> env = Map.of("JPTXAS_PLUGIN_PATH", jar.getParent().toString());
        Processes.Result list = jptxas(env, plugins, "--list-targets");
        assertEquals(0, list.exitCode(), list.stderr());
        assertTrue(list.stdout().lines().anyMatch(l -> l.matches("sm_999 +fictitious +backend-fictitious +fictitious-backend\\.jar")),
                list.stdout());
        // The bundled backends still come from the distribution's plugins/ folder.
        assertTrue(list.stdout().lines().anyMatch(l -> l.matches("sm_80 +sm80 +backend-sm80 +backend-sm80-.*\\.jar")),
                list.stdout());

        Path example = RepoRoot.find().orElseThrow().resolve("examples/saxpy.ptx");
        Processes.Result compile = jptxas(env, plugins, "-arch=sm_999", example.toString(), "-o", "out.bin");
        assertEquals(0, compile.exitCode(), compile.stderr());
        assertArrayEquals(MARKER.getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(plugins.resolve("out.bin")));
    }

    @Test
    void withoutThePluginTheTargetIsUnknown() {
        Processes.Result r = jptxas(Map.of("JPTXAS_PLUGIN_PATH", ""), plugins, "-arch=sm_999", "k.ptx");
        assertEquals(255, r.exitCode());
        assertEquals("jptxas fatal   : Value 'sm_999' is not defined for option 'gpu-name'", r.stderr().strip());
    }

    @Test
    void theSameBackendTwiceIsAClearError() throws IOException {
        Path other = plugins.resolve("other");
        Files.createDirectories(other);
        Files.copy(jar, other.resolve("fictitious-copy.jar"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        Processes.Result r = jptxas(Map.of("JPTXAS_PLUGIN_PATH", jar.getParent().toString()), plugins,
                "--plugin-path", other.toString(), "-arch=sm_999", "k.ptx");
        assertEquals(255, r.exitCode());
        assertTrue(r.stderr().startsWith("jptxas fatal   : Target 'sm_999' is served by more than one backend: "
                + "fictitious (fictitious-backend.jar), fictitious (fictitious-copy.jar)"), r.stderr());
        assertEquals(1, r.stderr().lines().count(), r.stderr());
    }
}
