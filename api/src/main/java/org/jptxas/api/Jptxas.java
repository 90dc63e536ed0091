package org.jptxas.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jptxas.cli.EmbeddedRun;
import org.jptxas.cubin.ResourceReport;
import org.jptxas.ori.diag.Diagnostic;

/**
 * PTX to cubin in a JVM program, with ptxas's options and messages:
 * <pre>{@code
 * Jptxas jptxas = Jptxas.create();
 * CompileResult r = jptxas.compile(ptxText, "-arch=sm_80", "-O3");
 * if (r.succeeded()) {
 *     Files.write(Path.of("k.cubin"), r.cubinOrThrow());
 * } else {
 *     r.messages().forEach(System.err::println);
 * }
 * }</pre>
 * Options are ptxas's ({@code -arch}, {@code -O}, {@code --maxrregcount}, {@code -c}, {@code --fmad},
 * {@code -lineinfo}, {@code -e}, ...), checked as the command line checks them; output options are ignored in the
 * sense that the cubin stays in memory. Backends are the ones on the class path (the bundled ones come with this
 * module) plus {@code --plugin-path} folders; they are found once per instance. An instance is thread-safe and meant
 * to be shared: compilations run in parallel and never see each other.
 */
public final class Jptxas {
    /** The name a PTX text is given in messages when the caller names none. */
    public static final String DEFAULT_INPUT_NAME = "input.ptx";

    private final EmbeddedRun.Backends backends = new EmbeddedRun.Backends();
    private final Path workDir;
    private final Map<String, String> environment;

    private Jptxas(Path workDir, Map<String, String> environment) {
        this.workDir = workDir;
        this.environment = Map.copyOf(environment);
    }

    /** An instance with the process's working directory and no plugin folders beyond {@code --plugin-path}. */
    public static Jptxas create() {
        return new Jptxas(Path.of(""), Map.of());
    }

    /** Compiles PTX text, named {@value #DEFAULT_INPUT_NAME} in messages. */
    public CompileResult compile(String ptx, String... options) {
        return compileNamed(DEFAULT_INPUT_NAME, ptx, options);
    }

    /** Compiles PTX text, named {@code inputName} in messages. */
    public CompileResult compileNamed(String inputName, String ptx, String... options) {
        Objects.requireNonNull(ptx, "ptx");
        Map<String, byte[]> inputs = new LinkedHashMap<>();
        inputs.put(inputName, ptx.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        return run(inputs, List.of(options));
    }

    /** Compiles a PTX file, named as given in messages. */
    public CompileResult compile(Path ptxFile, String... options) throws IOException {
        Map<String, byte[]> inputs = new LinkedHashMap<>();
        inputs.put(ptxFile.toString(), Files.readAllBytes(ptxFile));
        return run(inputs, List.of(options));
    }

    /** Compiles several PTX files into one cubin, as {@code ptxas a.ptx b.ptx} does. */
    public CompileResult compile(List<Path> ptxFiles, List<String> options) throws IOException {
        Map<String, byte[]> inputs = new LinkedHashMap<>();
        for (Path p : ptxFiles) {
            inputs.put(p.toString(), Files.readAllBytes(p));
        }
        return run(inputs, options);
    }

    private CompileResult run(Map<String, byte[]> inputs, List<String> options) {
        EmbeddedRun.Outcome o = EmbeddedRun.run(backends, inputs, options, workDir, environment);
        List<Message> messages = o.diagnostics().stream().map(Jptxas::message).toList();
        List<FunctionResources> resources = new ArrayList<>();
        for (ResourceReport.FunctionUsage f : ResourceReport.propertiesOrder(o.usage())) {
            resources.add(new FunctionResources(f.name(), f.entry(), f.registers(), f.barriers(), f.sharedBytes(),
                    f.stackFrame(), f.spillStores(), f.spillLoads()));
        }
        return new CompileResult(o.exitCode(), o.exitCode() == 0 ? o.cubin() : java.util.Optional.empty(), messages,
                resources, o.stderr() + o.stdout());
    }

    private static Message message(Diagnostic d) {
        Message.Severity s = switch (d.severity()) {
            case INFO -> Message.Severity.INFO;
            case WARNING -> Message.Severity.WARNING;
            case ERROR -> Message.Severity.ERROR;
            case FATAL -> Message.Severity.FATAL;
        };
        return new Message(s, d.file(), d.line(), d.message());
    }
}
