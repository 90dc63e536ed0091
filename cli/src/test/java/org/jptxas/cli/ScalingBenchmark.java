package org.jptxas.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Bounded resources (issue 22): how compile time and memory grow with the size of generated kernels of four shapes,
 * for jptxas and for ptxas 13. Not a unit test: {@code scripts/scaling-bench} runs it.
 *
 * <ul>
 *   <li>{@code straight}: one block of N dependent integer instructions over 8 rolling values;</li>
 *   <li>{@code blocks}: N basic blocks, a chain of N/2 divergent if-then diamonds;</li>
 *   <li>{@code nesting}: N nested divergent ifs (each region inside the previous one);</li>
 *   <li>{@code live}: N values loaded first and summed last, all live at once (spilled).</li>
 * </ul>
 *
 * Each compile runs in a JVM of its own ({@code ScalingBenchmark --one SHAPE N FILE}): the CPU time of the process
 * during the compile (its GC and JIT threads included; robust on a loaded machine), and the peak of the Java heap
 * it used. ptxas is measured with {@code /usr/bin/time} (user + system CPU, peak RSS). The
 * growth exponent is the slope of log(measure) over log(size), fitted over the three sizes.
 */
public final class ScalingBenchmark {
    private ScalingBenchmark() {}

    /** The shapes and their base size (×1); the benchmark compiles ×1, ×2, ×4 unless told other factors. */
    static final Map<String, Integer> SHAPES = new java.util.LinkedHashMap<>();

