package org.jptxas.cli;

import org.jptxas.frontend.ptx.ast.PtxVersions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.jptxas.cubin.ResourceReport;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.frontend.ptx.ast.PtxModule;
import org.jptxas.spi.Backend;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.TargetDescription;
import org.jptxas.spi.BackendSelectionException;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompileRequest;
import org.jptxas.spi.CompiledModule;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.diag.Severity;
import org.jptxas.ori.ir.GlobalVar;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetCatalog;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * The {@code jptxas} command: ptxas's command line over the jptxas library. One instance serves one invocation;
 * it writes only to the streams it is given and returns ptxas's exit codes (0, or 255 on any error).
 */
@Command(name = "jptxas", sortOptions = false, usageHelpWidth = 100,
        description = "jptxas: an open, pluggable PTX optimizing assembler (ptxas-compatible command line).")
final class JptxasCommand {
    static final String TOOL = "jptxas";
    static final int FAILURE = 255;
    static final String TOOL_NAME_OPTION = "--tool-name=";

    @Parameters(paramLabel = "<ptx file>", description = "PTX input files.")
    List<String> inputs = new ArrayList<>();

    @Option(names = {"--gpu-name", "-arch"}, paramLabel = "<gpu name>",
            description = "Target GPU (sm_XY[a|f]); compute_XY or lto_XY only parse and check. Default: sm_75.")
    String gpuName;

    @Option(names = {"--output-file", "-o"}, paramLabel = "<file>", description = "Output file. Default: elf.o.")
    String outputFile;

    @Option(names = {"--opt-level", "-O"}, paramLabel = "<N>", description = "Optimization level. Default: 3.")
    String optLevel;

    @Option(names = {"--verbose", "-v"}, description = "Print code generation statistics.")
    boolean verbose;

    @Option(names = {"--maxrregcount", "-maxrregcount"}, paramLabel = "<archmax/archmin/N>",
            description = "Maximum number of registers a function may use.")
    String maxRegCount;

    @Option(names = {"--compile-only", "-c"}, description = "Generate a relocatable object.")
    boolean compileOnly;

    @Option(names = {"--machine", "-m"}, paramLabel = "<bits>", description = "Host architecture; only 64.")
    String machine;

    @Option(names = {"--generate-line-info", "-lineinfo"}, description = "Generate line-number information.")
    boolean lineInfo;

    @Option(names = {"--device-debug", "-g"}, description = "Generate debug information.")
    boolean debug;

    @Option(names = {"--warn-on-spills", "-warn-spills"}, description = "Warn when registers are spilled.")
    boolean warnOnSpills;

    @Option(names = {"--disable-warnings", "-w"}, description = "Inhibit all warning messages.")
    boolean disableWarnings;

    @Option(names = {"--warning-as-error", "-Werror"}, description = "Make all warnings into errors.")
    boolean warningsAsErrors;

    @Option(names = {"--list-version", "-version-ls"}, description = "Print supported PTX ISA versions.")
    boolean listVersion;

    @Option(names = {"--version", "-V"}, description = "Print version information.")
    boolean version;

    @Option(names = {"--help", "-h"}, description = "Print this help.")
    boolean help;

    @Option(names = {"--input-as-string", "-ias"}, paramLabel = "<ptx string>",
            description = "PTX modules given as strings instead of files.")
    List<String> inputStrings = new ArrayList<>();

    @Option(names = {"--entry", "-e"}, paramLabel = "<entry function>,...",
            description = "Compile only these entry functions.")
    List<String> entryLists = new ArrayList<>();

    @Option(names = "--list-targets", description = "List every target with the backend and jar that serves it.")
    boolean listTargets;

    @Option(names = "--syntax-only", description = "Parse and check the input only; write no output.")
    boolean syntaxOnly;

    @Option(names = "--plugin-path", paramLabel = "<folder>",
            description = "Extra folder of backend jars (also: JPTXAS_PLUGIN_PATH).")
    List<Path> pluginFolders = new ArrayList<>();

    @Option(names = "--debug-trace", description = "Print stack traces of internal errors.")
    boolean debugTrace;

