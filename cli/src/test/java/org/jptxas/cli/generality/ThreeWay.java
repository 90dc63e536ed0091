package org.jptxas.cli.generality;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.jptxas.cli.generality.FormKernels.Buffer;
import org.jptxas.cli.generality.FormKernels.ByValue;
import org.jptxas.cli.generality.FormKernels.Kernel;
import org.jptxas.cli.generality.FormKernels.Param;
import org.jptxas.cli.generality.FormKernels.Scalar;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.spi.IrObserver;
import org.jptxas.isel.codegen.ModuleCodegen;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.CompileOptions;
import org.jptxas.isel.codegen.FamilyBackend;
import org.jptxas.spi.TestTargets;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.Diagnostic;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.KernelExecutor;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.ParamSpec;
import org.jptxas.simulator.launch.ScalarType;
import org.jptxas.simulator.ptx.ProgramException;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.testing.OracleCubins;

/**
 * The three legs of a differential run, as {@code bin/jptxas-run --differential} runs them, for generated kernels:
 * (a) the PTX reference interpreter on the text, (b) the SASS emulator on ptxas 13's cubin, (c) the SASS emulator on
 * jptxas's cubin (compiled in-process at -O3, as bin/jptxas does). A module holds many kernels: it is loaded and
 * compiled once and each kernel launched on its own copy of its buffers.
 */
final class ThreeWay {
    private ThreeWay() {}

    static final BackendRegistry REGISTRY = BackendRegistry.discover(ThreeWay.class.getClassLoader());

    /** Steps a generated kernel may run: all of them are short, so a loop that does not end is a fault quickly. */
    static final ExecutionLimits LIMITS = ExecutionLimits.DEFAULT.withMaxWarpInstructions(2_000_000);

    /** What compiling a module gave: a cubin, or why not. */
    record Compiled(byte[] cubin, String error, List<Diagnostic> diagnostics, Throwable crash) {
        boolean ok() {
            return cubin != null;
        }

        static Compiled of(byte[] cubin) {
            return new Compiled(cubin, null, List.of(), null);
        }

        static Compiled failed(String error, List<Diagnostic> diagnostics) {
            return new Compiled(null, error, diagnostics, null);
        }

        static Compiled crashed(Throwable t) {
            return new Compiled(null, String.valueOf(t), List.of(), t);
        }
    }

    /** The compiler under test, replaceable by planted faults. */
    @FunctionalInterface
    interface Compiler {
        Compiled compile(String fileName, String ptx, String sm);
    }

    /** jptxas in-process, -O3, as bin/jptxas compiles an executable cubin. */
    static final Compiler JPTXAS = (fileName, ptx, sm) -> {
        try {
            Target target = Target.of(sm);
            FamilyBackend backend = (FamilyBackend) REGISTRY.forTarget(target);
            CompileOptions o = new CompileOptions(3, OptionalInt.empty(), false, false, false, false, false);
            ModuleCodegen.Result r = new ModuleCodegen(backend.requirePipeline(target))
                    .compile(TestFrontEnds.of(target).check(fileName, ptx).lower(), target, o, IrObserver.NONE, false);
            return Compiled.of(r.cubin());
        } catch (CompilationException e) {
            return Compiled.failed(e.getMessage(), e.diagnostics());
        } catch (RuntimeException | StackOverflowError | org.jptxas.spi.BackendSelectionException e) {
            return Compiled.crashed(e);
        }
    };

    /** ptxas 13 through the shared cache of oracle cubins. */
    static Compiler ptxas(Path ptxas, Path workDir) {
        return (fileName, ptx, sm) -> {
            try {
                Path dir = Files.createDirectories(workDir);
                Path file = Files.createTempFile(dir, "m", ".ptx");
                try {
                    Files.writeString(file, ptx);
                    OracleCubins.Compiled c = OracleCubins.compile(ptxas, file, sm);
                    return c.ok() ? Compiled.of(Files.readAllBytes(c.cubin().get()))
                            : Compiled.failed(c.diagnostics().strip(), List.of());
                } finally {
                    Files.deleteIfExists(file);
                }
            } catch (java.io.IOException e) {
                return Compiled.failed("cannot run ptxas: " + e.getMessage(), List.of());
            }
        };
    }

