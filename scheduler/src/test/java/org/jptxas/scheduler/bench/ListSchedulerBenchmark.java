package org.jptxas.scheduler.bench;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jptxas.scheduler.TestInstrs;
import org.jptxas.scheduler.latency.LatencyModel;
import org.jptxas.scheduler.list.ListScheduler;
import org.jptxas.scheduler.list.Schedule;
import org.jptxas.scheduler.list.SchedOptions;
import org.jptxas.scheduler.model.SimpleInstr;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.jptxas.spi.TestTargets;

/**
 * Issue 8's speed goal: list-scheduling one straight-line block of {@code size} random instructions (ALU, FMA,
 * loads, stores; see {@code TestInstrs.random}) in each mode, DAG construction included; the goal is under a second
 * for 50,000. Run with {@code mvn -B -Pjmh -pl scheduler -am test -DskipTests}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ListSchedulerBenchmark {
    @Param({"5000", "50000"})
    public int size;

    @Param({"ILP", "REDUCE_REG"})
    public String mode;

    List<SimpleInstr> block;
    ListScheduler scheduler;
    SchedOptions options;

    @Setup
    public void build() {
        block = TestInstrs.random(11, size);
        scheduler = new ListScheduler(LatencyModel.of(TestTargets.of("sm_80")));
        options = mode.equals("ILP") ? SchedOptions.ilp() : SchedOptions.reduceReg(64);
    }

    @Benchmark
    public Schedule schedule() {
        return scheduler.schedule(block, options);
    }
}