    @Option(names = "--out-sass", paramLabel = "<file>",
            description = "Also write the generated SASS as text (nvdisasm -c layout).")
    String outSass;

    @Option(names = "--dump-ir", paramLabel = "<pass>",
            description = "Print the Ori of every function after pass <pass> (lower, regalloc, ...; 'all' for every pass).")
    String dumpIr;

    @Option(names = "--verify-ir", description = "Check the Ori between passes (internal consistency).")
    boolean verifyIr;

    private final PrintWriter out;
    private final PrintWriter err;
    private final Map<String, String> env;
    private final String home;
    private final Path workDir;
    private final Registries registries;
    private final Workspace workspace;
    /** The name messages start with: jptxas, or the name the launcher was called by (ptxas for a drop-in link). */
    private String tool = TOOL;
    private final java.util.Set<String> declaredFunctions = new java.util.HashSet<>();
    private boolean tensorMemoryInfoPrinted;
    private boolean hadError;
    private PtxasOptions.Effects effects = new PtxasOptions.Effects(false, false, false, true, false, 0);

    JptxasCommand(PrintWriter out, PrintWriter err, Map<String, String> env, String home, Path workDir) {
        this(out, err, env, home, workDir, Registries.fresh());
    }

    /** With {@code registries}: the compile server shares the backends it has loaded between invocations. */
    JptxasCommand(PrintWriter out, PrintWriter err, Map<String, String> env, String home, Path workDir,
                  Registries registries) {
        this(out, err, env, home, workDir, registries, Workspace.files(workDir));
    }

    /** With {@code workspace}: the Java API reads its inputs from and keeps its outputs in memory. */
    JptxasCommand(PrintWriter out, PrintWriter err, Map<String, String> env, String home, Path workDir,
                  Registries registries, Workspace workspace) {
        this.workspace = workspace;
        this.out = out;
        this.err = err;
        this.env = env;
        this.home = home;
        this.workDir = workDir;
        this.registries = registries;
    }

    /**
     * Parses {@code args} and runs; never throws. A first argument {@code --tool-name=NAME}, which the launcher adds
     * when it is called by another name (a link named {@code ptxas}), makes messages start with that name, as the
     * toolchains that read ptxas's messages expect ({@code ptxas fatal   : ...}).
     */
    int run(String[] args) {
        if (args.length > 0 && args[0].startsWith(TOOL_NAME_OPTION)) {
            String name = args[0].substring(TOOL_NAME_OPTION.length());
            if (name.matches("[A-Za-z0-9._+-]{1,64}")) {
                tool = name;
            }
            args = java.util.Arrays.copyOfRange(args, 1, args.length);
        }
        try {
            return runUnchecked(args);
        } catch (Fatal f) {
            printFatal(f.getMessage());
            return FAILURE;
        } catch (RuntimeException | Error e) {
            printFatal("Internal compiler error: " + e);
            if (debugTrace) {
                e.printStackTrace(err);
            }
            return FAILURE;
        } finally {
            out.flush();
            err.flush();
        }
    }

