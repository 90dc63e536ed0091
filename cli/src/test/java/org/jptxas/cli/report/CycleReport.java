package org.jptxas.cli.report;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFacts;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.simulator.suite.SuiteRun;

/**
 * How fast our code runs next to ptxas's, by the emulator's measure: each suite kernel on each SM it supports, ptxas
 * 13's cubin and ours run on the same launch; executed warp instructions, cycles summed over warps and of the slowest
 * warp (the latency model over the encoded control words), and registers. Static instruction counts hide what
 * predication and load batching change; these counts do not.
 */
final class CycleReport {
    /** One cubin's run. */
    record Run(long warpInstructions, long totalCycles, long maxCycles, int registers) {}

    /** One kernel/SM pair, both runs. */
    record Pair(String kernel, String arch, Run ours, Run ptxas) {
        double cycles() {
            return (double) ours.totalCycles / ptxas.totalCycles;
        }

        double slowestWarp() {
            return (double) ours.maxCycles / ptxas.maxCycles;
        }

        double instructions() {
            return (double) ours.warpInstructions / ptxas.warpInstructions;
        }

        double registers() {
            return (double) Math.max(1, ours.registers) / Math.max(1, ptxas.registers);
        }
    }

    /** A compiler: the cubin of a kernel for an SM, or empty when it refuses (with why in the exception). */
    @FunctionalInterface
    interface Compile {
        Optional<byte[]> cubin(KernelCase k, String arch) throws Exception;
    }

    /** The gate (every pair measured, both runs correct and timed) and the measurements. */
    record Result(Gate gate, List<Pair> pairs) {
        double geomean(java.util.function.ToDoubleFunction<Pair> ratio) {
            return Math.exp(pairs.stream().mapToDouble(p -> Math.log(ratio.applyAsDouble(p))).average().orElse(0));
        }
    }

    private CycleReport() {}

    /**
     * The report's core: a pair ptxas refuses is an oracle failure; ours refusing, a wrong result, a fault or a run
     * without timing on either side is a difference; our code throwing is a crash.
     */
    static Result measure(List<KernelCase> kernels, List<String> arches, Path dir, Compile ours, Compile ptxas) {
        Gate gate = Gate.named("emulated cycles of jptxas's and ptxas's cubins");
        ConcurrentLinkedQueue<Pair> pairs = new ConcurrentLinkedQueue<>();
        kernels.parallelStream().forEach(k -> {
            for (String arch : arches) {
                if (!k.supports(Integer.parseInt(arch.substring(3)))) {
                    continue;
                }
                String key = k.name() + "@" + arch;
                Optional<byte[]> theirs;
                try {
                    theirs = ptxas.cubin(k, arch);
                } catch (Exception e) {
                    gate.oracleFailed(key, "ptxas: " + e.getMessage());
                    continue;
                }
                if (theirs.isEmpty()) {
                    gate.oracleFailed(key, "ptxas refused the kernel");
                    continue;
                }
                try {
                    Optional<byte[]> mine = ours.cubin(k, arch);
                    if (mine.isEmpty()) {
                        gate.differ(key, "jptxas refused the kernel");
                        continue;
                    }
                    List<String> problems = new ArrayList<>();
                    Run a = run(k, arch, mine.get(), dir.resolve("ours"), problems, "ours");
                    Run b = run(k, arch, theirs.get(), dir.resolve("ptxas"), problems, "ptxas's");
                    if (!problems.isEmpty()) {
                        gate.differ(key, String.join("; ", problems));
                        continue;
                    }
                    pairs.add(new Pair(k.name(), arch, a, b));
                    gate.pass();
                } catch (Exception | StackOverflowError e) {
                    gate.crash(key, e);
                }
            }
        });
        List<Pair> sorted = new ArrayList<>(pairs);
        sorted.sort(Comparator.comparing(Pair::kernel).thenComparing(Pair::arch));
        return new Result(gate, sorted);
    }

