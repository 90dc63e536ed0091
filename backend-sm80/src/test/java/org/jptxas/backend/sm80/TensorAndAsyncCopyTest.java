package org.jptxas.backend.sm80;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.ori.target.Target;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.suite.BackendSuiteTest;
import org.jptxas.simulator.suite.SuiteRun;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompiledModule;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.RepoRoot;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tensor-core and asynchronous-copy kernels of the suite (mma.sync → HMMA/IMMA/DMMA, cp.async → LDGSTS/LDGDEPBAR/DEPBAR)
 * on this backend's targets in every build, and the emulator's memory model for cp.async: a kernel that forgets
 * {@code cp.async.wait_group} computes a wrong result in the interpreter, on jptxas's cubin and on ptxas's, instead of
 * passing by luck.
 */
class TensorAndAsyncCopyTest {
    static final List<String> KERNELS = List.of("mma_gemm_f16", "mma_m16n8k8_f16", "mma_f64", "mma_gemm_s8", "wmma_gemm_f16",
            "wmma_gemm_tf32",
            "mma_m8n8k16_s8", "mma_gemm_tf32", "cp_async_pipeline");

    @Test
    void tensorAndAsyncCopyKernelsComputeTheirReferences(@TempDir Path dir) {
        List<KernelCase> kernels = KERNELS.stream().map(n -> KernelSuite.byName(n).orElseThrow()).toList();
        List<SuiteRun.Pair> pairs = SuiteRun.pairs(kernels, List.of("sm_80", "sm_86"));
        assertEquals(2 * KERNELS.size(), pairs.size());
        Gate gate = BackendSuiteTest.gate(new SuiteRun().runPairs(pairs, dir), pairs.size(), Map.of());
        System.out.println(gate.summary());
    }