    private int runUnchecked(String[] rawArgs) {
        if (rawArgs.length == 0) {
            usage();
            return 0;
        }
        String[] args = OptionsFiles.expand(rawArgs, workDir);
        CommandLine cl = commandLine();
        CommandLine.ParseResult parsed;
        try {
            parsed = cl.parseArgs(args);
        } catch (CommandLine.UnmatchedArgumentException e) {
            String unknown = e.getUnmatched().isEmpty() ? "?" : e.getUnmatched().get(0);
            throw new Fatal("Unknown option '" + (unknown.startsWith("-") ? unknown.substring(1) : unknown) + "'");
        } catch (CommandLine.MissingParameterException e) {
            String name = e.getMissing().isEmpty() || !(e.getMissing().get(0) instanceof OptionSpec o)
                    ? "?" : o.shortestName();
            throw new Fatal("argument expected after '" + name + "'");
        } catch (CommandLine.ParameterException e) {
            throw new Fatal(e.getMessage());
        }
        List<Diagnostic> early = new ArrayList<>();
        effects = PtxasOptions.apply(parsed, compileOnly, maxRegCount != null, early);
        early.forEach(this::report);
        if (hadError) {
            printFatal("Ptx assembly aborted due to errors");
            return FAILURE;
        }
        if (help) {
            usage();
            return 0;
        }
        if (version) {
            out.print(versionText());
            return 0;
        }
        if (listVersion) {
            PtxVersions.ALL.forEach(out::println);
            return 0;
        }
        if (machine != null && !machine.equals("64")) {
            throw new Fatal("Value '" + machine + "' is not defined for option 'machine'");
        }
        CompileOptions options = compileOptions();
        if (listTargets) {
            new TargetLister(out).list(registry(), DEFAULT_TARGET);
            return 0;
        }
        if (inputs.isEmpty() && inputStrings.isEmpty()) {
            throw new Fatal("No input files specified");
        }
        String arch = gpuName == null ? DEFAULT_TARGET.name() : gpuName;
        boolean parseOnly = syntaxOnly || arch.startsWith("compute_") || arch.startsWith("lto_");
        Target target = resolveTarget(arch);
        Backend backend = null;
        TargetDescription description = null;
        if (!parseOnly) {
            try {
                backend = registry().forTarget(target);
            } catch (BackendSelectionException e) {
                throw new Fatal(e.getMessage());
            }
            description = backend.description(target).filter(TargetDescription::codeGeneration).orElse(null);
        }
        if (description != null && options.maxRegCount().isPresent()) {
            // ptxas's warning when it raises a --maxrregcount below the lower bound (or ignores a huge one)
            org.jptxas.isel.regalloc.RegisterLimits.adjustmentWarning(target, options.maxRegCount().getAsInt())
                    .ifPresent(w -> report(Diagnostic.warning(null, 0, w)));
        }
        List<OriModule> modules = new ArrayList<>();
        for (String input : inputs) {
            OriModule m = frontEnd(input, readInput(input), target, description, parseOnly, options);
            if (m != null) {
                modules.add(m);
            }
        }
        for (String ptx : inputStrings) {
            // ptxas names a string input so in its messages
            OriModule m = frontEnd("application ptx input", ptx, target, description, parseOnly, options);
            if (m != null) {
                modules.add(m);
            }
        }
        PtxasOptions.suppressDebugInfoWarning(effects.suppressDebugInfo(), debug || lineInfo,
                modules.stream().anyMatch(m -> m.lines().hasLoc())).ifPresent(this::report);
        for (String entry : entries()) {
            if (!hadError && !declaredFunctions.contains(entry)) {
                throw new Fatal("Unknown function " + entry);
            }
        }
        if (!hadError && !parseOnly && description == null) {
            // checked but not lowered: the backend lists the target without generating code for it
            report(Diagnostic.fatal("Code generation for " + target.name() + " is not yet supported by backend "
                    + backend.id()));
        } else if (!hadError && !parseOnly) {
            // a module whose .target lists debug is compiled as with -g: CompileRequest sees to it for every caller
            generate(modules, target, backend, options);
        }
        if (hadError) {
            printFatal("Ptx assembly aborted due to errors");
            return FAILURE;
        }
        return 0;
    }

    /**
     * Parses, checks and (unless only checking, or the target has no code generation) lowers one input for the
     * described target; null when it had errors or was only checked.
     */
    private String readInput(String input) {
        try {
            return new String(workspace.read(input), StandardCharsets.ISO_8859_1);
        } catch (IOException | SecurityException | java.nio.file.InvalidPathException e) {
            // Fatal: nothing else is attempted and nothing more is printed (ptxas adds an "aborted" line here).
            throw new Fatal("Input file '" + input + "' could not be opened");
        }
    }

