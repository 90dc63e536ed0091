package org.jptxas.simulator.suite;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.spi.Backend;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompileRequest;
import org.jptxas.spi.CompiledModule;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.spi.TestTargets;

/**
 * The kernel-suite test kit shared by the backends' end-to-end tests and the cli's: compiles suite kernels with
 * jptxas (front end, the backends on the class path) and runs the cubins in the SASS emulator against the CPU
 * references. Each (kernel, SM) ends in one {@link Outcome}; {@link #judge} turns the outcomes into a {@link Gate}
 * (anything but a correct result fails unless listed) and the report prints per SM.
 */
public final class SuiteRun {
    public static final List<String> ARCHES = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
    private static final Pattern NOT_SUPPORTED = Pattern.compile("Instruction '([^']+)' not yet supported");

    /** How one (kernel, SM) ended. CRASH: our compiler or emulator threw (a bug, never an expected outcome). */
    public enum Kind { CORRECT, UNSUPPORTED, COMPILE_ERROR, EMULATOR_STOP, FAULT, WRONG, CRASH }

    /** {@code error} is what was thrown for a CRASH, else null. */
    public record Outcome(String kernel, String arch, Kind kind, String detail, byte[] cubin, String sass, Throwable error) {
        public Outcome(String kernel, String arch, Kind kind, String detail, byte[] cubin, String sass) {
            this(kernel, arch, kind, detail, cubin, sass, null);
        }

        public String key() {
            return kernel + " " + arch;
        }
    }

    /** One kernel on one SM it supports. */
    public record Pair(KernelCase kernel, String arch) {
        public String key() {
            return kernel.name() + " " + arch;
        }
    }

    /** The compiler under test: jptxas in-process, or a planted one in the gates' fault tests. */
    @FunctionalInterface
    public interface Compiler {
        public CompiledModule compile(Path ptx, String arch, CompileOptions options) throws CompilationException;
    }

    private final BackendRegistry registry = BackendRegistry.discover(SuiteRun.class.getClassLoader());
    /** Run the emulator with Volta's strict convergence (diverged threads join only where the code says). */
    private final boolean strictConvergence;
    private final Compiler compiler;

    public SuiteRun() {
        this(false);
    }

    public SuiteRun(boolean strictConvergence) {
        this.strictConvergence = strictConvergence;
        this.compiler = this::compileWithJptxas;
    }

    public SuiteRun(boolean strictConvergence, Compiler compiler) {
        this.strictConvergence = strictConvergence;
        this.compiler = compiler;
    }

    /** Every (kernel, SM) pair the kernels support, over {@link #ARCHES}: what a suite gate must compare. */
    public static List<Pair> pairs(List<KernelCase> kernels) {
        return pairs(kernels, ARCHES);
    }

    /** Every (kernel, SM) pair the kernels support over {@code arches}. */
    public static List<Pair> pairs(List<KernelCase> kernels, List<String> arches) {
        List<Pair> out = new ArrayList<>();
        for (KernelCase k : kernels) {
            for (String arch : arches) {
                if (k.supports(Integer.parseInt(arch.substring(3)))) {
                    out.add(new Pair(k, arch));
                }
            }
        }
        return out;
    }

    /**
     * The verdict on a suite run: a correct result passes; a crash is a crash; any other outcome (wrong result, fault,
     * emulator stop, compile error, unsupported instruction) is a difference unless {@code known} lists the pair
     * ("kernel sm_XX" to the reason), and a listed pair that is correct fails as stale.
     */
    public static Gate judge(String name, List<Outcome> outcomes, Map<String, String> known) {
        Gate gate = Gate.withKnown(name, known);
        for (Outcome o : outcomes) {
            switch (o.kind()) {
                case CORRECT -> gate.pass();
                case CRASH -> gate.crash(o.key(), o.error());
                default -> gate.differ(o.key(), o.kind() + " " + o.detail());
            }
        }
        return gate;
    }

    /** Compiles {@code ptx} for {@code arch} with the compiler under test. */
    public CompiledModule compile(Path ptx, String arch, CompileOptions options) throws CompilationException {
        return compiler.compile(ptx, arch, options);
    }

