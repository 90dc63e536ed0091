package org.jptxas.backend.sm50;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompiledModule;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A subset of the kernel suite on Volta, three ways: each kernel's PTX (retargeted to {@code .target sm_70}: the
 * suite's kernels name sm_75) compiled by jptxas and by ptxas 12.5 for sm_70, both cubins run in the SASS emulator
 * and compared with the kernel's reference. The suite's own pairs start at sm_75 ({@link KernelCase#supports}), so
 * this test picks kernels that use nothing Turing added. Each outcome is pinned: a change either way fails.
 */
class VoltaSuiteTest {
    /** Kernel to the outcome kinds of (jptxas's cubin, ptxas 12.5's cubin) in the emulator. */
    private static final Map<String, String> EXPECTED = new LinkedHashMap<>();

    static {
        for (String k : List.of("saxpy", "vec_add_i32", "byte_perm", "bit_count", "reduce_sum_f32", "atomic_mix",
                "scan_warp_shfl", "f64_horner", "call_recursive", "histogram_shared", "int_div_rem_32",
                "transcendental_f32", "warp_vote", "collatz")) {
            EXPECTED.put(k, "CORRECT CORRECT");
        }
    }

    @Test
    void subsetComputesItsReferencesCompiledByBothCompilers(@TempDir Path dir) throws Exception {
        Path ptxas = Oracles.assumePtxas125();
        SuiteRun run = new SuiteRun();
        Map<String, String> got = new LinkedHashMap<>();
        StringBuilder details = new StringBuilder();
        for (String name : EXPECTED.keySet()) {
            KernelCase k = KernelSuite.byName(name).orElseThrow();
            Path work = Files.createDirectories(dir.resolve(name));
            Path ptx = work.resolve(name + ".ptx");
            Files.writeString(ptx, retargeted(k.ptx()), StandardCharsets.ISO_8859_1);

            SuiteRun.Outcome ours;
            try {
                ours = run.execute(k, "sm_70", run.compile(ptx, "sm_70", CompileOptions.defaults()),
                        work.resolve("jptxas"));
            } catch (CompilationException e) {
                ours = new SuiteRun.Outcome(name, "sm_70", SuiteRun.Kind.COMPILE_ERROR, e.getMessage(), null, null);
            }
            Processes.Result r = Processes.run(List.of(ptxas.toString(), "-arch=sm_70", ptx.toString(), "-o",
                    "p.cubin"), work);
            SuiteRun.Outcome oracle = r.exitCode() != 0
                    ? new SuiteRun.Outcome(name, "sm_70", SuiteRun.Kind.COMPILE_ERROR, r.stderr().strip(), null, null)
                    : run.execute(k, "sm_70", new CompiledModule(Files.readAllBytes(work.resolve("p.cubin")),
                            List.of()), work.resolve("ptxas"));
            got.put(name, ours.kind() + " " + oracle.kind());
            details.append(name).append(": jptxas ").append(ours.kind()).append(' ').append(ours.detail())
                    .append(" | ptxas ").append(oracle.kind()).append(' ').append(oracle.detail()).append('\n');
        }
        assertEquals(EXPECTED, got, details.toString());
    }

    /**
     * The kernel's PTX with its {@code .target} lowered to sm_70, and its {@code .version} to 8.5 where it is higher
     * (the newest ptxas 12.5 reads; these kernels use nothing later).
     */
    static String retargeted(Path ptx) throws IOException {
        return Files.readString(ptx, StandardCharsets.ISO_8859_1)
                .replaceFirst("(?m)^(\\s*\\.target\\s+)sm_\\d+[a-z]?", "$1sm_70")
                .replaceFirst("(?m)^(\\s*\\.version\\s+)(8\\.[6-9]|9\\.\\d)\\b", "$18.5");
    }
}