    private OriModule frontEnd(String input, String text, Target target, TargetDescription description,
                               boolean parseOnly, CompileOptions options) {
        try {
            TargetCatalog catalog = registry().catalog(DEFAULT_TARGET);
            PtxFrontEnd.CheckedModule checked = (description == null ? new PtxFrontEnd(target, catalog)
                    : new PtxFrontEnd(description.profile(), catalog)).check(input, text);
            checked.warnings().forEach(this::report);
            PtxModule ast = checked.resolved().module();
            boolean moduleDebug = ast.target().map(t -> t.has("debug")).orElse(false);
            if ((debug || moduleDebug) && !parseOnly) {
                List<Diagnostic> messages = OptionMessages.missingDebugSections(ast, moduleDebug);
                if (moduleDebug && messages.stream().noneMatch(Diagnostic::isError)) {
                    // ptxas refuses the optimization level before it warns of a missing DWARF section
                    refuseOptimizedDebugging();
                }
                messages.forEach(this::report);
            }
            ast.functions().forEach(f -> declaredFunctions.add(f.name()));
            fileIndicesAcrossInputs(input, ast);
            if (effects.warnDoublePrecision()) {
                OptionMessages.doublePrecision(input, ast).forEach(this::report);
            }
            if (effects.tensorMemoryCheck() && !tensorMemoryInfoPrinted) {
                // ptxas prints it once, on stderr like all its messages
                tensorMemoryInfoPrinted = true;
                OptionMessages.tensorMemoryCheck(ast).ifPresent(d -> err.println(d.format(tool)));
            }
            if (parseOnly || description == null) {
                return null;
            }
            // -c: device functions stay functions of their own and extern calls are left to the linker; -g keeps
            // every device function with its code too
            OriModule lowered = compileOnly ? checked.lowerRelocatable(options.maxRegCount())
                    : debug || moduleDebug ? checked.lowerKeepingFunctions(options.maxRegCount())
                    : checked.lower(options.maxRegCount());
            lowered = lowered.withLines(SourceFileFacts.resolve(lowered.lines(), workDir));
            if (lowered.lines().locWithoutFile()) {
                report(Diagnostic.warning(null, 0, ".loc directive without .file directive is found, line information "
                        + "in generated binary may not be complete"));
            }
            return OptionMessages.onlyEntries(lowered, new java.util.HashSet<>(entries()));
        } catch (CompilationException e) {
            e.diagnostics().forEach(this::report);
            hadError = true;
            return null;
        }
    }

    /**
     * Compiles every input into one cubin, as ptxas does with several inputs (it takes them last first), and writes
     * the outputs only when everything succeeded.
     */
    private void generate(List<OriModule> modules, Target target, Backend backend, CompileOptions options) {
        List<OriModule> reversed = new ArrayList<>(modules);
        java.util.Collections.reverse(reversed);
        OriModule module = reversed.size() == 1 ? reversed.get(0) : merge(reversed, target);
        CompiledModule result;
        try {
            result = backend.compile(new CompileRequest(module, target, options, new IrDebug(dumpIr, verifyIr, out)));
        } catch (CompilationException e) {
            e.diagnostics().forEach(this::report);
            hadError = true;
            return;
        }
        result.messages().forEach(this::report);
        OptionMessages.afterCompile(result.usage(), warnOnSpills, effects.warnLocalMemory())
                .forEach(this::report);
        if (hadError) {
            return;
        }
        if (verbose) {
            // under the name the launcher was called by; a backend that gives only the text has it printed as is
            err.print(result.moduleUsage().filter(m -> !result.resourceReport().isEmpty())
                    .map(m -> ResourceReport.format(tool, target.name(), m, result.usage()))
                    .orElse(result.resourceReport()));
        }
        workspace.compiled(result.usage());
        List<Workspace.Output> outputs = new ArrayList<>();
        outputs.add(new Workspace.Output(Workspace.Kind.CUBIN, outputFile == null ? "elf.o" : outputFile, result.cubin()));
        if (outSass != null) {
            outputs.add(new Workspace.Output(Workspace.Kind.SASS, outSass, result.sass().getBytes(StandardCharsets.UTF_8)));
        }
        try {
            // the cubin and the SASS text are written together: a run that cannot write one leaves neither
            workspace.write(outputs);
        } catch (Workspace.OutputFailure e) {
            throw new Fatal(e.getMessage());
        }
    }