    private static Run run(KernelCase k, String arch, byte[] cubin, Path dir, List<String> problems, String whose)
            throws Exception {
        Path d = Files.createDirectories(dir).resolve(k.name() + "-" + arch);
        Files.createDirectories(d);
        Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(k.materialize(d)));
        SassEmulator.TimedResult timed = SassEmulator.fromCubin(TestTargets.of(arch), cubin)
                .executeTimed(launch, ExecutionLimits.DEFAULT.withMaxWarpInstructions(20_000_000));
        LaunchResult r = timed.result();
        SassEmulator.Timing t = timed.timing();
        if (r.fault().isPresent()) {
            problems.add(whose + " cubin: " + r.fault().get().describe());
        } else {
            List<String> wrong = k.compare(SuiteRun.outputs(k, launch), 3);
            if (!wrong.isEmpty()) {
                problems.add(whose + " cubin computes the wrong result: " + String.join("; ", wrong));
            }
        }
        t.unavailable().ifPresent(u -> problems.add(whose + " cubin not timed: " + u));
        if (t.partial()) {
            problems.add(whose + " cubin's timing is partial");
        }
        // the launched entry's registers (a corpus module holds other kernels too)
        int registers = 0;
        for (FunctionFacts f : CubinFacts.functions(Cubin.read(cubin))) {
            if (f.entry() && f.name().equals(k.entry())) {
                registers = Math.max(registers, f.registers());
            }
        }
        return new Run(r.warpInstructions(), t.totalCycles(), t.maxCycles(), registers);
    }


    /** The report: geometric means per SM and overall, then the ten pairs where our code is slowest. */
    static String text(Result r) {
        return text(r, "kernel suite");
    }

    /** The report of the kernels {@code what} names ("kernel suite", "corpus kernels with launch specs"). */
    static String text(Result r, String what) {
        StringBuilder sb = new StringBuilder();
        sb.append("Emulated cycles, jptxas / ptxas 13 -O3 (").append(what).append(", same launch; geometric means)\n");
        sb.append(String.format("%-8s %6s %8s %10s %10s %10s%n", "SM", "pairs", "cycles", "slowest", "warp-instr",
                "registers"));
        Map<String, List<Pair>> bySm = new java.util.TreeMap<>();
        for (Pair p : r.pairs()) {
            bySm.computeIfAbsent(p.arch(), a -> new ArrayList<>()).add(p);
        }
        bySm.forEach((sm, ps) -> sb.append(row(sm, new Result(r.gate(), ps))));
        sb.append(row("all", r));
        sb.append("Slowest ten (cycles ratio, ours/ptxas: summed cycles, warp instructions, registers):\n");
        r.pairs().stream().sorted(Comparator.comparingDouble(Pair::cycles).reversed()).limit(10).forEach(p ->
                sb.append(String.format("  %.2fx %-34s %-6s %d/%d cycles, %d/%d warp instructions, %d/%d registers%n",
                        p.cycles(), p.kernel(), p.arch(), p.ours().totalCycles(), p.ptxas().totalCycles(),
                        p.ours().warpInstructions(), p.ptxas().warpInstructions(), p.ours().registers(),
                        p.ptxas().registers())));
        return sb.toString();
    }

    /** The pairs of {@code r} whose kernel {@code kernels} names (same gate). */
    static Result only(Result r, java.util.Set<String> kernels) {
        return new Result(r.gate(), r.pairs().stream().filter(p -> kernels.contains(p.kernel())).toList());
    }

    /**
     * A section of the report on the kernels {@code kernels} names ({@code what}: "tensor-core kernels"): each pair's
     * summed cycles, executed warp instructions and registers, ours over ptxas's, then their geometric means.
     */
    static String section(Result r, java.util.Set<String> kernels, String what) {
        Result part = only(r, kernels);
        StringBuilder sb = new StringBuilder(what).append(", jptxas / ptxas 13 -O3 (cycles, warp instructions, registers):\n");
        if (part.pairs().isEmpty()) {
            return sb.append("  none measured\n").toString();
        }
        for (Pair p : part.pairs()) {
            sb.append(String.format("  %-34s %-6s %5.2fx %5.2fx %5.2fx  %d/%d cycles, %d/%d warp instructions, %d/%d registers%n",
                    p.kernel(), p.arch(), p.cycles(), p.instructions(), p.registers(), p.ours().totalCycles(),
                    p.ptxas().totalCycles(), p.ours().warpInstructions(), p.ptxas().warpInstructions(),
                    p.ours().registers(), p.ptxas().registers()));
        }
        return sb.append(row("  mean", part)).toString();
    }

    private static String row(String label, Result r) {
        return String.format("%-8s %6d %8.2f %10.2f %10.2f %10.2f%n", label, r.pairs().size(), r.geomean(Pair::cycles),
                r.geomean(Pair::slowestWarp), r.geomean(Pair::instructions), r.geomean(Pair::registers));
    }
}
