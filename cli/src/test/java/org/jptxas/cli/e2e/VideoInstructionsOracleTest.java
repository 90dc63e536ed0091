package org.jptxas.cli.e2e;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.VideoSemantics;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.Elem;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.spi.TestTargets;

/**
 * The video instructions (scalar vadd/vsub/vabsdiff/vmin/vmax/vshl/vshr/vset with and without .sat and each secondary
 * .add/.min/.max, vmad of every type, .po, .sat and .shr7/.shr15 combination, SIMD vadd2/4 ... vset2/4 with .sat and .add) end to end: one kernel computes every variant for 512
 * operand triples (edge values and random bits); ptxas 13's cubin and ours run in the SASS emulator, and both must
 * equal the model: for the scalar ones the interpreter's {@link VideoSemantics} (ptxas's expansion, which departs
 * from the ISA's pseudocode in the widths and clamps it names), for the SIMD ones the ISA semantics below. So
 * ptxas's output checks the model, and the model checks ours.
 */
class VideoInstructionsOracleTest {
    static final int N = 512;

    /** The variants: PTX text with d, a, b, c standing for the registers. */
    static final List<String> SCALAR = scalarVariants();
    static final List<String> SIMD = simdVariants();

    static List<String> scalarVariants() {
        List<String> v = new ArrayList<>();
        String[] types = {"u32", "s32"};
        for (String op : new String[] {"vadd", "vsub", "vabsdiff", "vmin", "vmax"}) {
            for (String dt : types) {
                for (String at : types) {
                    for (String bt : types) {
                        String t = op + "." + dt + "." + at + "." + bt;
                        v.add(t + " d, a, b;");
                        v.add(t + ".sat d, a, b;");
                        v.add(t + ".add d, a, b, c;");
                        v.add(t + ".sat.min d, a, b, c;");
                        v.add(t + ".max d, a, b, c;");
                        v.add(t + ".min d, a, b, c;");
                        v.add(t + ".sat.max d, a, b, c;");
                        v.add(t + ".sat.add d, a, b, c;");
                    }
                }
            }
        }
        for (String op : new String[] {"vshl", "vshr"}) {
            for (String dt : types) {
                for (String at : types) {
                    for (String mode : new String[] {"clamp", "wrap"}) {
                        String t = op + "." + dt + "." + at + ".u32." + mode;
                        v.add(t + " d, a, b;");
                        v.add(t + ".sat d, a, b;");
                        v.add(t + ".add d, a, b, c;");
                        v.add(t + ".min d, a, b, c;");
                        v.add(t + ".max d, a, b, c;");
                        v.add(t + ".sat.max d, a, b, c;");
                    }
                }
            }
        }
        for (String dt : types) {
            for (String at : types) {
                for (String bt : types) {
                    for (String po : new String[] {"", ".po"}) {
                        for (String sat : new String[] {"", ".sat"}) {
                            for (String shr : new String[] {"", ".shr7", ".shr15"}) {
                                v.add("vmad." + dt + "." + at + "." + bt + po + sat + shr + " d, a, b, c;");
                            }
                            if (po.isEmpty()) {
                                String t = "vmad." + dt + "." + at + "." + bt + sat;
                                v.add(t + " d, -a, b, c;");
                                v.add(t + ".shr7 d, a, -b, c;");
                                v.add(t + " d, a, b, -c;");
                                v.add(t + ".shr15 d, a, b, -c;");
                            }
                        }
                    }
                }
            }
        }
        for (String at : types) {
            for (String bt : types) {
                for (String cmp : new String[] {"eq", "ne", "lt", "le", "gt", "ge"}) {
                    v.add("vset." + at + "." + bt + "." + cmp + " d, a, b;");
                }
                v.add("vset." + at + "." + bt + ".lt.add d, a, b, c;");
                v.add("vset." + at + "." + bt + ".ge.max d, a, b, c;");
                v.add("vset." + at + "." + bt + ".ne.min d, a, b, c;");
                v.add("vset." + at + "." + bt + ".eq.min d, a, b, c;");
                v.add("vset." + at + "." + bt + ".gt.max d, a, b, c;");
            }
        }
        return List.copyOf(v);
    }