    /** cp_async_pipeline without its waits: every leg must differ from the reference (poisoned, not yet landed data). */
    @Test
    void forgottenWaitGivesAWrongResult(@TempDir Path dir) throws Exception {
        KernelCase k = KernelSuite.byName("cp_async_pipeline").orElseThrow();
        String text = Files.readString(k.ptx());
        String noWait = text.replaceAll("cp\\.async\\.wait_group[^;]*;", "");
        assertTrue(noWait.length() < text.length(), "the kernel waits");
        Path ptx = dir.resolve("cp_async_no_wait.ptx");
        Files.writeString(ptx, noWait);

        PtxInterpreter interp = PtxInterpreter.load(ptx.getFileName().toString(), noWait);
        Launch launch = Launch.prepare(Target.of("sm_80"), LaunchSpecReader.read(k.materialize(dir.resolve("interp"))));
        LaunchResult r = interp.execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertFalse(k.compare(outputs(k, launch), 3).isEmpty(), "the interpreter passed a kernel without waits");

        SuiteRun run = new SuiteRun();
        CompiledModule ours = run.compile(ptx, "sm_80", CompileOptions.defaults());
        SuiteRun.Outcome o = run.execute(k, "sm_80", ours, dir.resolve("jptxas"));
        assertEquals(SuiteRun.Kind.WRONG, o.kind(), () -> "jptxas's cubin: " + o.kind() + " " + o.detail());

        Oracles.assumePtxas13();
        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, "sm_80");
        assertTrue(c.ok(), c.diagnostics());
        CompiledModule theirs = new CompiledModule(Files.readAllBytes(c.cubin().orElseThrow()), List.of());
        SuiteRun.Outcome p = run.execute(k, "sm_80", theirs, dir.resolve("ptxas"));
        assertEquals(SuiteRun.Kind.WRONG, p.kind(), () -> "ptxas's cubin: " + p.kind() + " " + p.detail());
    }

    /**
     * cp_async_pipeline with an L2 prefetch size on every copy (.L2::128B on the .cg ones, .L2::256B on the .ca ones,
     * as ptxas 13 accepts them on sm_80): a hint only, so jptxas's cubin still computes the reference.
     */
    @Test
    void prefetchSizeIsAHint(@TempDir Path dir) throws Exception {
        KernelCase k = KernelSuite.byName("cp_async_pipeline").orElseThrow();
        String text = Files.readString(k.ptx());
        String hinted = text.replace("cp.async.cg.shared.global [", "cp.async.cg.shared.global.L2::128B [")
                .replace("cp.async.ca.shared.global [", "cp.async.ca.shared.global.L2::256B [");
        assertTrue(hinted.contains("L2::128B") && hinted.contains("L2::256B"), "the kernel copies with .cg and .ca");
        Path ptx = dir.resolve("cp_async_prefetch.ptx");
        Files.writeString(ptx, hinted);
        SuiteRun run = new SuiteRun();
        for (String sm : List.of("sm_80", "sm_86")) {
            CompiledModule ours = run.compile(ptx, sm, CompileOptions.defaults());
            SuiteRun.Outcome o = run.execute(k, sm, ours, dir.resolve("jptxas-" + sm));
            assertEquals(SuiteRun.Kind.CORRECT, o.kind(), () -> sm + ": " + o.kind() + " " + o.detail());
        }
    }

    /**
     * The global memory instructions of sm_80 … sm_89 read the memory descriptor from the uniform pair named in bits
     * nvdisasm does not print (LDG/LD [37:32]; STG/ST/RED/ATOMG/ATOM and LDGSTS [69:64]): every such word of the
     * suite's asynchronous-copy and atomic kernels must name the pair the code loads with
     * {@code ULDC.64 URd, c[0x0][0x118]} (UR4, as ptxas writes it), not whatever pair the learned form's samples had.
     */
    @Test
    void asyncCopiesNameTheLoadedDescriptor(@TempDir Path dir) throws Exception {
        Path returning = dir.resolve("atomics_returning.ptx");
        Files.writeString(returning, ATOMICS_RETURNING);
        SuiteRun run = new SuiteRun();
        for (String sm : List.of("sm_80", "sm_86")) {
            SassIsa isa = TestTargets.of(sm).isa();
            Map<String, Integer> named = new TreeMap<>();
            for (String kernel : List.of("cp_async_pipeline", "atomic_mix", "reduce_atomic_i32", "atomic_add_f64",
                    "atomic_cas_fmax", "atomics_returning")) {
                Path ptx = kernel.equals("atomics_returning") ? returning : KernelSuite.byName(kernel).orElseThrow().ptx();
                int descriptor = -1;
                for (long[] w : words(run.compile(ptx, sm, CompileOptions.defaults()).cubin())) {
                    // ULDC.64 URd, c[0x0][0x118]: the byte offset is bits [53:38], URd bits [23:16]
                    if ((w[0] & 0xfff) == ULDC && (w[0] >>> 38 & 0xffff) == 0x118 && descriptor < 0) {
                        descriptor = (int) (w[0] >>> 16 & 0xff);
                    }
                    if (!(isa.decode(w[0], w[1]) instanceof SassInstruction.Known k) || (w[1] >>> 37 & 1) != 0) {
                        continue; // bit 101 set: the word prints its pair, desc[URn]
                    }
                    String mnemonic = k.mnemonic().split("\\.")[0];
                    int pair = switch (mnemonic) {
                        case "LDG", "LD" -> (int) (w[0] >>> 32 & 0x3f);
                        case "LDGSTS", "STG", "ST", "RED", "ATOMG", "ATOM" -> (int) (w[1] & 0x3f);
                        default -> -1;
                    };
                    // a compare-and-swap holds its new value's register in [71:64]
                    if (pair >= 0 && k.mnemonic().contains(".E") && !k.mnemonic().contains(".CAS")) {
                        String at = sm + " " + kernel + " " + k.mnemonic() + " " + Long.toHexString(w[1]) + "_"
                                + Long.toHexString(w[0]);
                        assertEquals(4, pair, at + ": the descriptor pair");
                        named.merge(mnemonic, 1, Integer::sum);
                    }
                }
                assertEquals(4, descriptor, sm + " " + kernel + ": ULDC.64 UR4 loads the descriptor");
            }
            for (String m : List.of("LDGSTS", "LDG", "STG", "ATOMG", "RED")) {
                assertTrue(named.getOrDefault(m, 0) > 0, sm + ": the kernels have " + m + " words: " + named);
            }
        }
    }

    /**
     * cp.async keeps its L2 prefetch size as ptxas does (LDGSTS .LTC64B/.LTC128B/.LTC256B, bits [72:71]), and every
     * LDGSTS shape names the loaded descriptor pair UR4 in [69:64]: cp_async_pipeline with .L2::256B on its six .cg
     * copies, and the probe kernel of every cp.async shape jptxas writes (three in four with a prefetch size).
     */
    @Test
    void asyncCopiesKeepTheirPrefetchSize(@TempDir Path dir) throws Exception {
        Path pipeline = KernelSuite.byName("cp_async_pipeline").orElseThrow().ptx();
        Path hinted = dir.resolve("hinted.ptx");
        Files.writeString(hinted, Files.readString(pipeline)
                .replace("cp.async.cg.shared.global [", "cp.async.cg.shared.global.L2::256B ["));
        Path shapes = RepoRoot.find().orElseThrow().resolve("tools/sass-probe/kernels/cp_async_descriptor_forms.ptx");
        SuiteRun run = new SuiteRun();
        for (String sm : List.of("sm_80", "sm_86")) {
            for (Path ptx : List.of(pipeline, hinted, shapes)) {
                int copies = 0;
                int prefetching = 0;
                for (long[] w : words(run.compile(ptx, sm, CompileOptions.defaults()).cubin())) {
                    if ((w[0] & 0xfff) == LDGSTS) {
                        copies++;
                        String at = sm + " " + ptx.getFileName() + " LDGSTS " + Long.toHexString(w[1]) + "_"
                                + Long.toHexString(w[0]);
                        assertEquals(4, (int) (w[1] & 0x3f), at + ": the descriptor pair");
                        prefetching += (w[1] >>> 7 & 3) != 0 ? 1 : 0;
                    }
                }
                assertTrue(copies >= 12, sm + " " + ptx.getFileName() + ": " + copies + " copies");
                assertEquals(ptx == hinted ? 6 : ptx == shapes ? copies * 3 / 4 : 0, prefetching,
                        sm + " " + ptx.getFileName() + ": copies with an L2 prefetch size");
            }
        }
    }

    private static final int LDGSTS = 0xfae;
    private static final int ULDC = 0xab9;

    /** Global atomics whose results are used (ATOMG rather than RED). */
    private static final String ATOMICS_RETURNING = """
            .version 7.0
            .target sm_80
            .address_size 64
            .visible .entry atomics_returning(.param .u64 p)
            {
                .reg .u64 %rd<3>;
                .reg .u32 %r<4>;
                ld.param.u64 %rd1, [p];
                cvta.to.global.u64 %rd2, %rd1;
                atom.global.exch.b32 %r1, [%rd2], 5;
                atom.global.add.u32 %r2, [%rd2+4], %r1;
                st.global.u32 [%rd2+8], %r2;
                ret;
            }
            """;

    /** The two words of every instruction of the cubin's code sections. */
    private static List<long[]> words(byte[] cubin) {
        List<long[]> out = new ArrayList<>();
        for (Section s : Cubin.read(cubin).textSections()) {
            ByteBuffer b = ByteBuffer.wrap(s.data()).order(ByteOrder.LITTLE_ENDIAN);
            for (int at = 0; at + 16 <= s.data().length; at += 16) {
                out.add(new long[] {b.getLong(at), b.getLong(at + 8)});
            }
        }
        return out;
    }

    private static Map<String, byte[]> outputs(KernelCase k, Launch launch) {
        Map<String, byte[]> actual = new LinkedHashMap<>();
        int i = 0;
        for (KernelCase.Arg a : k.args()) {
            if (a instanceof KernelCase.Buffer b && b.output()) {
                actual.put(b.name(), launch.arguments().get(i).buffer().orElseThrow().bytes());
            }
            i++;
        }
        return actual;
    }
}
