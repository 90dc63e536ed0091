package org.jptxas.simulator.bench;

import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * SASS emulator throughput on one core: whole launches of integer and float suite kernels compiled by ptxas 13
 * (the cubins come from the shared oracle cache), reported as launches per second and, through the auxiliary
 * counter {@code warpInstructions}, as warp-instructions per second (issue 6 asks for at least 5 million). Each launch
 * runs a fresh copy of a launch prepared once (inputs read from disk once). Run with
 * {@code mvn -B -Pjmh -pl simulator -am test -DskipTests}; needs ptxas 13 or a warm oracle cache. JMH measures wall
 * time: on a loaded machine, {@link SuiteLaunches#main} (thread CPU time) is the one-core figure.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SassEmulatorBenchmark {
    /** The integer and float kernels of {@link SuiteLaunches#KERNELS}. */
    @Param({"saxpy", "vec_add_i32", "reduce_sum_f32", "stencil_1d", "scan_block_i32", "gemm_tile_f32", "dynamic_shared",
            "constant_mem", "collatz", "splitmix64", "bitonic_sort", "stencil_2d_f32", "f64_horner", "funnel_shift"})
    public String kernel;

    @Param({"sm_80"})
    public String sm;

    SuiteLaunches.Prepared prepared;

    /** Warp instructions executed, reported by JMH as a rate next to the launch rate. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Counters {
        public long warpInstructions;
    }

    @Setup(Level.Trial)
    public void load() throws Exception {
        List<SuiteLaunches.Prepared> p = SuiteLaunches.prepare(sm, List.of(kernel), Files.createTempDirectory("emu-bench"));
        if (p.isEmpty()) {
            throw new IllegalStateException("no cubin for " + kernel + " " + sm + " (ptxas 13 missing?)");
        }
        prepared = p.get(0);
    }

    @Benchmark
    public LaunchResult launch(Counters counters) throws LaunchException {
        LaunchResult r = prepared.run();
        if (!r.completed()) {
            throw new IllegalStateException(r.fault().orElseThrow().describe());
        }
        counters.warpInstructions += r.warpInstructions();
        return r;
    }
}
