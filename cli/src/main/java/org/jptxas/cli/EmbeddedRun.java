package org.jptxas.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jptxas.cubin.ResourceReport;
import org.jptxas.ori.diag.Diagnostic;

/**
 * One jptxas run inside a JVM program, with its inputs and outputs in memory: the same command line, checks and
 * messages as {@code bin/jptxas}. The Java API (module {@code api}) is built on it; use that instead.
 */
public final class EmbeddedRun {
    private EmbeddedRun() {}

    /** Backends found once and shared by every run given the same instance (thread-safe). */
    public static final class Backends {
        private final Registries registries = Registries.shared();
    }

    /**
     * What a run left: its exit code (0, or ptxas's 255), the cubin and SASS text it wrote, everything it reported, the
     * resources of what it compiled, and its standard output and error as the command line prints them.
     */
    public record Outcome(int exitCode, Optional<byte[]> cubin, Optional<String> sass, List<Diagnostic> diagnostics,
                          List<ResourceReport.FunctionUsage> usage, String stdout, String stderr) {
        public Outcome {
            diagnostics = List.copyOf(diagnostics);
            usage = List.copyOf(usage);
        }
    }

    /**
     * Runs jptxas with {@code options} (ptxas's options, no input files) on {@code inputs} (name to PTX bytes, in
     * order); {@code workDir} resolves options files and plugin folders; {@code env} is what the run sees of the
     * environment (JPTXAS_PLUGIN_PATH).
     */
    public static Outcome run(Backends backends, Map<String, byte[]> inputs, List<String> options, Path workDir,
                              Map<String, String> env) {
        Memory memory = new Memory(new LinkedHashMap<>(inputs));
        List<String> args = new ArrayList<>(options);
        args.addAll(inputs.keySet());
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new JptxasCommand(new PrintWriter(out), new PrintWriter(err), env, null, workDir, backends.registries,
                memory).run(args.toArray(String[]::new));
        return new Outcome(rc, Optional.ofNullable(memory.cubin), Optional.ofNullable(memory.sass), memory.diagnostics,
                memory.usage, out.toString(), err.toString());
    }

    private static final class Memory implements Workspace {
        private final Map<String, byte[]> inputs;
        private final List<Diagnostic> diagnostics = new ArrayList<>();
        private List<ResourceReport.FunctionUsage> usage = List.of();
        private byte[] cubin;
        private String sass;

        Memory(Map<String, byte[]> inputs) {
            this.inputs = inputs;
        }

        @Override
        public byte[] read(String name) throws IOException {
            byte[] bytes = inputs.get(name);
            if (bytes == null) {
                throw new IOException("no input " + name);
            }
            return bytes;
        }

        @Override
        public void write(List<Output> outputs) {
            for (Output o : outputs) {
                if (o.kind() == Kind.CUBIN) {
                    cubin = o.bytes().clone();
                } else {
                    sass = new String(o.bytes(), java.nio.charset.StandardCharsets.UTF_8);
                }
            }
        }

        @Override
        public void reported(Diagnostic diagnostic) {
            diagnostics.add(diagnostic);
        }

        @Override
        public void compiled(List<ResourceReport.FunctionUsage> usage) {
            this.usage = usage;
        }
    }
}
