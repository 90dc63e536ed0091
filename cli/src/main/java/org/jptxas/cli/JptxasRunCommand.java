package org.jptxas.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.BufferComparison;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.KernelExecutor;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.LaunchSpecException;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.ProgramException;
import org.jptxas.simulator.ptx.PtxInterpreter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code jptxas-run} command: runs one kernel launch on the CPU, from PTX (the reference interpreter) or from a
 * cubin (the SASS emulator), and writes the output buffers the launch spec names. Exit code 0 only when the launch
 * completed without a fault; 1 for a fault; 255 for unusable input (bad spec, unknown entry, unreadable files).
 */
@Command(name = "jptxas-run", sortOptions = false, usageHelpWidth = 100,
        description = "Runs a kernel launch without a GPU: PTX through the reference interpreter, cubins through the SASS emulator.")
final class JptxasRunCommand {
    static final String TOOL = "jptxas-run";
    static final int FAULT = 1;
    static final int FAILURE = 255;

    @Parameters(arity = "0..1", paramLabel = "<kernel.ptx|kernel.cubin>", description = "The program to run.")
    String input;

    @Option(names = {"--arch", "-arch"}, paramLabel = "<sm_XY>", description = "Target GPU. Default: sm_75.")
    String arch;

    @Option(names = "--spec", paramLabel = "<launch.json>", description = "The launch spec (entry, grid, block, parameters).")
    Path spec;

    @Option(names = "--entry", paramLabel = "<name>", description = "Kernel to launch (overrides the spec).")
    String entry;

    @Option(names = "--grid", paramLabel = "X,Y,Z", description = "Grid extent (overrides the spec).")
    String grid;

    @Option(names = "--block", paramLabel = "X,Y,Z", description = "Block extent (overrides the spec).")
    String block;

    @Option(names = "--max-warp-instructions", paramLabel = "<N>",
            description = "Stop with a fault after this many warp instructions. Default: 2000000000.")
    long maxWarpInstructions = ExecutionLimits.DEFAULT.maxWarpInstructions();

    @Option(names = "--strict-hazards", description = "Make hazards fatal (SASS emulation; the PTX interpreter has none).")
    boolean strictHazards;

    @Option(names = "--compare", paramLabel = "<other.ptx|other.cubin>",
            description = "Differential run: launch the same spec on this second program too and compare every "
                    + "buffer byte for byte (exit 1 on any difference).")
    String compare;

    @Option(names = "--differential", description = "Three-way differential run of a PTX kernel: (a) the PTX "
            + "interpreter, (b) the SASS emulator on ptxas's cubin for --arch (ptxas from PATH or --ptxas; without "
            + "one the run is refused), (c) the SASS emulator on jptxas's own cubin. Prints each leg's result, "
            + "hazards and cycles, compares every buffer pairwise (see --tolerance) and exits 1 on any difference, "
            + "fault or failed leg (with --strict-hazards also on hazards). Outputs are written from leg (a) when all "
            + "legs agree.")
    boolean differential;

    @Option(names = "--ptxas", paramLabel = "<path>", description = "The ptxas for --differential. Default: ptxas on PATH.")
    Path ptxas;

    @Option(names = "--tolerance", paramLabel = "[<param>=]<type>[:<abs>:<rel>]",
            description = "How --compare and --differential compare buffers (repeatable): as elements of <type> "
                    + "(u8..u64, s8..s64, f16, bf16, f32, f64) for the pointer parameter number <param>, or for all "
                    + "of them. Integers: exact. Floats: equal bits or both NaN, or |x - ref| <= abs + rel*|ref| "
                    + "(ref: the first run; infinities only equal themselves). Default: every byte equal.")
    List<String> tolerances = new ArrayList<>();

    @Option(names = "--strict-convergence", description = "SASS emulation: Volta convergence without merging by address "
            + "(diverged threads rejoin only at BSYNC, WARPSYNC, BAR or EXIT; warp-synchronous instructions missing "
            + "member threads are faults).")
    boolean strictConvergence;

    @Option(names = "--coverage", description = "SASS emulation: print the instruction classes seen and executed.")
    boolean coverage;

    @Option(names = {"--help", "-h"}, description = "Print this help.")
    boolean help;

    private final PrintWriter out;
    private final PrintWriter err;
    private final Path workDir;

    JptxasRunCommand(PrintWriter out, PrintWriter err, Path workDir) {
        this.out = out;
        this.err = err;
        this.workDir = workDir;
    }

