package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Backends as drop-in jars, run through the packaged distribution ({@code target/bin/jptxas}) as a child process:
 * a jar built at test time for a fictitious target is listed and selected; the bundled sm80 jar taken out of the
 * distribution makes its targets unknown and {@code --plugin-path} gives them back, byte for byte; and a jar for a
 * new target built only from the library's parts and JSON of its own (sm_86's tables under the name sm_86x) compiles
 * saxpy to a cubin nvdisasm reads.
 */
class DropInPluginIT {
    private static final String MARKER = "FICTITIOUS-CUBIN for sm_999\n";
    private static final String FICTITIOUS = """
            package org.example.fictitious;

            import java.nio.charset.StandardCharsets;
            import java.util.List;
            import org.jptxas.isel.codegen.FamilyBackend;
            import org.jptxas.spi.*;

            /** Answers every compilation with a marker: what matters is that jptxas finds and selects it. */
            public final class FictitiousBackend extends FamilyBackend {
                @Override
                public CompiledModule compile(CompileRequest r) {
                    String text = "FICTITIOUS-CUBIN for " + r.target().name() + "\\n";
                    return new CompiledModule(text.getBytes(StandardCharsets.US_ASCII), List.of());
                }
            }
            """;
    private static final String FICTITIOUS_JSON = """
            {"id": "fictitious", "description": "a backend dropped in at run time",
             "defaults": {"architecture": "Fictitious", "ptxas13": false, "ptxas125": false, "cubin": "ampere",
               "codegen": {"scheduling": "LIST",
                 "abi": {"memoryDescriptor": "0x118", "trailingNops": 8, "callRelocation": "", "constWindow": "",
                         "paramWindow": "", "paramWindowPointee": "", "driver": "classic"},
                 "features": ["UNIFORM_DATAPATH", "ALU_READS_CONSTANT_BANK"],
                 "sass": {"base": "/org/jptxas/tables/sass/volta-base.json", "overlay": "sass/none.json"},
                 "modifiers": {"base": "/org/jptxas/tables/sass/modifiers-base.json", "overlay": "sass/none.json"},
                 "latency": "latency/none.json", "matchers": []}},
             "targets": [{"name": "sm_999"}]}
            """;
    private static final String SM86X = """
            package org.example.sm86x;

            import org.jptxas.isel.codegen.CodegenPipeline;
            import org.jptxas.isel.codegen.FamilyBackend;
            import org.jptxas.spi.TargetDescription;
            import org.jptxas.scheduler.codegen.ListScheduledPipeline;

            /** A new target from the library's parts: the list-scheduled pipeline over the tables of this jar. */
            public final class Sm86xBackend extends FamilyBackend {
                @Override
                protected CodegenPipeline pipeline(TargetDescription description) {
                    return ListScheduledPipeline.of(description);
                }
            }
            """;

    @TempDir
    static Path work;

    static Path dist;
    static Path fictitiousJar;
    static Path sm86xJar;

    @BeforeAll
    static void buildPluginJars() throws IOException {
        dist = Path.of("target").toAbsolutePath();
        assertTrue(Files.isExecutable(dist.resolve("bin/jptxas")), "the distribution is built in package phase");
        fictitiousJar = jar("fictitious", "org.example.fictitious.FictitiousBackend", FICTITIOUS,
                Map.of("org/example/fictitious/backend.json", FICTITIOUS_JSON.getBytes(StandardCharsets.UTF_8)));
        // sm_86x: sm_86's entry of backend-sm80's description, renamed, with copies of the tables it names
        Path sm80 = RepoRoot.find().orElseThrow().resolve("backend-sm80/src/main/resources/org/jptxas/backend/sm80");
        Map<String, byte[]> resources = new LinkedHashMap<>();
        String root = "org/example/sm86x/";
        for (String table : List.of("sass/sm86.json", "sass/modifiers-sm86.json", "isel/sm80.json")) {
            resources.put(root + table, Files.readAllBytes(sm80.resolve(table)));
        }
        String latency = Files.readString(sm80.resolve("latency/sm86.json"))
                .replace("\"sm\": \"sm86\"", "\"sm\": \"sm86x\"")
                .replace("\"extends\": \"sm80\"", "\"extends\": \"/org/jptxas/tables/latency/volta-family\"")
                .replaceFirst("\"targets\": \\[[^]]*]", "\"targets\": [\"sm_86x\"]");
        resources.put(root + "latency/sm86x.json", latency.getBytes(StandardCharsets.UTF_8));
        resources.put(root + "backend.json", """
                {"id": "sm86x", "description": "sm_86's description under a new name, from the library's parts",
                 "defaults": {"architecture": "Ampere", "ptxas13": false, "ptxas125": false, "cubin": "ampere",
                   "codegen": {"scheduling": "LIST",
                     "abi": {"memoryDescriptor": "0x118", "trailingNops": 8, "callRelocation": "", "constWindow": "",
                         "paramWindow": "", "paramWindowPointee": "", "driver": "classic"},
                     "features": ["UNIFORM_DATAPATH", "ALU_READS_CONSTANT_BANK", "GLOBAL_DESCRIPTOR_IN_UR",
                                  "UR_IN_GLOBAL_ADDRESS_BITS"],
                     "sass": {"base": "/org/jptxas/tables/sass/volta-base.json", "overlay": "sass/sm86.json"},
                     "modifiers": {"base": "/org/jptxas/tables/sass/modifiers-base.json",
                                   "overlay": "sass/modifiers-sm86.json"},
                     "latency": "latency/sm86x.json",
                     "matchers": ["/org/jptxas/tables/isel/common.json", "isel/sm80.json"]}},
                 "targets": [{"name": "sm_86x"}]}
                """.getBytes(StandardCharsets.UTF_8));
        sm86xJar = jar("sm86x", "org.example.sm86x.Sm86xBackend", SM86X, resources);
    }

