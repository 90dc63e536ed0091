package org.jptxas.simulator.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchException;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.jptxas.spi.TestTargets;

/**
 * Suite kernels compiled by ptxas 13 and loaded into the SASS emulator once, ready to launch repeatedly: the
 * workload of the emulator's benchmark (and of {@link #main}, a quick single-core measurement without JMH).
 */
public final class SuiteLaunches {
    /** Integer and float kernels of the suite (no transcendental slow paths, no atomics-only kernels). */
    public static final List<String> KERNELS = List.of("saxpy", "vec_add_i32", "reduce_sum_f32", "stencil_1d",
            "scan_block_i32", "gemm_tile_f32", "dynamic_shared", "constant_mem", "collatz", "splitmix64", "bitonic_sort", "stencil_2d_f32", "f64_horner", "funnel_shift");

    /**
     * One kernel ready to run: its emulator, its launch spec and the launch prepared once from it (input files read);
     * each run executes a fresh copy of that launch, so the measurement is the emulator's, not the disk's.
     */
    public record Prepared(String name, String arch, SassEmulator emulator, LaunchSpec spec, Launch pristine) {
        public LaunchResult run() throws LaunchException {
            return emulator.execute(pristine.copy(), ExecutionLimits.DEFAULT);
        }
    }

    private SuiteLaunches() {}

    public static List<Prepared> prepare(String arch, List<String> names, Path dir) {
        List<Prepared> out = new ArrayList<>();
        for (KernelCase k : KernelSuite.all()) {
            if (!names.contains(k.name()) || !k.supports(Integer.parseInt(arch.substring(3)))) {
                continue;
            }
            OracleCubins.Compiled c = OracleCubins.ptxas13(k.ptx(), arch);
            if (!c.ok()) {
                continue;
            }
            try {
                SassEmulator emu = SassEmulator.fromCubin(TestTargets.of(arch), Files.readAllBytes(c.cubin().orElseThrow()));
                LaunchSpec spec = LaunchSpecReader.read(k.materialize(dir.resolve(k.name() + "-" + arch)));
                out.add(new Prepared(k.name(), arch, emu, spec, Launch.prepare(Target.of(arch), spec)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (Exception e) {
                throw new IllegalStateException(k.name() + ": " + e, e);
            }
        }
        return out;
    }

    /** {@code java -cp ... SuiteLaunches [arch] [seconds]}: warp-instructions per second per kernel on one core. */
    public static void main(String[] args) throws Exception {
        String arch = args.length > 0 ? args[0] : "sm_80";
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        Path dir = Files.createTempDirectory("emu-bench");
        List<String> names = args.length > 2 ? List.of(args[2].split(",")) : KERNELS;
        long totalWarp = 0, totalNanos = 0;
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        com.sun.management.ThreadMXBean alloc = cpu instanceof com.sun.management.ThreadMXBean a ? a : null;
        List<Prepared> all = prepare(arch, names, dir);
        for (int round = 0; round < 3; round++) { // warm-up: the JIT compiles the executor with every kernel's profile
            for (Prepared p : all) {
                long until = cpu.getCurrentThreadCpuTime() + (long) (seconds * 0.3e9);
                while (cpu.getCurrentThreadCpuTime() < until) {
                    p.run();
                }
            }
        }
        for (Prepared p : all) {
            long bytes0 = alloc == null ? 0 : alloc.getCurrentThreadAllocatedBytes();
            long warp = 0, t0 = cpu.getCurrentThreadCpuTime(), deadline = t0 + (long) (seconds * 1e9);
            int runs = 0;
            while (cpu.getCurrentThreadCpuTime() < deadline) {
                LaunchResult r = p.run();
                if (!r.completed()) {
                    throw new IllegalStateException(p.name() + ": " + r.fault().orElseThrow().describe());
                }
                warp += r.warpInstructions();
                runs++;
            }
            long ns = cpu.getCurrentThreadCpuTime() - t0;
            long allocated = alloc == null ? 0 : alloc.getCurrentThreadAllocatedBytes() - bytes0;
            totalWarp += warp;
            totalNanos += ns;
            System.out.printf("%-16s %s %6d runs %9d warp-instr/run %10.0f warp-instr/s (thread CPU time) %8d bytes allocated/run%n",
                    p.name(), arch, runs, warp / runs, warp / (ns / 1e9), allocated / runs);
        }
        System.out.printf("all %s: %.0f warp-instr/s%n", arch, totalWarp / (totalNanos / 1e9));
    }
}
