package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.scheduler.sass.ControlAgreement;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Prerequisites;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ordinary CUDA kernels as users write them (the {@code .cu} files under {@code org/jptxas/cli/cuda}), made into PTX by
 * nvcc 13 at test time for each SM: jptxas compiles every one, nvdisasm 12.5 reads its cubin, the static hazard
 * checker finds nothing in its control words, and each kernel with a {@link Run launch} below runs three ways (PTX
 * interpreter, SASS emulator on ptxas 13's cubin and on jptxas's) with equal results. Each {@code .cu} is compiled
 * once per SM. Failures are collected per source or kernel and SM and compared with {@link #KNOWN}.
 */
@Tag("slow")
class CudaKernelsTest {
    @TempDir
    Path dir;

    static final List<String> SOURCES = List.of("basics.cu", "more.cu");

    private static final String PTXAS_LEG = "(b) SASS emulator on ptxas's cubin";

    /**
     * Known failures, "what@sm_XX" to a part of the failure's line; the set of names is exact, so a fix or a new failure
     * shows. All are the SASS emulator's decoder on ptxas 13's cubins: atomics_all (SHF.L.W.U32.HI with an immediate
     * third source) and half_axpy (HFMA2 with a constant-bank H0_H0 operand) on every SM, half2_math
     * (HMNMX2 R0, R0, -R5, !PT) from sm_80 on.
     */
    static final Map<String, String> KNOWN = known();

    private static Map<String, String> known() {
        Map<String, String> out = new TreeMap<>();
        for (String sm : List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90")) {
            out.put("atomics_all@" + sm, PTXAS_LEG);
            out.put("half_axpy@" + sm, PTXAS_LEG);
            if (!sm.equals("sm_75")) {
                out.put("half2_math@" + sm, PTXAS_LEG);
            }
        }
        return java.util.Collections.unmodifiableMap(out);
    }

    /** One input or output buffer, or a scalar; {@code gen} fills an input ("zero" for an output-only buffer). */
    record Param(String type, int count, String gen, boolean out, String value) {
        static Param in(String type, int count, String gen) {
            return new Param(type, count, gen, false, null);
        }

        static Param inOut(String type, int count, String gen) {
            return new Param(type, count, gen, true, null);
        }

        static Param out(String type, int count) {
            return new Param(type, count, "zero", true, null);
        }

        static Param scalar(String type, Object value) {
            return new Param(type, 0, null, false, String.valueOf(value));
        }

        boolean pointer() {
            return value == null;
        }
    }

    /** A launch of {@code entry}; {@code tolerance} is jptxas-run's --tolerance, or null for equal bytes. */
    record Run(String source, String entry, int[] grid, int[] block, int dynamicShared, String tolerance,
            List<Param> params) {}

    private static int[] g(int... d) {
        return new int[] {d[0], d.length > 1 ? d[1] : 1, 1};
    }

    private static final String F32 = "f32:1e-6:1e-5";
    private static final String F64 = "f64:1e-12:1e-12";

    static final List<Run> RUNS = List.of(
            new Run("basics.cu", "reduce_sum", g(1), g(256), 0, F32, List.of(Param.in("f32", 256, "-2:2"),
                    Param.inOut("f32", 1, "zero"), Param.scalar("s32", 256))),
            new Run("basics.cu", "warp_reduce", g(2), g(64), 0, F32, List.of(Param.in("f32", 128, "-2:2"),
                    Param.inOut("f32", 1, "zero"), Param.scalar("s32", 120))),
            new Run("basics.cu", "histogram", g(2), g(128), 0, null, List.of(Param.in("u8", 1024, "int"),
                    Param.out("u32", 256), Param.scalar("s32", 1000))),
            new Run("basics.cu", "transpose", g(2, 2), g(32, 8), 0, null, List.of(Param.in("f32", 64 * 48, "-2:2"),
                    Param.out("f32", 64 * 48), Param.scalar("s32", 64), Param.scalar("s32", 48))),
            new Run("basics.cu", "softmax", g(4), g(32), 0, F32, List.of(Param.in("f32", 256, "-4:4"),
                    Param.out("f32", 256), Param.scalar("s32", 64))),
            new Run("basics.cu", "half_axpy", g(2), g(128), 0, null, List.of(Param.in("f16", 256, "-2:2"),
                    Param.inOut("f16", 256, "-2:2"), Param.scalar("f16", 1.5), Param.scalar("s32", 250))),
            new Run("basics.cu", "bf16_to_f32", g(1), g(128), 0, null, List.of(Param.in("u16", 128, "int"),
                    Param.out("f32", 128), Param.scalar("s32", 128))),
            new Run("basics.cu", "dgemm_naive", g(2, 2), g(8, 8), 0, F64, List.of(Param.in("f64", 256, "-2:2"),
                    Param.in("f64", 256, "-2:2"), Param.out("f64", 256), Param.scalar("s32", 16))),
            new Run("basics.cu", "int_math", g(2), g(64), 0, null, List.of(Param.in("s32", 128, "int"),
                    Param.out("s32", 128), Param.scalar("s32", 128))),
            new Run("basics.cu", "float_math", g(2), g(64), 0, F32, List.of(Param.in("f32", 128, "-3:3"),
                    Param.out("f32", 128), Param.scalar("s32", 128))),
            new Run("basics.cu", "double_math", g(2), g(64), 0, F64, List.of(Param.in("f64", 128, "0.1:5"),
                    Param.out("f64", 128), Param.scalar("s32", 128))),
            new Run("basics.cu", "scan_block", g(1), g(256), 0, null, List.of(Param.inOut("s32", 256, "int"))),
            new Run("more.cu", "atomics_all", g(2), g(64), 0, null, List.of(Param.inOut("s32", 4, "zero"),
                    Param.inOut("u32", 6, "zero"), Param.inOut("u64", 3, "zero"), Param.inOut("f32", 1, "zero"),
                    Param.inOut("f64", 1, "zero"), Param.inOut("u32", 1, "zero"), Param.scalar("s32", 100))),
            new Run("more.cu", "cas_loop_fmax", g(2), g(64), 0, null, List.of(Param.in("f32", 128, "-9:9"),
                    Param.inOut("f32", 1, "-20:-10"), Param.scalar("s32", 128))),
            new Run("more.cu", "bit_tricks", g(1), g(64), 0, null, List.of(Param.in("u32", 64, "int"),
                    Param.out("u32", 64 * 8), Param.scalar("s32", 64))),
            new Run("more.cu", "conversions", g(1), g(64), 0, null, List.of(Param.in("f32", 64, "-10:10"),
                    Param.in("f64", 64, "0.1:4"), Param.out("s32", 64 * 16), Param.scalar("s32", 64))),
            new Run("more.cu", "float_more", g(1), g(64), 0, F32, List.of(Param.in("f32", 64, "-3:3"),
                    Param.out("f32", 256), Param.scalar("s32", 64))),
            new Run("more.cu", "double_more", g(1), g(64), 0, F64, List.of(Param.in("f64", 64, "0.1:4"),
                    Param.out("f64", 192), Param.scalar("s32", 64))),
            new Run("more.cu", "div64", g(1), g(64), 0, null, List.of(Param.in("s64", 64, "int"),
                    Param.in("u64", 64, "int"), Param.out("s64", 256), Param.scalar("s32", 64))),
            new Run("more.cu", "half2_math", g(1), g(64), 0, null, List.of(Param.in("f16", 128, "-2:2"),
                    Param.in("f16", 128, "-2:2"), Param.out("f16", 128), Param.scalar("s32", 64))),
            new Run("more.cu", "vote_match", g(1), g(64), 0, null, List.of(Param.in("s32", 64, "-3:3"),
                    Param.out("u32", 256), Param.scalar("s32", 60))),
            new Run("more.cu", "coop_reduce", g(2), g(64), 0, null, List.of(Param.in("s32", 128, "-100:100"),
                    Param.inOut("s32", 2, "zero"), Param.scalar("s32", 120))),
            new Run("more.cu", "dyn_sum_i", g(2), g(128), 512, null, List.of(Param.in("s32", 300, "int"),
                    Param.out("s32", 2), Param.scalar("s32", 300))),
            new Run("more.cu", "dyn_sum_d", g(2), g(64), 512, F64, List.of(Param.in("f64", 200, "-2:2"),
                    Param.out("f64", 2), Param.scalar("s32", 200))),
            new Run("more.cu", "volatile_flag", g(1), g(64), 0, null, List.of(Param.inOut("s32", 1, "zero"),
                    Param.out("s32", 1))),
            new Run("more.cu", "recursion", g(1), g(32), 0, null, List.of(Param.out("s32", 32))),
            new Run("more.cu", "switch_local", g(1), g(64), 0, null, List.of(Param.in("s32", 64, "int"),
                    Param.out("s32", 64), Param.scalar("s32", 64))));

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void kernelsCompileCheckAndRunAlike(String sm) throws IOException {
        Path nvcc = Oracles.nvcc13().orElse(null);
        Prerequisites.require(nvcc != null, "nvcc 13 not installed");
        Path ptxas = Oracles.assumePtxas13();
        Path nvdisasm = Oracles.assumeNvdisasm();
        Map<String, String> failures = new TreeMap<>();
        for (String source : SOURCES) {
            Path cu = dir.resolve(source);
            try (InputStream s = CudaKernelsTest.class.getResourceAsStream("cuda/" + source)) {
                Files.write(cu, s.readAllBytes());
            }
            String stem = source.replace(".cu", "") + "_" + sm;
            Path ptx = dir.resolve(stem + ".ptx");
            Processes.Result made = Processes.run(List.of(nvcc.toString(), "-ptx", "-arch=" + sm, cu.toString(), "-o",
                    ptx.toString()), dir);
            assertEquals(0, made.exitCode(), "nvcc: " + made.stderr());
            String where = source + "@" + sm;
            Path cubin = dir.resolve(stem + ".cubin");
            CliRun r = CliRun.run(dir, "-arch=" + sm, ptx.toString(), "-o", cubin.toString());
            if (r.exitCode() != 0) {
                failures.put(where, firstLine(r.err()));
                continue;
            }
            Processes.Result dis = Processes.run(List.of(nvdisasm.toString(), "-c", cubin.toString()), dir);
            if (dis.exitCode() != 0) {
                failures.put(where, "nvdisasm: " + firstLine(dis.stderr()));
            }
            List<?> hazards = ControlAgreement.checkHazards(Files.readAllBytes(cubin), TestTargets.of(sm));
            if (!hazards.isEmpty()) {
                failures.put(where, "hazards: " + hazards.get(0));
            }
            for (Run run : RUNS) {
                if (run.source().equals(source)) {
                    String failure = runThreeWays(run, ptx, sm, ptxas);
                    if (failure != null) {
                        failures.put(run.entry() + "@" + sm, failure);
                    }
                }
            }
        }
        List<String> stale = new ArrayList<>();
        KNOWN.forEach((k, v) -> {
            if (k.endsWith("@" + sm)) {
                String got = failures.remove(k);
                if (got == null || !got.contains(v)) {
                    stale.add(k + " (now: " + got + ")"); // fixed, or failing differently
                }
            }
        });
        assertEquals(List.of(), stale, "known failures that no longer fail as pinned");
        assertEquals(Map.of(), failures, "failures");
    }

    /** Null when the three legs agree; else the line saying why not. */
    private String runThreeWays(Run run, Path ptx, String sm, Path ptxas) throws IOException {
        Path runDir = Files.createDirectories(dir.resolve(sm + "-" + run.entry()));
        // the differential run compiles its PTX twice: a module of this kernel alone keeps that cheap
        Path one = runDir.resolve(run.entry() + ".ptx");
        Files.writeString(one, onlyEntry(Files.readString(ptx), run.entry()));
        ptx = one;
        Random rnd = new Random(run.entry().hashCode());
        StringBuilder params = new StringBuilder();
        for (int i = 0; i < run.params().size(); i++) {
            Param p = run.params().get(i);
            if (i > 0) {
                params.append(", ");
            }
            if (!p.pointer()) {
                params.append("{\"type\": \"").append(p.type()).append("\", \"value\": ").append(p.value()).append('}');
                continue;
            }
            byte[] bytes = fill(p, rnd);
            Files.write(runDir.resolve("p" + i + ".bin"), bytes);
            params.append("{\"type\": \"ptr\", \"bytes\": ").append(bytes.length).append(", \"in\": \"p").append(i)
                    .append(".bin\"").append(p.out() ? ", \"out\": \"p" + i + ".out\"" : "").append('}');
        }
        Files.writeString(runDir.resolve("launch.json"), "{\"entry\": \"" + run.entry() + "\", \"grid\": "
                + List.of(run.grid()[0], run.grid()[1], run.grid()[2]) + ", \"block\": "
                + List.of(run.block()[0], run.block()[1], run.block()[2]) + ", \"dynamic_shared_bytes\": "
                + run.dynamicShared() + ", \"params\": [" + params + "]}");
        List<String> args = new ArrayList<>(List.of("--arch", sm, ptx.toString(), "--spec",
                runDir.resolve("launch.json").toString(), "--differential", "--ptxas", ptxas.toString()));
        if (run.tolerance() != null) {
            args.addAll(List.of("--tolerance", run.tolerance()));
        }
        JptxasRunCommandTest.Run r = JptxasRunCommandTest.run(runDir, args.toArray(String[]::new));
        if (r.rc() == 0 && r.out().contains("differential: 3 legs agree")) {
            return null;
        }
        for (String line : (r.out() + r.err()).split("\n")) {
            if (!line.startsWith("jptxas-run") && (line.contains("FAULT") || line.contains("differ")
                    || line.contains(PTXAS_LEG))) {
                return line.strip();
            }
        }
        return "rc " + r.rc();
    }

    private static final Pattern ENTRY = Pattern.compile("^(?:\\.visible |\\.weak )?\\.entry (\\w+)");

    /**
     * nvcc's module without its other kernels: each {@code .entry} runs from its header to where its braces close
     * (counted, as inline assembly puts its own braces on lines of their own).
     */
    static String onlyEntry(String ptx, String entry) {
        StringBuilder out = new StringBuilder();
        boolean skipping = false;
        int depth = 0;
        for (String line : ptx.split("\n", -1)) {
            Matcher m = ENTRY.matcher(line);
            if (m.find()) {
                skipping = !m.group(1).equals(entry);
                depth = 0;
            }
            if (!skipping) {
                out.append(line).append('\n');
                continue;
            }
            String code = line.contains("//") ? line.substring(0, line.indexOf("//")) : line;
            boolean opened = depth > 0;
            for (char c : code.toCharArray()) {
                depth += c == '{' ? 1 : c == '}' ? -1 : 0;
                opened |= depth > 0;
            }
            if (opened && depth == 0) {
                skipping = false;
            }
        }
        return out.toString();
    }

    private static final Pattern RANGE = Pattern.compile("(-?[\\d.]+):(-?[\\d.]+)");

    /** The buffer's initial bytes: zeros, random words ("int"), or values uniform in "lo:hi". */
    private static byte[] fill(Param p, Random rnd) {
        int size = switch (p.type()) {
            case "u8" -> 1;
            case "f16", "u16" -> 2;
            case "f64", "s64", "u64" -> 8;
            default -> 4;
        };
        ByteBuffer b = ByteBuffer.allocate(size * p.count()).order(ByteOrder.LITTLE_ENDIAN);
        if (p.gen().equals("zero")) {
            return b.array();
        }
        Matcher m = RANGE.matcher(p.gen());
        boolean range = m.matches();
        double lo = range ? Double.parseDouble(m.group(1)) : 0;
        double hi = range ? Double.parseDouble(m.group(2)) : 0;
        for (int i = 0; i < p.count(); i++) {
            double v = lo + (hi - lo) * rnd.nextDouble();
            long bits = rnd.nextLong();
            switch (p.type()) {
                case "u8" -> b.put((byte) bits);
                case "u16" -> b.putShort((short) bits);
                case "f16" -> b.putShort((short) org.jptxas.simulator.numeric.SmallFloats.toHalf(v));
                case "f32" -> b.putFloat((float) v);
                case "f64" -> b.putDouble(v);
                case "s64", "u64" -> b.putLong(bits);
                default -> b.putInt(range ? (int) Math.round(v) : (int) bits);
            }
        }
        return b.array();
    }

    private static String firstLine(String text) {
        String s = text.strip();
        int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl);
    }
}
