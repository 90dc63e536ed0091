package org.jptxas.isel.bench;

import java.util.concurrent.TimeUnit;
import org.jptxas.isel.regalloc.Allocation;
import org.jptxas.isel.regalloc.RandomFunctions;
import org.jptxas.isel.regalloc.RegisterAllocator;
import org.jptxas.isel.regalloc.RegisterLimits;
import org.jptxas.ori.ir.OriFunction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.jptxas.spi.TestTargets;

/**
 * Register allocation time of one random structured function (loops, diamonds, tuples, predicates; see
 * {@code RandomFunctions}) of {@code size} instructions, without and with a tight register limit (spilling). Run with
 * {@code mvn -B -Pjmh -pl isel-common -am test -DskipTests -Djmh.args="RegisterAllocation"}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class RegisterAllocationBenchmark {
    @Param({"1000", "10000", "30000"})
    public int size;

    @Param({"255", "32"})
    public int maxRegisters;

    OriFunction function;
    RegisterLimits limits;

    @Setup(Level.Invocation)
    public void build() {
        // Allocation rewrites in place: a fresh copy per invocation (generation is cheap next to allocation).
        function = RandomFunctions.generate(11, size, 2000);
        limits = RegisterLimits.of(TestTargets.profile("sm_80"), java.util.OptionalInt.of(maxRegisters),
                java.util.OptionalInt.empty());
    }

    @Benchmark
    public Allocation allocate() {
        return RegisterAllocator.allocate(function, limits);
    }
}
