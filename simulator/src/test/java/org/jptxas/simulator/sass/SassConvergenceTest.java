package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;

/**
 * Volta convergence in the emulator, on ptxas 13's code for a kernel whose threads diverge before a full-warp
 * shuffle: strict mode computes the reference (ptxas reconverges with BSSY/BSYNC); with the BSYNCs replaced by NOPs,
 * strict mode reports the shuffle as a fault (the diverged groups never rejoin), while merging by address still
 * computes the reference. The executed-path timing of the launch has cycles and no hazards.
 */
class SassConvergenceTest {
    static final int N = 64;

    static int[] input() {
        int[] in = new int[N];
        for (int i = 0; i < N; i++) {
            in[i] = i * 7 + (i % 5);
        }
        return in;
    }

    /** The CPU reference of diverge_shfl.ptx. */
    static int[] reference(int[] in) {
        int[] v = new int[N];
        for (int t = 0; t < N; t++) {
            int x = in[t];
            if ((x & 1) != 0) {
                int k = 0;
                do {
                    x = x * 3 + 1;
                    k++;
                } while (Integer.compareUnsigned(k, t) < 0);
            } else {
                x >>>= 1;
            }
            v[t] = x;
        }
        int[] out = new int[N];
        for (int t = 0; t < N; t++) {
            out[t] = v[t ^ 1] + v[t];
        }
        return out;
    }

    static Launch launch(Path dir, String sm) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(4 * N).order(ByteOrder.LITTLE_ENDIAN);
        for (int x : input()) {
            b.putInt(x);
        }
        Files.write(dir.resolve("in.bin"), b.array());
        Files.writeString(dir.resolve("launch.json"), "{\"entry\":\"diverge_shfl\",\"grid\":[1,1,1],\"block\":[" + N
                + ",1,1],\"dynamic_shared_bytes\":0,\"params\":[{\"type\":\"ptr\",\"bytes\":" + 4 * N
                + "},{\"type\":\"ptr\",\"bytes\":" + 4 * N + ",\"in\":\"in.bin\"}]}");
        return Launch.prepare(Target.of(sm), LaunchSpecReader.read(dir.resolve("launch.json")));
    }

    static int[] output(Launch l) {
        ByteBuffer b = ByteBuffer.wrap(l.arguments().get(0).buffer().orElseThrow().bytes()).order(ByteOrder.LITTLE_ENDIAN);
        int[] out = new int[N];
        for (int i = 0; i < N; i++) {
            out[i] = b.getInt();
        }
        return out;
    }

    static byte[] ptxasCubin(Path dir, String sm) throws Exception {
        Oracles.assumePtxas13();
        Path ptx = dir.resolve("diverge_shfl.ptx");
        try (InputStream in = SassConvergenceTest.class.getResourceAsStream("diverge_shfl.ptx")) {
            Files.write(ptx, in.readAllBytes());
        }
        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, sm);
        assertTrue(c.ok(), c.diagnostics());
        return Files.readAllBytes(c.cubin().orElseThrow());
    }

    /** The cubin with every BSYNC of the kernel replaced by the function's own trailing NOP. */
    static byte[] withoutBsync(String sm, byte[] cubin) {
        Section text = Cubin.read(cubin).textSections().get(0);
        byte[] code = text.data();
        List<SassOp> ops = SassListing.decode(TestTargets.of(sm).isa(), cubin).functions().get("diverge_shfl");
        int nop = -1;
        for (SassOp o : ops) {
            if (o.opcode().equals("NOP")) {
                nop = (int) o.address();
            }
        }
        assertTrue(nop >= 0, "no NOP to copy");
        byte[] patched = code.clone();
        int replaced = 0;
        for (SassOp o : ops) {
            if (o.opcode().equals("BSYNC")) {
                System.arraycopy(code, nop, patched, (int) o.address(), 16);
                replaced++;
            }
        }
        assertTrue(replaced > 0, "ptxas's code has no BSYNC: " + ops);
        byte[] out = cubin.clone();
        int at = indexOf(cubin, code);
        System.arraycopy(patched, 0, out, at, patched.length);
        return out;
    }

    static int indexOf(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("section bytes not found");
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void strictModeComputesTheReferenceOnPtxasCode(String sm, @TempDir Path dir) throws Exception {
        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of(sm), ptxasCubin(dir, sm)).withStrictConvergence(true);
        Launch l = launch(dir, sm);
        SassEmulator.TimedResult r = emu.executeTimed(l, ExecutionLimits.DEFAULT);
        assertTrue(r.result().completed(), () -> r.result().fault().get().describe());
        assertArrayEquals(reference(input()), output(l));
        assertTrue(r.timing().unavailable().isEmpty(), r.timing().toString());
        assertEquals(List.of(), r.timing().hazards());
        assertEquals(2, r.timing().warps());
        assertTrue(r.timing().minCycles() > 0 && r.timing().maxCycles() >= r.timing().minCycles(), r.timing().summary());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90"})
    void withoutBsyncStrictModeFaultsAtTheShuffle(String sm, @TempDir Path dir) throws Exception {
        byte[] broken = withoutBsync(sm, ptxasCubin(dir, sm));
        LaunchResult strict = SassEmulator.fromCubin(TestTargets.of(sm), broken).withStrictConvergence(true)
                .execute(launch(dir, sm), ExecutionLimits.DEFAULT);
        Fault f = strict.fault().orElseThrow(() -> new AssertionError("strict mode merged diverged threads"));
        Fault.InvalidExecution e = assertInstanceOf(Fault.InvalidExecution.class, f, f.describe());
        assertTrue(e.message().contains("not converged") && e.instruction().contains("SHFL"), f.describe());

        Launch l = launch(dir, sm);
        LaunchResult lax = SassEmulator.fromCubin(TestTargets.of(sm), broken).withStrictConvergence(false).execute(l, ExecutionLimits.DEFAULT);
        assertTrue(lax.completed(), () -> lax.fault().get().describe());
        assertArrayEquals(reference(input()), output(l));
    }
}