    /**
     * Several inputs share one {@code .file} index space: ptxas refuses an index an earlier input declared, as it does
     * within one file (whose duplicates the checker has reported already).
     */
    private void fileIndicesAcrossInputs(String input, PtxModule ast) {
        java.util.Set<Long> own = new java.util.HashSet<>();
        for (var item : ast.items()) {
            if (item instanceof org.jptxas.frontend.ptx.ast.FileDirective f && own.add(f.index())
                    && !fileIndices.add(f.index())) {
                report(Diagnostic.error(input, ast.reportedPos(f).line(), "Duplicate file index #" + f.index()));
            }
        }
    }

    private final java.util.Set<Long> fileIndices = new java.util.HashSet<>();

    private static OriModule merge(List<OriModule> modules, Target target) {
        List<OriFunction> functions = new ArrayList<>();
        List<GlobalVar> globals = new ArrayList<>();
        for (OriModule m : modules) {
            functions.addAll(m.functions());
            globals.addAll(m.globals());
        }
        // the line tables of all inputs in command-line order (these modules come last first)
        List<org.jptxas.ori.ir.SourceLines> lines = new ArrayList<>(modules.stream().map(OriModule::lines).toList());
        java.util.Collections.reverse(lines);
        return new OriModule(modules.get(0).sourceName(), target, functions, globals,
                org.jptxas.ori.ir.ModuleDeclarations.merge(modules.stream().map(OriModule::declarations).toList()),
                org.jptxas.ori.ir.SourceLines.merge(lines));
    }

    private void report(Diagnostic d) {
        if (d.severity() == Severity.WARNING) {
            if (disableWarnings) {
                return;
            }
            if (warningsAsErrors) {
                d = new Diagnostic(Severity.ERROR, d.file(), d.line(), d.message());
            }
        }
        (d.severity() == Severity.INFO ? out : err).println(d.format(tool));
        workspace.reported(d);
        if (d.isError()) {
            hadError = true;
        }
    }

    /** A fatal line, printed and reported; the run ends with it. */
    private void printFatal(String message) {
        Diagnostic d = Diagnostic.fatal(message);
        err.println(d.format(tool));
        workspace.reported(d);
    }

    private Target resolveTarget(String arch) {
        String real = arch.startsWith("compute_") ? "sm_" + arch.substring("compute_".length())
                : arch.startsWith("lto_") ? "sm_" + arch.substring("lto_".length()) : arch;
        Target target = Target.parse(real).orElseThrow(() -> notDefined(arch));
        boolean known = registry().targets().containsKey(target);
        if (!known) {
            throw notDefined(arch);
        }
        return target;
    }

    private static Fatal notDefined(String arch) {
        return new Fatal("Value '" + arch + "' is not defined for option 'gpu-name'");
    }

    private CompileOptions compileOptions() {
        int level = 3;
        if (optLevel != null) {
            try {
                level = Math.min(3, Integer.parseInt(optLevel));
            } catch (NumberFormatException e) {
                throw new Fatal("'" + optLevel + "': expected a number");
            }
            if (level < 0) {
                throw new Fatal("Invalid value '" + optLevel + "' for option 'opt-level'");
            }
        }
        if (debug) {
            // ptxas's -g: device code without optimization, and no optimization level above 0 with it
            if (optLevel != null && level > 0) {
                throw new Fatal("Optimized debugging not supported");
            }
            level = 0;
            if (lineInfo) {
                report(Diagnostic.warning(null, 0, "Conflicting options --device-debug and --generate-line-info "
                        + "specified, ignoring --generate-line-info option"));
            }
        }
        OptionalInt maxRegs = OptionalInt.empty();
        if (maxRegCount != null && !maxRegCount.equals("archmax") && !maxRegCount.equals("archmin")) {
            try {
                maxRegs = OptionalInt.of(Integer.parseInt(maxRegCount));
            } catch (NumberFormatException e) {
                throw new Fatal("Invalid value '" + maxRegCount + "' for option 'maxrregcount'");
            }
            if (maxRegs.getAsInt() < 0) {
                // ptxas reads the value unsigned: a negative one is "too big" and ignored, with its warning
                report(Diagnostic.warning(null, 0, "Too big maxrregcount value specified " + maxRegCount
                        + ", will be ignored"));
                maxRegs = OptionalInt.empty();
            }
        }
        // The resource report also gives the spill and frame sizes --warn-on-spills and -warn-lmem-usage report;
        // it is printed only with -v.
        boolean report = verbose || warnOnSpills || effects.warnLocalMemory();
        return new CompileOptions(level, maxRegs, compileOnly, debug, lineInfo, report, warnOnSpills, effects.fmad(),
                effects.suppressDebugInfo(), effects.splitCompile(), outSass != null);
    }