    static {
        SHAPES.put("straight", 50_000);
        SHAPES.put("blocks", 5_000);
        SHAPES.put("nesting", 500);
        SHAPES.put("live", 2_500);
    }

    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("--one")) {
            one(args[1], Integer.parseInt(args[2]), Path.of(args[3]), args.length > 4 ? args[4] : "sm_80");
            return;
        }
        if (args.length > 0 && args[0].equals("--generate")) {
            Files.writeString(Path.of(args[3]), generate(args[1], Integer.parseInt(args[2])));
            return;
        }
        List<String> shapes = new ArrayList<>(SHAPES.keySet());
        int[] factors = {1, 2, 4};
        String ptxas = null;
        String arch = "sm_80";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--shapes" -> shapes = List.of(args[++i].split(","));
                case "--factors" -> factors = java.util.Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--ptxas" -> ptxas = args[++i];
                case "--arch" -> arch = args[++i];
                default -> throw new IllegalArgumentException(args[i]);
            }
        }
        Path work = Files.createTempDirectory("jptxas-scaling");
        StringBuilder table = new StringBuilder();
        table.append("| shape | size | jptxas CPU (s) | jptxas peak heap (MB) | ptxas CPU (s) | ptxas peak RSS (MB) |\n");
        table.append("|---|---|---|---|---|---|\n");
        StringBuilder exponents = new StringBuilder();
        exponents.append("| shape | sizes | jptxas time exponent | jptxas memory exponent | jptxas exponents above an empty kernel's cost (time, memory) | ptxas time exponent | ptxas memory exponent |\n");
        exponents.append("|---|---|---|---|---|---|---|\n");
        for (String shape : shapes) {
            int base = SHAPES.get(shape);
            double[] size = new double[factors.length];
            double[] jt = new double[factors.length];
            double[] jm = new double[factors.length];
            double[] pt = new double[factors.length];
            double[] pm = new double[factors.length];
            String outcome = null;
            // the fixed cost (JVM, tables, one tiny kernel of the shape), subtracted for the marginal exponents
            Path tiny = work.resolve(shape + "-1.ptx");
            Files.writeString(tiny, generate(shape, 1));
            String[] fixed = child(shape, 1, tiny, arch);
            Files.deleteIfExists(tiny);
            double t0 = Double.parseDouble(fixed[0]);
            double m0 = Double.parseDouble(fixed[1]);
            for (int k = 0; k < factors.length; k++) {
                int n = base * factors[k];
                size[k] = n;
                Path ptx = work.resolve(shape + "-" + n + ".ptx");
                Files.writeString(ptx, generate(shape, n));
                String[] j = child(shape, n, ptx, arch);
                jt[k] = Double.parseDouble(j[0]);
                jm[k] = Double.parseDouble(j[1]);
                if (!j[2].equals("ok")) {
                    outcome = j[2];
                }
                if (ptxas != null) {
                    double[] p = ptxas(ptxas, arch, ptx, work.resolve("p.cubin"));
                    pt[k] = p[0];
                    pm[k] = p[1];
                }
                table.append(String.format(Locale.ROOT, "| %s | %,d | %.2f | %.0f | %s | %s |%s%n", shape, n, jt[k], jm[k],
                        ptxas == null ? "-" : String.format(Locale.ROOT, "%.2f", pt[k]),
                        ptxas == null ? "-" : String.format(Locale.ROOT, "%.0f", pm[k]),
                        j[2].equals("ok") ? "" : " " + j[2]));
                System.err.println(table.substring(table.lastIndexOf("| " + shape)).strip());
                Files.deleteIfExists(ptx);
            }
            double[] jtm = new double[jt.length];
            double[] jmm = new double[jm.length];
            for (int k = 0; k < jt.length; k++) {
                jtm[k] = jt[k] - t0;
                jmm[k] = jm[k] - m0;
            }
            exponents.append(String.format(Locale.ROOT, "| %s | %,d ... %,d | %.2f | %.2f | %.2f, %.2f (fixed %.1f s, %.0f MB) | %s | %s |%s%n",
                    shape, (long) size[0], (long) size[size.length - 1], slope(size, jt), slope(size, jm),
                    slope(size, jtm), slope(size, jmm), t0, m0,
                    ptxas == null ? "-" : String.format(Locale.ROOT, "%.2f", slope(size, pt)),
                    ptxas == null ? "-" : String.format(Locale.ROOT, "%.2f", slope(size, pm)),
                    outcome == null ? "" : " " + outcome));
        }
        Files.deleteIfExists(work.resolve("p.cubin"));
        Files.deleteIfExists(work);
        System.out.println(table);
        System.out.println(exponents);
    }

    /** Least-squares slope of log(y) over log(x). */
    static double slope(double[] x, double[] y) {
        int n = x.length;
        double sx = 0, sy = 0, sxx = 0, sxy = 0;
        for (int i = 0; i < n; i++) {
            double lx = Math.log(x[i]);
            double ly = Math.log(Math.max(y[i], 1e-3));
            sx += lx;
            sy += ly;
            sxx += lx * lx;
            sxy += lx * ly;
        }
        return (n * sxy - sx * sy) / (n * sxx - sx * sx);
    }

    /** Runs one jptxas compile in a JVM of its own: {seconds, peak heap MB, outcome}. */
    private static String[] child(String shape, int n, Path ptx, String arch) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = List.of(java, "-Xmx8g", "-Xss1m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                ScalingBenchmark.class.getName(), "--one", shape, Integer.toString(n), ptx.toString(), arch);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(30, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            return new String[] {"NaN", "NaN", "timeout"};
        }
        String last = out.strip().lines().reduce((a, b) -> b).orElse("");
        String[] f = last.split(" ", 3);
        if (f.length < 3 || !f[0].matches("[0-9.]+")) {
            return new String[] {"NaN", "NaN", "crashed: " + last};
        }
        return f;
    }

    /** In the child: compile once, print "seconds peakHeapMB outcome". */
    private static void one(String shape, int n, Path ptx, String arch) {
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            pool.resetPeakUsage();
        }
        Path dir = ptx.toAbsolutePath().getParent();
        StringWriter err = new StringWriter();
        // CPU time of the whole process (compile, GC and JIT threads): robust on a shared, loaded machine
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        long t0 = os.getProcessCpuTime();
        int rc;
        try {
            rc = new JptxasCommand(new PrintWriter(new StringWriter()), new PrintWriter(err), Map.of(), null, dir)
                    .run(new String[] {"-arch=" + arch, ptx.getFileName().toString(), "-o", shape + ".cubin"});
        } catch (Throwable e) {
            rc = -1;
            err.write(e.toString());
        }
        double seconds = (os.getProcessCpuTime() - t0) / 1e9;
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        try {
            Files.deleteIfExists(dir.resolve(shape + ".cubin"));
        } catch (IOException e) {
            // left in the temporary folder
        }
        String outcome = rc == 0 ? "ok" : "refused: " + err.toString().lines().findFirst().orElse("exit " + rc);
        System.out.printf(Locale.ROOT, "%.3f %.1f %s%n", seconds, peak / 1048576.0, outcome);
    }

    private static double[] ptxas(String ptxas, String arch, Path ptx, Path cubin) throws IOException, InterruptedException {
        Path times = ptx.resolveSibling("time.txt");
        Process p = new ProcessBuilder("/usr/bin/time", "-f", "%U %S %M", "-o", times.toString(), ptxas, "-arch=" + arch,
                ptx.toString(), "-o", cubin.toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor();
        String[] f = Files.readString(times).strip().lines().reduce((a, b) -> b).orElse("NaN NaN NaN").split(" ");
        Files.deleteIfExists(times);
        return new double[] {Double.parseDouble(f[0]) + Double.parseDouble(f[1]), Double.parseDouble(f[2]) / 1024.0};
    }

    // ---- the generated kernels

    static String generate(String shape, int n) {
        StringBuilder b = new StringBuilder(64 * n + 1024);
        b.append(".version 8.0\n.target sm_80\n.address_size 64\n\n");
        b.append(".visible .entry k(.param .u64 out, .param .u64 in, .param .u32 seed)\n{\n");
        b.append("\t.reg .pred %p<").append(Math.max(2, n + 1)).append(">;\n");
        b.append("\t.reg .b32 %r<").append(Math.max(64, n + 64)).append(">;\n");
        b.append("\t.reg .b64 %rd<").append(Math.max(8, n + 8)).append(">;\n");
        b.append("\tld.param.u64 %rd1, [out];\n\tld.param.u64 %rd2, [in];\n\tld.param.u32 %r1, [seed];\n");
        b.append("\tmov.u32 %r2, %tid.x;\n\tcvta.to.global.u64 %rd3, %rd1;\n\tcvta.to.global.u64 %rd4, %rd2;\n");
        b.append("\tmul.wide.u32 %rd5, %r2, 4;\n\tadd.s64 %rd6, %rd3, %rd5;\n");
        switch (shape) {
            case "straight" -> straight(b, n);
            case "blocks" -> blocks(b, n);
            case "nesting" -> nesting(b, n);
            case "live" -> live(b, n);
            default -> throw new IllegalArgumentException(shape);
        }
        b.append("\tret;\n}\n");
        return b.toString();
    }

    /** 8 rolling values %r10..%r17 from tid and seed; N instructions each reading two of them. */
    private static void straight(StringBuilder b, int n) {
        for (int i = 0; i < 8; i++) {
            b.append("\tadd.u32 %r").append(10 + i).append(", %r2, ").append(i * 7 + 1).append(";\n");
        }
        String[] ops = {"add.u32", "xor.b32", "mul.lo.u32", "sub.u32", "or.b32", "and.b32"};
        for (int i = 0; i < n; i++) {
            int d = 10 + i % 8;
            int a = 10 + (i + 3) % 8;
            int c = 10 + (i + 5) % 8;
            String op = ops[i % ops.length];
            if (i % 7 == 3) {
                b.append("\tadd.u32 %r").append(d).append(", %r").append(a).append(", ").append(i * 2654435761L & 0x7fffffff)
                        .append(";\n");
            } else {
                b.append('\t').append(op).append(" %r").append(d).append(", %r").append(a).append(", %r").append(c)
                        .append(";\n");
            }
        }
        for (int i = 1; i < 8; i++) {
            b.append("\tadd.u32 %r10, %r10, %r").append(10 + i).append(";\n");
        }
        b.append("\tst.global.u32 [%rd6], %r10;\n");
    }

    /** N blocks: N/2 diamonds, each branching on a value that depends on the thread. */
    private static void blocks(StringBuilder b, int n) {
        b.append("\tmov.u32 %r10, %r1;\n");
        for (int i = 0; i < n / 2; i++) {
            b.append("\tand.b32 %r11, %r10, ").append(1 << (i % 5)).append(";\n");
            b.append("\tsetp.eq.u32 %p1, %r11, 0;\n");
            b.append("\t@%p1 bra L").append(i).append(";\n");
            b.append("\tmul.lo.u32 %r10, %r10, ").append(2 * i + 3).append(";\n");
            b.append("\tst.global.u32 [%rd6], %r10;\n");
            b.append("L").append(i).append(":\n");
            b.append("\txor.b32 %r10, %r10, %r2;\n");
        }
        b.append("\tst.global.u32 [%rd6], %r10;\n");
    }

    /** N nested ifs: if (tid & bit) { v = f(v); if (...) { ... } } with every region closing at the end. */
    private static void nesting(StringBuilder b, int n) {
        b.append("\tmov.u32 %r10, %r1;\n");
        for (int i = 0; i < n; i++) {
            b.append("\tadd.u32 %r11, %r2, ").append(i).append(";\n");
            b.append("\tand.b32 %r11, %r11, 1;\n");
            b.append("\tsetp.eq.u32 %p1, %r11, 0;\n");
            b.append("\t@%p1 bra E").append(i).append(";\n");
            b.append("\tmad.lo.u32 %r10, %r10, ").append(2 * i + 3).append(", %r2;\n");
        }
        for (int i = n - 1; i >= 0; i--) {
            b.append("E").append(i).append(":\n");
            b.append("\tadd.u32 %r10, %r10, ").append(i + 1).append(";\n");
        }
        b.append("\tst.global.u32 [%rd6], %r10;\n");
    }

    /** N values loaded from N addresses, then summed in reverse order: all N are live at the first add. */
    private static void live(StringBuilder b, int n) {
        for (int i = 0; i < n; i++) {
            b.append("\tld.global.u32 %r").append(64 + i).append(", [%rd4+").append(4L * i).append("];\n");
        }
        b.append("\tmov.u32 %r10, 0;\n");
        for (int i = n - 1; i >= 0; i--) {
            b.append("\tmad.lo.u32 %r10, %r10, 3, %r").append(64 + i).append(";\n");
        }
        b.append("\tst.global.u32 [%rd6], %r10;\n");
    }
}