    /** One leg's result for one kernel: the output bytes, or a fault, or why it could not run. */
    record LegResult(Status status, byte[] out, String detail, List<String> hazards) {
        enum Status { COMPLETED, FAULT, FAILED }

        static LegResult failed(String why) {
            return new LegResult(Status.FAILED, null, why, List.of());
        }

        boolean completed() {
            return status == Status.COMPLETED;
        }
    }

    /** A loaded program of one leg, or why it could not be loaded. */
    record Program(KernelExecutor executor, String error) {}

    static Program interpreter(String fileName, String ptx) {
        try {
            return new Program(PtxInterpreter.load(fileName, ptx), null);
        } catch (ProgramException e) {
            return new Program(null, "interpreter refuses the module: " + e.getMessage());
        } catch (RuntimeException e) {
            return new Program(null, "interpreter crashed loading the module: " + e);
        }
    }

    static Program emulator(String sm, byte[] cubin) {
        try {
            return new Program(SassEmulator.fromCubin(TestTargets.of(sm), cubin).withStrictConvergence(true), null);
        } catch (RuntimeException e) {
            return new Program(null, "emulator cannot load the cubin: " + e.getMessage());
        }
    }

    static LaunchSpec spec(Kernel k) {
        List<ParamSpec> params = new ArrayList<>();
        for (Param p : k.params()) {
            if (p instanceof Buffer b) {
                params.add(new ParamSpec.Pointer(b.init().length, Optional.empty(), Optional.empty()));
            } else if (p instanceof Scalar s) {
                ScalarType t = switch (s.bytes()) {
                    case 1 -> ScalarType.U8;
                    case 2 -> ScalarType.U16;
                    case 4 -> ScalarType.U32;
                    default -> ScalarType.U64;
                };
                params.add(new ParamSpec.Scalar(t, s.bits()));
            } else if (p instanceof ByValue v) {
                params.add(new ParamSpec.Bytes(v.value()));
            }
        }
        return new LaunchSpec(Optional.of(k.name()), Dim3.of(k.grid()), Dim3.of(k.block()), Optional.empty(), 0,
                params);
    }

    /** Launches kernel {@code k} of a loaded program on fresh copies of its buffers. */
    static LegResult run(Program p, String sm, Kernel k) {
        if (p.executor() == null) {
            return LegResult.failed(p.error());
        }
        try {
            Launch launch = Launch.prepare(Target.of(sm), spec(k));
            int bi = 0;
            for (Param param : k.params()) {
                if (param instanceof Buffer b) {
                    byte[] region = launch.arguments().get(bi).buffer().orElseThrow().bytes();
                    System.arraycopy(b.init(), 0, region, 0, b.init().length);
                }
                bi++;
            }
            LaunchResult r;
            List<String> hazards = List.of();
            if (p.executor() instanceof SassEmulator e) {
                SassEmulator.TimedResult t = e.executeTimed(launch, LIMITS);
                r = t.result();
                hazards = t.timing().hazards();
            } else {
                r = p.executor().execute(launch, LIMITS);
            }
            if (!r.completed()) {
                return new LegResult(LegResult.Status.FAULT, null, r.fault().orElseThrow().describe(), hazards);
            }
            byte[] out = launch.arguments().get(k.out()).buffer().orElseThrow().bytes().clone();
            return new LegResult(LegResult.Status.COMPLETED, out, null, hazards);
        } catch (LaunchException e) {
            return LegResult.failed("launch refused: " + e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            return LegResult.failed("crashed: " + e);
        }
    }
}
