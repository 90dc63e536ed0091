package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.KernelExecutor;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;

/**
 * The PTX reference interpreter: runs a kernel of a PTX module with the PTX ISA's semantics. It defines what a kernel
 * should compute; the SASS emulator's results are checked against it.
 */
public final class PtxInterpreter implements KernelExecutor {
    static final String NAME = "PTX interpreter";
    private final PtxProgram program;

    public PtxInterpreter(PtxProgram program) {
        this.program = program;
    }

    /** Parses and compiles a PTX text. */
    public static PtxInterpreter load(String fileName, String text) throws ProgramException {
        return new PtxInterpreter(PtxProgram.load(fileName, text));
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public List<String> entries() {
        return program.entries();
    }

    @Override
    public LaunchResult execute(Launch launch, ExecutionLimits limits) throws LaunchException {
        CompiledFunction f = program.function(launch.entry());
        if (f == null || !f.entry) {
            throw new LaunchException("no kernel '" + launch.entry() + "' in " + program.fileName + " (kernels: "
                    + String.join(", ", entries()) + ")");
        }
        // a kernel with a compile-time cluster runs as a cluster launch even when the launch names none (the driver's way)
        Launch run = launch.cluster().isEmpty() && f.clusterShape != null ? launch.withCluster(f.clusterShape) : launch;
        return new Machine(program, run, limits, f).run();
    }
}