    /** A fatal problem with the input: one line, exit 255. */
    static final class Fatal extends Exception {
        private static final long serialVersionUID = 1L;

        Fatal(String message) {
            super(message, null, false, false);
        }
    }

    int run(String[] args) {
        try {
            return runChecked(args);
        } catch (Fatal f) {
            err.println(Diagnostic.fatal(f.getMessage()).format(TOOL));
            return FAILURE;
        } catch (RuntimeException | Error e) {
            err.println(Diagnostic.fatal("Internal error: " + e).format(TOOL));
            return FAILURE;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int runChecked(String[] args) throws Fatal {
        CommandLine cl = new CommandLine(this);
        try {
            cl.parseArgs(args);
        } catch (CommandLine.ParameterException e) {
            throw new Fatal(e.getMessage());
        }
        if (help || args.length == 0) {
            cl.usage(out);
            return 0;
        }
        if (input == null) {
            throw new Fatal("No input file specified");
        }
        if (spec == null) {
            throw new Fatal("No launch spec specified (--spec launch.json)");
        }
        String archName = archName();
        Target target = Target.parse(archName).filter(t -> installed().targets().containsKey(t))
                .orElseThrow(() -> new Fatal("Value '" + archName + "' is not a known target (sm_XY)"));
        Path in = workDir.resolve(input);
        if (!Files.isRegularFile(in)) {
            throw new Fatal("Input file '" + input + "' could not be read");
        }
        LaunchSpec launchSpec;
        try {
            launchSpec = LaunchSpecReader.read(workDir.resolve(spec));
            if (entry != null) {
                launchSpec = launchSpec.withEntry(entry);
            }
            if (grid != null) {
                launchSpec = launchSpec.withGrid(Dim3.parse(grid));
            }
            if (block != null) {
                launchSpec = launchSpec.withBlock(Dim3.parse(block));
            }
            if (launchSpec.block().count() > 1024) {
                throw new Fatal("a block has at most 1024 threads, not " + launchSpec.block().count());
            }
        } catch (LaunchSpecException e) {
            throw new Fatal(e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new Fatal("--grid/--block: " + e.getMessage());
        }
        Comparisons comparisons = comparisons();
        if (differential) {
            if (compare != null) {
                throw new Fatal("--differential and --compare cannot be combined");
            }
            // Two legs of three are not the comparison asked for: a missing ptxas is refused, not skipped.
            Path ptxasPath = ptxasCommand().orElseThrow(() -> new Fatal("--differential needs ptxas: "
                    + (ptxas != null ? "'" + ptxas + "' is not an executable file" : "none on PATH")
                    + " (give one with --ptxas PATH)"));
            ExecutionLimits limits = ExecutionLimits.DEFAULT.withMaxWarpInstructions(maxWarpInstructions);
            return new DifferentialRun(out, workDir, target, launchSpec, limits, comparisons, strictHazards,
                    strictConvergence).run(in, input, ptxasPath);
        }
        KernelExecutor executor = executorFor(in);
        Launch launch;
        try {
            if (launchSpec.entry().isEmpty() && executor.entries().size() == 1) {
                launchSpec = launchSpec.withEntry(executor.entries().get(0));
            }
            launch = Launch.prepare(target, launchSpec);
        } catch (LaunchException e) {
            throw new Fatal(e.getMessage());
        }
        LaunchResult result;
        org.jptxas.simulator.sass.SassEmulator.Timing timing = null;
        try {
            ExecutionLimits limits = ExecutionLimits.DEFAULT.withMaxWarpInstructions(maxWarpInstructions);
            if (emulator != null) { // the SASS emulator also checks hazards per executed instruction and counts cycles
                org.jptxas.simulator.sass.SassEmulator.TimedResult timed = emulator.executeTimed(launch, limits);
                result = timed.result();
                timing = timed.timing();
            } else {
                result = executor.execute(launch, limits);
            }
        } catch (LaunchException e) {
            throw new Fatal(e.getMessage());
        }
        out.printf("%s: %s on %s by the %s: grid %s, block %s, %d threads%n", TOOL, launch.entry(), target.name(),
                result.executor(), launch.grid(), launch.block(), launch.grid().count() * launch.block().count());
        out.printf("  %d warp instructions, %d thread instructions%n", result.warpInstructions(), result.threadInstructions());
        boolean hazardFault = false;
        if (emulator != null) {
            hazardFault = printHazards(out, "  ", emulator, timing, strictHazards);
        } else if (strictHazards) {
            out.println("  hazards: none (the PTX interpreter has no pipeline)");
        }
        if (coverage && emulator != null) {
            java.util.Set<String> seen = emulator.classesSeen();
            java.util.Set<String> done = emulator.classesExecuted();
            out.println("  instruction classes seen " + seen.size() + ", executed " + done.size());
            for (String c : seen) {
                out.println("    " + (done.contains(c) ? "executed  " : "not run   ") + c);
            }
        }
        if (result.fault().isPresent()) {
            out.println("  FAULT: " + result.fault().get().describe());
            out.println("  no output files written");
            return FAULT;
        }
        if (hazardFault) {
            out.println("  FAULT: hazards are fatal with --strict-hazards");
            out.println("  no output files written");
            return FAULT;
        }
        boolean agree = compare == null
                || compareWith(target, launchSpec, launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(maxWarpInstructions),
                        comparisons);
        try {
            for (Path p : launch.writeOutputs()) {
                out.println("  wrote " + p);
            }
        } catch (LaunchException e) {
            throw new Fatal(e.getMessage());
        }
        out.println("  completed");
        return agree ? 0 : FAULT;
    }

    /**
     * Prints the hazards of the cubin's control words and of the executed paths, and the cycle estimate, each line
     * indented by {@code indent}; true when {@code strict} makes them a fault (also when they could not be checked).
     */
    static boolean printHazards(PrintWriter out, String indent, org.jptxas.simulator.sass.SassEmulator emulator,
                                org.jptxas.simulator.sass.SassEmulator.Timing timing, boolean strict) {
        boolean fault;
        org.jptxas.simulator.sass.SassEmulator.HazardReport h = emulator.hazards();
        if (h.unavailable().isPresent()) {
            out.println(indent + "hazards: not checked (" + h.unavailable().get() + ")");
            fault = strict;
        } else {
            // The scheduler's latency model is not exact yet: hazards are information unless --strict-hazards.
            out.println(indent + "hazards: " + h.hazards().size() + " in the cubin's control words (scheduler's latency model)");
            h.hazards().forEach(line -> out.println(indent + "  " + line));
            fault = strict && !h.hazards().isEmpty();
        }
        if (timing != null && timing.unavailable().isEmpty()) {
            out.println(indent + "hazards on the executed paths: " + timing.hazards().size() + " (per executed instruction)");
            timing.hazards().forEach(line -> out.println(indent + "  " + line));
            fault |= strict && !timing.hazards().isEmpty();
        }
        if (timing != null) {
            out.println(indent + timing.summary());
        }
        return fault;
    }

    private String archName() {
        return arch == null ? JptxasCommand.DEFAULT_TARGET.name() : arch;
    }

    private org.jptxas.spi.BackendRegistry installed;

    /** The installed backends (found once per command). */
    private org.jptxas.spi.BackendRegistry installed() {
        if (installed == null) {
            installed = InstalledBackends.ofEnvironment();
        }
        return installed;
    }

    private KernelExecutor sassEmulator(Path in, byte[] bytes, String input) throws Fatal {
        org.jptxas.cubin.Cubin cubin;
        try {
            cubin = org.jptxas.cubin.Cubin.read(bytes);
        } catch (RuntimeException e) {
            throw new Fatal(input + ": not a valid cubin: " + e.getMessage());
        }
        String want = archName();
        if (cubin.sm() != Target.parse(want).map(Target::sm).orElse(-1)) {
            throw new Fatal(input + " is a cubin for sm_" + cubin.sm() + ", not " + want + " (use --arch sm_" + cubin.sm() + ")");
        }
        org.jptxas.spi.TargetDescription target = InstalledBackends.withTables(installed(), want).orElseThrow(() -> new Fatal(input + ": no installed backend reads " + want + " code"));
        try {
            emulator = org.jptxas.simulator.sass.SassEmulator.fromCubin(target, bytes);
            if (strictConvergence) {
                emulator = emulator.withStrictConvergence(true);
            }
            return emulator;
        } catch (RuntimeException e) {
            throw new Fatal(input + ": cannot decode the cubin's code: " + e.getMessage());
        }
    }

    private org.jptxas.simulator.sass.SassEmulator emulator;

    private KernelExecutor executorFor(Path in) throws Fatal {
        return executorFor(in, input);
    }

    /** Runs the spec on the second program and compares all buffers with the first run's; true when they agree. */
    private boolean compareWith(Target target, LaunchSpec spec, Launch first, ExecutionLimits limits,
                                Comparisons comparisons) throws Fatal {
        Path other = workDir.resolve(compare);
        if (!Files.isRegularFile(other)) {
            throw new Fatal("Input file '" + compare + "' could not be read");
        }
        KernelExecutor executor = executorFor(other, compare);
        Launch second;
        LaunchResult r;
        try {
            second = Launch.prepare(target, spec);
            r = executor.execute(second, limits);
        } catch (LaunchException e) {
            throw new Fatal(compare + ": " + e.getMessage());
        }
        out.printf("  compared with %s by the %s: %d warp instructions%n", compare, r.executor(), r.warpInstructions());
        if (r.fault().isPresent()) {
            out.println("  DIFFERENCE: the second run faulted: " + r.fault().get().describe());
            return false;
        }
        boolean same = comparisons.compare(first, second, "", out);
        if (same) {
            out.println("  every buffer agrees " + (comparisons.exact() ? "byte for byte" : "(" + comparisons + ")"));
        }
        return same;
    }

    /** How buffers are compared: by pointer parameter number, else the default ({@code --tolerance}). */
    record Comparisons(Map<Integer, BufferComparison> byParam, BufferComparison fallback) {
        BufferComparison of(int param) {
            return byParam.getOrDefault(param, fallback);
        }

        boolean exact() {
            return byParam.isEmpty() && fallback.equals(BufferComparison.EXACT);
        }

        /**
         * Compares every buffer of {@code b} with {@code a}'s (the reference), printing each difference prefixed by
         * {@code label}; true when all agree.
         */
        boolean compare(Launch a, Launch b, String label, PrintWriter out) {
            boolean same = true;
            for (int i = 0; i < a.arguments().size(); i++) {
                var x = a.arguments().get(i).buffer();
                var y = b.arguments().get(i).buffer();
                if (x.isEmpty() || y.isEmpty()) {
                    continue;
                }
                BufferComparison how = of(i);
                BufferComparison.Outcome o = how.compare(x.get().bytes(), y.get().bytes());
                if (!o.same()) {
                    same = false;
                    out.printf("  DIFFERENCE %sin param %d (%s): %d of %d %s differ, first %s%n", label, i, how,
                            o.differing(), o.elements(), how.type().isEmpty() ? "bytes" : "elements", o.firstDetail());
                }
            }
            return same;
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder(fallback.toString());
            new java.util.TreeMap<>(byParam).forEach((k, v) -> sb.append("; param ").append(k).append(": ").append(v));
            return sb.toString();
        }
    }

    private Comparisons comparisons() throws Fatal {
        Map<Integer, BufferComparison> byParam = new HashMap<>();
        BufferComparison fallback = BufferComparison.EXACT;
        for (String t : tolerances) {
            try {
                int eq = t.indexOf('=');
                if (eq < 0) {
                    fallback = BufferComparison.parse(t);
                } else {
                    byParam.put(Integer.parseInt(t.substring(0, eq).trim()), BufferComparison.parse(t.substring(eq + 1)));
                }
            } catch (IllegalArgumentException e) { // NumberFormatException included
                throw new Fatal("--tolerance " + t + ": " + e.getMessage());
            }
        }
        return new Comparisons(Map.copyOf(byParam), fallback);
    }

    /** The ptxas for --differential: --ptxas, else the first ptxas on PATH; empty when there is none. */
    private java.util.Optional<Path> ptxasCommand() {
        if (ptxas != null) {
            Path p = workDir.resolve(ptxas);
            return Files.isExecutable(p) ? java.util.Optional.of(p) : java.util.Optional.empty();
        }
        String path = System.getenv("PATH");
        if (path == null) {
            return java.util.Optional.empty();
        }
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "ptxas"))) {
                return java.util.Optional.of(Path.of(dir, "ptxas"));
            }
        }
        return java.util.Optional.empty();
    }

    private KernelExecutor executorFor(Path in, String displayName) throws Fatal {
        byte[] head;
        try {
            head = Files.readAllBytes(in);
        } catch (IOException e) {
            throw new Fatal("Input file '" + displayName + "' could not be read: " + e.getMessage());
        }
        boolean elf = head.length >= 4 && head[0] == 0x7f && head[1] == 'E' && head[2] == 'L' && head[3] == 'F';
        if (elf || displayName.endsWith(".cubin")) {
            return sassEmulator(in, head, displayName);
        }
        try {
            return PtxInterpreter.load(in.getFileName().toString(), new String(head, StandardCharsets.UTF_8));
        } catch (ProgramException e) {
            throw new Fatal(e.getMessage());
        }
    }
}