    /**
     * ptxas's refusal of an explicit optimization level above 0 for device debug code ({@code -g}, or a
     * {@code .target} listing {@code debug}, which draws no warning that -lineinfo is ignored).
     */
    private void refuseOptimizedDebugging() {
        // compileOptions() has checked that an -O level is a number
        if (optLevel != null && Integer.parseInt(optLevel) > 0) {
            throw new Fatal("Optimized debugging not supported");
        }
    }

    /** ptxas's target when no {@code -arch} is given. */
    static final Target DEFAULT_TARGET = Target.of("sm_75");

    private BackendRegistry registry;

    private BackendRegistry registry() {
        if (registry == null) {
            try {
                // --plugin-path folders are relative to the invocation's working directory
                PluginPath path = PluginPath.of(home, env.get(PluginPath.ENV),
                        pluginFolders.stream().map(workDir::resolve).toList());
                registry = registries.get(path);
            } catch (IOException e) {
                throw new Fatal("Cannot read plugin folder: " + e.getMessage());
            }
            registry.loadProblems().forEach(p -> err.println(Diagnostic.warning(null, 0, p).format(tool)));
        }
        return registry;
    }

    /** The entry functions {@code -e} names (comma-separated lists, several times); empty for all. */
    private List<String> entries() {
        List<String> names = new ArrayList<>();
        for (String list : entryLists) {
            for (String e : list.split(",")) {
                if (!e.isEmpty()) {
                    names.add(e);
                }
            }
        }
        return names;
    }

    /**
     * {@code --version}: jptxas's own version, then the ptxas release whose command line, messages and PTX ISA it
     * follows, in the words of ptxas's own last line, so that tools that read ptxas's version (Triton:
     * {@code release (\d+\.\d+)}; XLA: {@code \bV(\d+)\.(\d+)\.(\d+)\b}) accept it. The text depends only
     * on the build, since those tools put it in their cache keys.
     */
    static String versionText() {
        return "jptxas: an open PTX optimizing assembler, version " + Version.get() + "\n"
                + "Compatible with ptxas 13.0 (command line, messages, PTX ISA up to " + PtxVersions.CURRENT + ")\n"
                + "Cuda compilation tools, release 13.0, V13.0.88\n";
    }

    private CommandLine commandLine() {
        CommandLine cl = new CommandLine(this);
        for (PtxasOptions.Spec spec : concat(PtxasOptions.CHECKED, PtxasOptions.REFUSED)) {
            OptionSpec.Builder b = OptionSpec.builder(spec.longName(), spec.shortName()).hidden(true);
            if (spec.takesValue()) {
                b.arity("1").type(String.class);
            } else {
                b.arity("0").type(boolean.class);
            }
            cl.getCommandSpec().addOption(b.build());
        }
        cl.setOverwrittenOptionsAllowed(true);
        cl.setUnmatchedOptionsArePositionalParams(false);
        return cl;
    }

    private static <T> List<T> concat(List<T> a, List<T> b) {
        List<T> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private void usage() {
        out.print(commandLine().getUsageMessage(CommandLine.Help.Ansi.OFF));
    }

    /** A fatal, user-facing error: printed as one ptxas-style line. */
    static final class Fatal extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Fatal(String message) {
            super(message, null, false, false);
        }
    }
}
