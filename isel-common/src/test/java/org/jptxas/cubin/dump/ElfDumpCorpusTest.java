package org.jptxas.cubin.dump;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.jptxas.cubin.CorpusCubin;
import org.jptxas.cubin.Cubin;
import org.jptxas.isel.gates.GateRuns;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.OracleToolRuns;
import org.jptxas.testing.Processes;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link ElfDump} against CUDA 12.5 {@code cuobjdump -elf} on every ptxas 13 corpus cubin (7 targets, executable and
 * {@code -c}), block by block as in {@link ElfDumpOracleTest}: every block of every dump must be equal. A cuobjdump
 * failure on a cubin is an oracle failure, a throw of ours a crash.
 */
@Tag("slow")
class ElfDumpCorpusTest {
    @Test
    void blocksEqualCuobjdumpOnTheCorpus() {
        Path cuobjdump = Oracles.assumeCuobjdump();
        Gate gate = compare(CorpusCubin.all(), CorpusCubin::compile,
                p -> OracleToolRuns.run(cuobjdump, List.of("-elf"), p, p.getParent(), true),
                bytes -> ElfDump.print(Cubin.read(bytes)));
        System.out.println(gate.summary());
        gate.verify(CorpusCubin.COMPILED);
        Figures.check("cubin.elfdump.equal", gate.compared() - gate.differences().size());
    }

    /**
     * The gate: each cubin's dump by {@code dumper} against {@code cuobjdump}'s output for the cubin's file, block by
     * block. Cubins ptxas refuses to write are not compared; any other failure to get either side is counted.
     */
    static Gate compare(List<CorpusCubin> jobs, Function<CorpusCubin, OracleCubins.Compiled> compile,
                        Function<Path, Processes.Result> cuobjdump, Function<byte[], String> dumper) {
        Gate gate = Gate.named("-elf dump vs cuobjdump 12.5");
        AtomicInteger refused = new AtomicInteger();
        GateRuns.each(jobs, CorpusCubin::describe, gate, job -> {
            byte[] bytes = job.bytes(compile, gate);
            if (bytes == null) {
                refused.incrementAndGet();
                return;
            }
            Processes.Result r;
            try {
                r = cuobjdump.apply(compile.apply(job).cubin().orElseThrow());
            } catch (RuntimeException | AssertionError e) {
                gate.oracleFailed(job.describe(), "cuobjdump: " + e);
                return;
            }
            if (r.exitCode() != 0) {
                gate.oracleFailed(job.describe(), "cuobjdump exit " + r.exitCode() + ": " + r.stderr());
                return;
            }
            Map<String, String> expected = ElfDumpOracleTest.blocks(r.stdout());
            Map<String, String> actual = ElfDumpOracleTest.blocks(dumper.apply(bytes));
            for (String key : expected.keySet()) {
                if (!expected.get(key).equals(actual.get(key))) {
                    gate.differ(job.describe(), "block " + key + "\n" + firstDifference(expected.get(key), actual.get(key)));
                    return;
                }
            }
            if (!expected.keySet().equals(actual.keySet())) {
                gate.differ(job.describe(), "blocks " + expected.keySet() + " vs " + actual.keySet());
                return;
            }
            gate.pass();
        });
        System.out.println(refused.get() + " combinations ptxas refuses to compile");
        return gate;
    }

    private static String firstDifference(String expected, String actual) {
        if (actual == null) {
            return "  (block missing)";
        }
        String[] e = expected.split("\n");
        String[] a = actual.split("\n");
        for (int i = 0; i < Math.max(e.length, a.length); i++) {
            String x = i < e.length ? e[i] : "(end)";
            String y = i < a.length ? a[i] : "(end)";
            if (!x.equals(y)) {
                return "  line " + i + "\n  cuobjdump: " + abbreviate(x) + "\n  jptxas:    " + abbreviate(y);
            }
        }
        return "  (equal?)";
    }

    private static String abbreviate(String s) {
        return s.length() > 600 ? s.substring(0, 600) + "..." : s;
    }
}