    static List<String> simdVariants() {
        List<String> v = new ArrayList<>();
        String[] types = {"u32", "s32"};
        for (String w : new String[] {"2", "4"}) {
            for (String op : new String[] {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"}) {
                for (String dt : types) {
                    for (String at : types) {
                        String t = op + w + "." + dt + "." + at + "." + at;
                        v.add(t + " d, a, b, c;");
                        v.add(t + ".sat d, a, b, c;");
                        v.add(t + ".add d, a, b, c;");
                    }
                }
            }
            for (String at : types) {
                for (String cmp : new String[] {"eq", "lt", "ge", "gt"}) {
                    v.add("vset" + w + "." + at + "." + at + "." + cmp + " d, a, b, c;");
                }
                v.add("vset" + w + "." + at + ".u32.le.add d, a, b, c;");
            }
        }
        return List.copyOf(v);
    }

    // ---------------------------------------------------------------- the model

    static boolean signed(String t) {
        return t.equals("s32");
    }

    static long clamp(long v, long lo, long hi) {
        return Math.max(lo, Math.min(hi, v));
    }

    /** The value of one variant for operands a, b, c. */
    static int model(String variant, int a, int b, int c) {
        String[] parts = variant.substring(0, variant.indexOf(' ')).split("\\.");
        String op = parts[0];
        List<String> mods = List.of(parts).subList(1, parts.length);
        if (op.endsWith("2") || op.endsWith("4")) {
            return simd(op.substring(0, op.length() - 1), op.endsWith("2") ? 2 : 4, mods, a, b, c);
        }
        if (op.equals("vmad")) {
            return VideoSemantics.vmad(new VideoSemantics.VmadForm(signed(mods.get(1)), signed(mods.get(2)),
                    mods.contains("po"), mods.contains("sat"),
                    mods.contains("shr7") ? 7 : mods.contains("shr15") ? 15 : 0,
                    variant.contains("-a") || variant.contains("-b"), variant.contains("-c")), a, b, c);
        }
        boolean vset = op.equals("vset");
        VideoSemantics.Secondary second = mods.contains("add") ? VideoSemantics.Secondary.ADD
                : mods.contains("min") ? VideoSemantics.Secondary.MIN
                : mods.contains("max") ? VideoSemantics.Secondary.MAX : VideoSemantics.Secondary.NONE;
        VideoSemantics.Form form = new VideoSemantics.Form(VideoSemantics.Op.of(op), !vset && signed(mods.get(0)),
                signed(mods.get(vset ? 0 : 1)), signed(mods.get(vset ? 1 : 2)), mods.contains("sat") && !vset,
                mods.contains("wrap"), vset ? mods.get(2) : null, second);
        return VideoSemantics.scalar(form, a, b, c);
    }

    static int simd(String op, int lanes, List<String> mods, int a, int b, int c) {
        boolean vset = op.equals("vset");
        boolean dS = !vset && signed(mods.get(0));
        boolean aS = signed(mods.get(vset ? 0 : 1));
        boolean bS = signed(mods.get(vset ? 1 : 2));
        int bits = 32 / lanes;
        int mask = (1 << bits) - 1;
        int sum = c;
        int packed = 0;
        for (int i = 0; i < lanes; i++) {
            int va = lane(a, i, bits, aS), vb = lane(b, i, bits, bS);
            int t = switch (op) {
                case "vadd" -> va + vb;
                case "vsub" -> va - vb;
                case "vavrg" -> va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
                case "vabsdiff" -> Math.abs(va - vb);
                case "vmin" -> Math.min(va, vb);
                case "vmax" -> Math.max(va, vb);
                default -> {
                    boolean r = switch (mods.get(2)) {
                        case "eq" -> va == vb;
                        case "ne" -> va != vb;
                        case "lt" -> va < vb;
                        case "le" -> va <= vb;
                        case "gt" -> va > vb;
                        default -> va >= vb;
                    };
                    yield r ? 1 : 0;
                }
            };
            if (mods.contains("sat") && !vset) {
                t = (int) (dS ? clamp(t, -(1 << (bits - 1)), (1 << (bits - 1)) - 1) : clamp(t, 0, mask));
            }
            sum += t;
            packed |= (t & mask) << (bits * i);
        }
        return mods.contains("add") ? sum : packed;
    }

    static int lane(int x, int i, int bits, boolean signed) {
        int v = x >>> (bits * i);
        return signed ? (v << (32 - bits)) >> (32 - bits) : v & ((1 << bits) - 1);
    }

    // ---------------------------------------------------------------- the kernel

    static String ptx(List<String> variants) {
        StringBuilder sb = new StringBuilder();
        sb.append(".version 7.0\n.target sm_75\n.address_size 64\n\n");
        sb.append(".visible .entry video_ops(.param .u64 in_a, .param .u64 in_b, .param .u64 in_c, .param .u64 out)\n");
        sb.append("{\n  .reg .u32 a, b, c, d, i;\n  .reg .u64 pa, pb, pc, po, off;\n");
        sb.append("  mov.u32 i, %tid.x;\n  mov.u32 d, %ctaid.x;\n  mov.u32 c, %ntid.x;\n  mad.lo.u32 i, d, c, i;\n");
        sb.append("  mul.wide.u32 off, i, 4;\n");
        sb.append("  ld.param.u64 pa, [in_a];\n  add.u64 pa, pa, off;\n  ld.global.u32 a, [pa];\n");
        sb.append("  ld.param.u64 pb, [in_b];\n  add.u64 pb, pb, off;\n  ld.global.u32 b, [pb];\n");
        sb.append("  ld.param.u64 pc, [in_c];\n  add.u64 pc, pc, off;\n  ld.global.u32 c, [pc];\n");
        sb.append("  mul.wide.u32 off, i, ").append(4 * variants.size()).append(";\n");
        sb.append("  ld.param.u64 po, [out];\n  add.u64 po, po, off;\n");
        for (int k = 0; k < variants.size(); k++) {
            sb.append("  ").append(variants.get(k)).append('\n');
            sb.append("  st.global.u32 [po+").append(4 * k).append("], d;\n");
        }
        sb.append("  ret;\n}\n");
        return sb.toString();
    }

    static int[] operands(Random rnd, int which) {
        int[] edges = {0, 1, -1, 2, 31, 32, 33, 0x7fffffff, 0x80000000, 0xffff, 0x8000, 0x7fff, 0xff, 0x80, 0x7f,
            0x10000, 0x7f7f7f7f, 0x80808080, 0xffff0000, 0x0000ffff, 64, -32, 0x7fff8000, 0x12345678};
        int[] v = new int[N];
        for (int i = 0; i < N; i++) {
            int e = which == 0 ? i % edges.length : (i / edges.length + which * 7) % edges.length;
            v[i] = i < edges.length * edges.length && rnd.nextInt(3) > 0 ? edges[e] : rnd.nextInt();
        }
        return v;
    }

    static KernelCase kernelCase(List<String> variants) {
        Random rnd = new Random(42);
        int[] a = operands(rnd, 0), b = operands(rnd, 1), c = operands(rnd, 2);
        int k = variants.size();
        return KernelSuite.kernel("video_ops").describe("video instructions").grid(N / 128).block(128)
                .in("in_a", a).in("in_b", b).in("in_c", c).out("out", Elem.I32, N * k)
                .reference(io -> {
                    int[] out = io.i32("out");
                    for (int i = 0; i < N; i++) {
                        for (int j = 0; j < k; j++) {
                            out[i * k + j] = model(variants.get(j), a[i], b[i], c[i]);
                        }
                    }
                });
    }

    /** Runs a cubin on the kernel's inputs; the mismatches against the model, by variant. */
    static List<String> run(KernelCase k, List<String> variants, String arch, byte[] cubin, Path dir) throws Exception {
        Launch launch = Launch.prepare(Target.of(arch), LaunchSpecReader.read(k.materialize(dir)));
        LaunchResult r = SassEmulator.fromCubin(TestTargets.of(arch), cubin).execute(launch,
                ExecutionLimits.DEFAULT.withMaxWarpInstructions(50_000_000));
        if (r.fault().isPresent()) {
            return List.of("fault: " + r.fault().get().describe());
        }
        int[] got = new int[N * variants.size()];
        java.nio.ByteBuffer.wrap(launch.arguments().get(3).buffer().orElseThrow().bytes())
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(got);
        int[] want = new int[got.length];
        java.nio.ByteBuffer.wrap(k.expectedOutputs().get("out")).order(java.nio.ByteOrder.LITTLE_ENDIAN).asIntBuffer()
                .get(want);
        Map<String, String> bad = new LinkedHashMap<>();
        for (int i = 0; i < got.length; i++) {
            if (got[i] != want[i]) {
                String v = variants.get(i % variants.size());
                int t = i / variants.size();
                bad.putIfAbsent(v, String.format("%s  a=%08x b=%08x c=%08x: got %08x want %08x", v,
                        k.initialBuffers().isEmpty() ? 0 : word(k, "in_a", t), word(k, "in_b", t), word(k, "in_c", t),
                        got[i], want[i]));
            }
        }
        return new ArrayList<>(bad.values());
    }

    static int word(KernelCase k, String buffer, int i) {
        return java.nio.ByteBuffer.wrap(k.initialBuffers().get(buffer)).order(java.nio.ByteOrder.LITTLE_ENDIAN)
                .getInt(4 * i);
    }

    /**
     * ptxas's cubins that the emulator cannot run, with why (exact: one that runs fails as stale, and then checks the
     * model). None now: the emulator runs ptxas's SIMD expansions (VABSDIFF4, PRMT, IADD3, IMNMX/VIMNMX) on every SM.
     */
    static final Map<String, String> KNOWN_SIMD = Map.of();

    /** The compiler under test: jptxas's cubin of a PTX file for an SM. */
    @FunctionalInterface
    interface Compile {
        byte[] compile(Path ptx, String arch) throws Exception;
    }

    static final Compile JPTXAS = (ptx, arch) -> OracleAcceptanceTest.JPTXAS.compile(ptx, arch, false, false).cubin();

    /**
     * The gate: for each SM, ptxas 13's cubin and {@code compile}'s run in the emulator and must both equal the model
     * on every variant; items "ptxas sm_XX" (without {@code ptxasLeg}, none) and "jptxas sm_XX".
     */
    static Gate gate(List<String> variants, List<String> arches, boolean ptxasLeg, Compile compile,
                     Map<String, String> known, Path dir) throws java.io.IOException {
        KernelCase k = kernelCase(variants);
        Path ptx = Files.createDirectories(dir).resolve("video_ops.ptx");
        Files.writeString(ptx, ptx(variants), StandardCharsets.UTF_8);
        Gate gate = Gate.withKnown("video instructions against the model", known);
        for (String arch : arches) {
            if (ptxasLeg) {
                OracleCubins.Compiled theirs = OracleCubins.ptxas13(ptx, arch);
                if (!theirs.ok()) {
                    gate.oracleFailed("ptxas " + arch, theirs.diagnostics());
                } else {
                    judge(gate, "ptxas " + arch, () -> run(k, variants, arch, Files.readAllBytes(theirs.cubin().get()),
                            dir.resolve("ptxas-" + arch)));
                }
            }
            judge(gate, "jptxas " + arch, () -> run(k, variants, arch, compile.compile(ptx, arch),
                    dir.resolve("jptxas-" + arch)));
        }
        return gate;
    }

    private static void judge(Gate gate, String key, java.util.concurrent.Callable<List<String>> leg) {
        try {
            List<String> problems = leg.call();
            if (problems.isEmpty()) {
                gate.pass();
            } else {
                problems.stream().limit(20).forEach(p -> System.out.println(key + ": " + p));
                gate.differ(key, problems.size() + " variants differ, first: " + problems.get(0));
            }
        } catch (Exception | StackOverflowError e) {
            gate.crash(key, e);
        }
    }

    @Test
    @Tag("slow") // 30-60 s: 512 threads through some 400 variants, twice per SM
    void ptxasAndJptxasAgreeWithTheModel(@TempDir Path dir) throws Exception {
        Oracles.assumePtxas13();
        List<String> arches = List.of("sm_75", "sm_80", "sm_90");
        Gate scalar = gate(SCALAR, arches, true, JPTXAS, Map.of(), dir.resolve("scalar"));
        Gate simd = gate(SIMD, arches, true, JPTXAS, KNOWN_SIMD, dir.resolve("simd"));
        System.out.println(scalar.summary());
        System.out.println(simd.summary());
        scalar.verify(2 * arches.size());
        simd.verify(2 * arches.size());
    }
}