    /** Compiles {@code ptx} for {@code arch} with jptxas; the module, or the diagnostics of the failure. */
    private CompiledModule compileWithJptxas(Path ptx, String arch, CompileOptions options) throws CompilationException {
        Target target = Target.of(arch);
        String text;
        try {
            text = Files.readString(ptx, StandardCharsets.ISO_8859_1);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        OriModule module = TestFrontEnds.of(target).check(ptx.getFileName().toString(), text).lower();
        Backend backend;
        try {
            backend = registry.forTarget(target);
        } catch (org.jptxas.spi.BackendSelectionException e) {
            throw new IllegalStateException(e.getMessage());
        }
        return backend.compile(new CompileRequest(module, target, options));
    }

    public Outcome run(KernelCase k, String arch, Path dir) {
        return run(k, arch, dir, CompileOptions.defaults());
    }

    public Outcome run(KernelCase k, String arch, Path dir, CompileOptions options) {
        CompiledModule compiled;
        try {
            compiled = compile(k.ptx(), arch, options);
        } catch (CompilationException e) {
            String msg = e.diagnostics().stream().map(d -> d.format("jptxas")).reduce((a, b) -> a + "\n" + b).orElse("");
            Matcher m = NOT_SUPPORTED.matcher(msg);
            if (m.find()) {
                return new Outcome(k.name(), arch, Kind.UNSUPPORTED, m.group(1), null, null);
            }
            boolean unsupported = e instanceof org.jptxas.ori.diag.UnsupportedFeatureException
                    || msg.contains("not yet supported");
            return new Outcome(k.name(), arch, unsupported ? Kind.UNSUPPORTED : Kind.COMPILE_ERROR, firstLine(msg), null, null);
        } catch (RuntimeException | StackOverflowError e) {
            return new Outcome(k.name(), arch, Kind.CRASH, "compiler: " + e, null, null, e);
        }
        return execute(k, arch, compiled, dir);
    }

    /** Runs a compiled kernel in the SASS emulator and compares its outputs with the reference. */
    public Outcome execute(KernelCase k, String arch, CompiledModule compiled, Path dir) {
        byte[] cubin = compiled.cubin();
        try {
            SassEmulator emu = SassEmulator.fromCubin(TestTargets.of(arch), cubin).withStrictConvergence(strictConvergence);
            Path d = Files.createDirectories(dir.resolve(k.name() + "-" + arch));
            Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(k.materialize(d)));
            LaunchResult r = emu.execute(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(20_000_000));
            if (r.fault().isPresent()) {
                Fault f = r.fault().get();
                return new Outcome(k.name(), arch, f instanceof Fault.Unimplemented ? Kind.EMULATOR_STOP : Kind.FAULT,
                        f.describe(), cubin, compiled.sass());
            }
            Map<String, byte[]> actual = outputs(k, launch);
            List<String> problems = k.compare(actual, 3);
            return problems.isEmpty() ? new Outcome(k.name(), arch, Kind.CORRECT, "", cubin, compiled.sass())
                    : new Outcome(k.name(), arch, Kind.WRONG, String.join("; ", problems), cubin, compiled.sass());
        } catch (Exception | StackOverflowError e) {
            return new Outcome(k.name(), arch, Kind.CRASH, "emulator: " + e, cubin, compiled.sass(), e);
        }
    }

    private static String firstLine(String s) {
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }

    /** Runs every kernel on every SM it supports, in parallel. */
    public List<Outcome> runAll(List<KernelCase> kernels, Path dir) {
        return runPairs(pairs(kernels), dir);
    }

    /** Runs the pairs, in parallel; the outcomes sorted by kernel and SM. */
    public List<Outcome> runPairs(List<Pair> pairs, Path dir) {
        ConcurrentLinkedQueue<Outcome> out = new ConcurrentLinkedQueue<>();
        pairs.parallelStream().forEach(p -> out.add(run(p.kernel(), p.arch(), dir)));
        List<Outcome> list = new ArrayList<>(out);
        list.sort(java.util.Comparator.comparing(Outcome::kernel).thenComparing(Outcome::arch));
        return list;
    }

    /** The report: per SM the count of each outcome, the missing instructions, and the failures by name. */
    /** The output buffers of a kernel's launch, by name, after it ran. */
    public static Map<String, byte[]> outputs(KernelCase k, Launch launch) {
        Map<String, byte[]> actual = new LinkedHashMap<>();
        int i = 0;
        for (KernelCase.Arg a : k.args()) {
            if (a instanceof KernelCase.Buffer b && b.output()) {
                actual.put(b.name(), launch.arguments().get(i).buffer().orElseThrow().bytes());
            }
            i++;
        }
        return actual;
    }

    public static String report(List<Outcome> outcomes) {
        StringBuilder sb = new StringBuilder();
        Map<String, Map<Kind, Integer>> perSm = new TreeMap<>();
        Map<String, Integer> missing = new TreeMap<>();
        for (Outcome o : outcomes) {
            perSm.computeIfAbsent(o.arch(), a -> new TreeMap<>()).merge(o.kind(), 1, Integer::sum);
            if (o.kind() == Kind.UNSUPPORTED) {
                missing.merge(o.detail(), 1, Integer::sum);
            }
        }
        perSm.forEach((arch, counts) -> sb.append("end-to-end ").append(arch).append(": ")
                .append(counts.getOrDefault(Kind.CORRECT, 0)).append(" correct of ")
                .append(counts.values().stream().mapToInt(Integer::intValue).sum()).append(' ').append(counts).append('\n'));
        sb.append("end-to-end unsupported (kernel-SM pairs by reason): ").append(missing).append('\n');
        for (Outcome o : outcomes) {
            if (o.kind() != Kind.CORRECT && o.kind() != Kind.UNSUPPORTED) {
                sb.append("  ").append(o.kind()).append(' ').append(o.kernel()).append(' ').append(o.arch()).append(": ")
                        .append(o.detail().length() > 300 ? o.detail().substring(0, 300) + "..." : o.detail()).append('\n');
            }
        }
        return sb.toString();
    }

    public static Map<String, Integer> correctPerSm(List<Outcome> outcomes) {
        Map<String, Integer> m = new ConcurrentHashMap<>();
        for (Outcome o : outcomes) {
            if (o.kind() == Kind.CORRECT) {
                m.merge(o.arch(), 1, Integer::sum);
            }
        }
        return m;
    }

    public static String format(Diagnostic d) {
        return d.format("jptxas");
    }
}