    /** Compiles {@code source} against the distribution's lib/ and packs it, registered, with {@code resources}. */
    private static Path jar(String name, String backendClass, String source, Map<String, byte[]> resources)
            throws IOException {
        Path src = work.resolve(name + "/src/" + backendClass.replace('.', '/') + ".java");
        Files.createDirectories(src.getParent());
        Files.writeString(src, source);
        Path classes = work.resolve(name + "/classes");
        String classPath;
        try (Stream<Path> libs = Stream.concat(Files.list(dist.resolve("lib")), Files.list(dist.resolve("plugins")))) {
            classPath = libs.map(Path::toString).collect(Collectors.joining(java.io.File.pathSeparator));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertNotNull(javac, "tests run on a JDK");
        int rc = javac.run(null, null, null, "-d", classes.toString(), "-cp", classPath, "--release", "17",
                src.toString());
        assertEquals(0, rc, name + " compiles against the distribution");
        Path drop = Files.createDirectories(work.resolve(name + "/drop"));
        Path jar = drop.resolve(name + "-backend.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            out.putNextEntry(new JarEntry("META-INF/services/org.jptxas.spi.Backend"));
            out.write((backendClass + "\n").getBytes(StandardCharsets.UTF_8));
            String cls = backendClass.replace('.', '/') + ".class";
            out.putNextEntry(new JarEntry(cls));
            out.write(Files.readAllBytes(classes.resolve(cls)));
            for (Map.Entry<String, byte[]> r : resources.entrySet()) {
                out.putNextEntry(new JarEntry(r.getKey()));
                out.write(r.getValue());
            }
        }
        return jar;
    }

    private static Processes.Result jptxas(Path distribution, Map<String, String> env, Path workDir, String... args) {
        List<String> cmd = new ArrayList<>(List.of(distribution.resolve("bin/jptxas").toString()));
        cmd.addAll(List.of(args));
        return Processes.run(cmd, workDir, env, 120);
    }

    private static Path saxpy() {
        return RepoRoot.find().orElseThrow().resolve("examples/saxpy.ptx");
    }

    @Test
    void droppedInBackendIsListedAndSelected() throws IOException {
        Map<String, String> env = Map.of("JPTXAS_PLUGIN_PATH", fictitiousJar.getParent().toString());
        Processes.Result list = jptxas(dist, env, work, "--list-targets");
        assertEquals(0, list.exitCode(), list.stderr());
        assertTrue(list.stdout().lines().anyMatch(l -> l.matches(
                "sm_999 +yes +fictitious +backend-fictitious +fictitious-backend\\.jar")), list.stdout());
        // The bundled backends still come from the distribution's plugins/ folder.
        assertTrue(list.stdout().lines().anyMatch(l -> l.matches("sm_80 +yes +sm80 +backend-sm80 +backend-sm80-.*\\.jar")),
                list.stdout());
        Processes.Result compile = jptxas(dist, env, work, "-arch=sm_999", saxpy().toString(), "-o", "out.bin");
        assertEquals(0, compile.exitCode(), compile.stderr());
        assertArrayEquals(MARKER.getBytes(StandardCharsets.US_ASCII), Files.readAllBytes(work.resolve("out.bin")));
    }

    @Test
    void withoutThePluginTheTargetIsUnknown() {
        Processes.Result r = jptxas(dist, Map.of("JPTXAS_PLUGIN_PATH", ""), work, "-arch=sm_999", "k.ptx");
        assertEquals(255, r.exitCode());
        assertEquals("jptxas fatal   : Value 'sm_999' is not defined for option 'gpu-name'", r.stderr().strip());
    }

    @Test
    void theSameBackendTwiceIsAClearError() throws IOException {
        Path other = Files.createDirectories(work.resolve("other"));
        Files.copy(fictitiousJar, other.resolve("fictitious-copy.jar"), StandardCopyOption.REPLACE_EXISTING);
        Processes.Result r = jptxas(dist, Map.of("JPTXAS_PLUGIN_PATH", fictitiousJar.getParent().toString()), work,
                "--plugin-path", other.toString(), "-arch=sm_999", "k.ptx");
        assertEquals(255, r.exitCode());
        assertTrue(r.stderr().startsWith("jptxas fatal   : Target 'sm_999' is served by more than one backend: "
                + "fictitious (fictitious-backend.jar), fictitious (fictitious-copy.jar)"), r.stderr());
        assertEquals(1, r.stderr().lines().count(), r.stderr());
    }

    @Test
    void theSm80JarTakenOutRefusesItsTargetsAndPluginPathGivesThemBackByteForByte() throws IOException {
        Path copy = work.resolve("dist-without-sm80");
        for (String folder : List.of("bin", "lib", "plugins")) {
            Files.createDirectories(copy.resolve(folder));
            try (Stream<Path> files = Files.list(dist.resolve(folder))) {
                for (Path f : files.toList()) {
                    Files.copy(f, copy.resolve(folder).resolve(f.getFileName()), StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
        Path aside = Files.createDirectories(work.resolve("aside"));
        Path sm80Jar;
        try (Stream<Path> plugins = Files.list(copy.resolve("plugins"))) {
            sm80Jar = plugins.filter(p -> p.getFileName().toString().startsWith("backend-sm80-")).findFirst().orElseThrow();
        }
        Files.move(sm80Jar, aside.resolve(sm80Jar.getFileName()));
        Map<String, String> env = Map.of("JPTXAS_PLUGIN_PATH", "");

        for (String arch : List.of("sm_80", "sm_86", "sm_87", "sm_88")) {
            Processes.Result refused = jptxas(copy, env, work, "-arch=" + arch, saxpy().toString(), "-o", "x.cubin");
            assertEquals(255, refused.exitCode(), refused.stderr());
            assertEquals("jptxas fatal   : Value '" + arch + "' is not defined for option 'gpu-name'",
                    refused.stderr().strip());
            assertTrue(Files.notExists(work.resolve("x.cubin")));
        }
        Processes.Result others = jptxas(copy, env, work, "-arch=sm_90", saxpy().toString(), "-o", "sm90.cubin");
        assertEquals(0, others.exitCode(), "the other backends stay: " + others.stderr());

        Processes.Result back = jptxas(copy, env, work, "--plugin-path", aside.toString(), "-arch=sm_80",
                saxpy().toString(), "-o", "back.cubin");
        assertEquals(0, back.exitCode(), back.stderr());
        Processes.Result bundled = jptxas(dist, env, work, "-arch=sm_80", saxpy().toString(), "-o", "bundled.cubin");
        assertEquals(0, bundled.exitCode(), bundled.stderr());
        assertArrayEquals(Files.readAllBytes(work.resolve("bundled.cubin")), Files.readAllBytes(work.resolve("back.cubin")));
    }

    @Test
    void aNewTargetFromTheLibrarysPartsAndItsOwnJsonCompilesSaxpyThatNvdisasmReads() throws IOException {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Map<String, String> env = Map.of("JPTXAS_PLUGIN_PATH", sm86xJar.getParent().toString());
        Processes.Result list = jptxas(dist, env, work, "--list-targets");
        assertTrue(list.stdout().lines().anyMatch(l -> l.matches("sm_86x +yes +sm86x +backend-sm86x +sm86x-backend\\.jar")),
                list.stdout());
        Processes.Result compile = jptxas(dist, env, work, "-arch=sm_86x", saxpy().toString(), "-o", "sm86x.cubin",
                "--out-sass", "sm86x.sass");
        assertEquals(0, compile.exitCode(), compile.stderr());
        Processes.Result dis = Processes.run(List.of(nvdisasm.toString(), "-c", work.resolve("sm86x.cubin").toString()),
                work);
        assertEquals(0, dis.exitCode(), dis.stderr());
        List<String> theirs = codeLines(dis.stdout());
        assertTrue(theirs.size() > 10, dis.stdout());
        assertEquals(theirs, codeLines(Files.readString(work.resolve("sm86x.sass"))));
        // the same tables as sm_86: the same code
        Processes.Result sm86 = jptxas(dist, env, work, "-arch=sm_86", saxpy().toString(), "-o", "sm86.cubin");
        assertEquals(0, sm86.exitCode(), sm86.stderr());
        assertArrayEquals(text(work.resolve("sm86.cubin")), text(work.resolve("sm86x.cubin")));
    }

    private static List<String> codeLines(String listing) {
        return listing.lines().filter(l -> l.matches("\\s+/\\*[0-9a-f]{4}\\*/.*")).map(String::stripTrailing).toList();
    }

    private static byte[] text(Path cubin) throws IOException {
        return Cubin.read(Files.readAllBytes(cubin)).textSections().stream().map(Section::data)
                .reduce(new byte[0], (a, b) -> {
                    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
                    System.arraycopy(b, 0, out, a.length, b.length);
                    return out;
                });
    }
}
