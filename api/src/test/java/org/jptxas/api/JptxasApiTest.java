package org.jptxas.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JptxasApiTest {
    private static final Path ROOT = RepoRoot.find().orElseThrow();
    private static final Path SAXPY = ROOT.resolve("examples/saxpy.ptx");
    private final Jptxas jptxas = Jptxas.create();

    @TempDir
    Path dir;

    /** The README's example, compiled with javac and run: its cubin is the command line's, byte for byte. */
    @Test
    void readmeExampleCompilesAndRunsAndWritesTheCommandLinesCubin() throws Exception {
        String readme = Files.readString(ROOT.resolve("README.md"));
        Matcher m = Pattern.compile("<!-- api-example:begin -->\\n```java\\n(.*?)```\\n<!-- api-example:end -->",
                Pattern.DOTALL).matcher(readme);
        assertTrue(m.find(), "README has the marked Java API example");
        Path source = dir.resolve("src/CompileSaxpy.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, m.group(1));
        Path classes = Files.createDirectories(dir.resolve("classes"));
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        ByteArrayOutputStream javacOut = new ByteArrayOutputStream();
        int rc = javac.run(null, javacOut, javacOut, "-classpath", System.getProperty("java.class.path"), "-d",
                classes.toString(), source.toString());
        assertEquals(0, rc, javacOut.toString(StandardCharsets.UTF_8));

        Path apiCubin = dir.resolve("api.cubin");
        ByteArrayOutputStream stdout = new ByteArrayOutputStream();
        PrintStream saved = System.out;
        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
            Method main = loader.loadClass("CompileSaxpy").getMethod("main", String[].class);
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            main.invoke(null, (Object) new String[] {SAXPY.toString(), apiCubin.toString()});
        } finally {
            System.setOut(saved);
        }
        assertTrue(stdout.toString(StandardCharsets.UTF_8).matches("saxpy: \\d+ registers\\R"), stdout.toString());

        Path cliCubin = dir.resolve("cli.cubin");
        Processes.Result cli = Processes.run(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "org.jptxas.cli.JptxasMain", "-arch=sm_80", "-O3",
                SAXPY.toString(), "-o", cliCubin.toString()), dir);
        assertEquals(0, cli.exitCode(), cli.stderr());
        assertArrayEquals(Files.readAllBytes(cliCubin), Files.readAllBytes(apiCubin));
    }

    @Test
    void aCompiledKernelHasItsCubinAndResources() throws Exception {
        CompileResult r = jptxas.compile(SAXPY, "-arch=sm_80", "-v");
        assertTrue(r.succeeded(), r.log());
        byte[] cubin = r.cubinOrThrow();
        assertEquals(0x7f, cubin[0]);
        assertEquals('E', cubin[1]);
        assertEquals(1, r.resources().size(), r.resources().toString());
        FunctionResources saxpy = r.resources().get(0);
        assertEquals("saxpy", saxpy.name());
        assertTrue(saxpy.entry());
        // the typed resources are the -v report's numbers
        assertTrue(r.log().contains("Used " + saxpy.registers() + " registers, used 0 barriers"), r.log());
        assertTrue(saxpy.registers() > 4, "registers " + saxpy.registers());
        assertEquals(List.of(), r.messages().stream().filter(x -> x.severity() != Message.Severity.INFO).toList());
    }

    @Test
    void errorsAreMessagesWithTheirLinesAndNoCubin() {
        String bad = String.join("\n", ".version 8.0", ".target sm_80", ".address_size 64",
                ".visible .entry k(.param .u64 p)", "{", "    .reg .b32 %r<2>;", "    add.u32 %r1, %r9, 1;", "    ret;",
                "}", "");
        CompileResult r = jptxas.compileNamed("bad.ptx", bad, "-arch=sm_80");
        assertEquals(255, r.exitCode());
        assertFalse(r.succeeded());
        assertTrue(r.cubin().isEmpty());
        Message first = r.messages().get(0);
        assertEquals(Message.Severity.ERROR, first.severity(), r.messages().toString());
        assertEquals("bad.ptx", first.file());
        assertEquals(7, first.line());
        assertTrue(first.toString().startsWith("jptxas bad.ptx, line 7; error   : "), first.toString());
        assertTrue(r.log().startsWith(first.toString()), r.log());
        Message last = r.messages().get(r.messages().size() - 1);
        assertEquals("jptxas fatal   : Ptx assembly aborted due to errors", last.toString());
        IllegalStateException e = assertThrows(IllegalStateException.class, r::cubinOrThrow);
        assertTrue(e.getMessage().contains("line 7"), e.getMessage());
    }

    @Test
    void optionsAreCheckedAsTheCommandLineChecksThem() throws Exception {
        String ptx = Files.readString(SAXPY);
        CompileResult unknown = jptxas.compile(ptx, "-arch=sm_80", "--no-such-option");
        assertEquals(255, unknown.exitCode());
        // ptxas words it so (it drops one dash)
        assertEquals(List.of(new Message(Message.Severity.FATAL, null, 0, "Unknown option '-no-such-option'")),
                unknown.messages());
        CompileResult target = jptxas.compile(ptx, "-arch=sm_1");
        assertEquals("jptxas fatal   : Value 'sm_1' is not defined for option 'gpu-name'",
                target.messages().get(0).toString());
        CompileResult fmad = jptxas.compile(ptx, "-arch=sm_80", "--fmad=maybe");
        assertFalse(fmad.succeeded());
    }

    /** One shared instance, many threads, three targets: every cubin is the serial run's. */
    @Test
    void compilationsInParallelOnOneInstanceAreIndependent() throws Exception {
        String ptx = Files.readString(SAXPY);
        List<String> arches = List.of("sm_75", "sm_80", "sm_90");
        List<byte[]> serial = new ArrayList<>();
        for (String arch : arches) {
            serial.add(jptxas.compile(ptx, "-arch=" + arch).cubinOrThrow());
        }
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<byte[]>> futures = new ArrayList<>();
            for (int i = 0; i < 18; i++) {
                String arch = arches.get(i % 3);
                futures.add(pool.submit(() -> jptxas.compile(ptx, "-arch=" + arch).cubinOrThrow()));
            }
            for (int i = 0; i < futures.size(); i++) {
                assertArrayEquals(serial.get(i % 3), futures.get(i).get(), "run " + i);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
