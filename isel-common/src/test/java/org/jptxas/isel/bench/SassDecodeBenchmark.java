package org.jptxas.isel.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.TimeUnit;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;
import org.jptxas.spi.TestTargets;

/**
 * Decoding throughput on one core, in instructions per second, over the committed fixture of real ptxas words (the
 * same words the fixture test checks against nvdisasm). Issue 4 asks for at least 5 million per second. Run with
 * {@code mvn -B -Pjmh -pl isel-common -am test -DskipTests}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class SassDecodeBenchmark {
    /** Words per invocation: the fixture repeated, so one invocation is long enough to time. */
    static final int WORDS = 16_384;

    @Param({"sm_80", "sm_90"})
    public String sm;

    SassIsa isa;
    long[] lo = new long[WORDS];
    long[] hi = new long[WORDS];

    @Setup(Level.Trial)
    public void load() throws IOException {
        isa = TestTargets.of(sm).isa();
        String name = "/org/jptxas/sass/fixture/" + sm.replace("_", "") + ".bin";
        byte[] code;
        try (InputStream in = SassDecodeBenchmark.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing fixture " + name);
            }
            code = in.readAllBytes();
        }
        int n = code.length / 16;
        for (int i = 0; i < WORDS; i++) {
            int p = (i % n) * 16;
            lo[i] = SassIsa.le64(code, p);
            hi[i] = SassIsa.le64(code, p + 8);
        }
    }

    @Benchmark
    @OperationsPerInvocation(WORDS)
    public void decode(Blackhole bh) {
        for (int i = 0; i < WORDS; i++) {
            SassInstruction ins = isa.decode(lo[i], hi[i]);
            bh.consume(ins);
        }
    }
}
