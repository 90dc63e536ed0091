package org.jptxas.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

/**
 * Warms the compile server's code: a fresh JVM runs the compiler interpreted and lightly compiled for its first dozen
 * calls (measured on saxpy: 44, 50, 24, ... down to 20 ms per call over twelve calls), which a toolchain would pay
 * call by call. After the server has answered its first request, a background thread compiles a small bundled kernel
 * for that request's target a number of times, in memory (no files), each round only while no request is being
 * served and followed by a pause as long as the round, so that it takes at most half a core and delays an answer by
 * no more than sharing the machine with the round in progress.
 */
final class ServerWarmUp implements Runnable {
    /** saxpy with line information, so that the line-table code warms up too ({@code -lineinfo}, as Triton passes). */
    static final String KERNEL = """
            .version 8.0
            .target sm_75
            .address_size 64
            .file 1 "warmup.cu"

            .visible .entry saxpy(
            \t.param .u32 saxpy_param_n,
            \t.param .f32 saxpy_param_a,
            \t.param .u64 saxpy_param_x,
            \t.param .u64 saxpy_param_y
            )
            {
            \t.reg .pred \t%p<2>;
            \t.reg .b32 \t%r<6>;
            \t.reg .f32 \t%f<5>;
            \t.reg .b64 \t%rd<8>;

            \t.loc 1 3 0
            \tld.param.u32 \t%r2, [saxpy_param_n];
            \tld.param.f32 \t%f1, [saxpy_param_a];
            \tld.param.u64 \t%rd1, [saxpy_param_x];
            \tld.param.u64 \t%rd2, [saxpy_param_y];
            \tmov.u32 \t%r3, %ctaid.x;
            \tmov.u32 \t%r4, %ntid.x;
            \tmov.u32 \t%r5, %tid.x;
            \tmad.lo.s32 \t%r1, %r3, %r4, %r5;
            \t.loc 1 4 0
            \tsetp.ge.u32 \t%p1, %r1, %r2;
            \t@%p1 bra \t$L__BB0_2;

            \tcvta.to.global.u64 \t%rd3, %rd1;
            \tmul.wide.u32 \t%rd4, %r1, 4;
            \tadd.s64 \t%rd5, %rd3, %rd4;
            \tld.global.f32 \t%f2, [%rd5];
            \tcvta.to.global.u64 \t%rd6, %rd2;
            \tadd.s64 \t%rd7, %rd6, %rd4;
            \tld.global.f32 \t%f3, [%rd7];
            \t.loc 1 5 0
            \tmul.f32 \t%f4, %f1, %f2;
            \tadd.f32 \t%f4, %f4, %f3;
            \tst.global.f32 \t[%rd7], %f4;

            $L__BB0_2:
            \t.loc 1 6 0
            \tret;
            }
            """;

    private static final Pattern SM = Pattern.compile("sm_[0-9]{2,3}[af]?");

    private final Registries registries;
    private final String home;
    private final int rounds;
    private final BooleanSupplier busy;
    private final String target;

    /** {@code rounds} compilations for {@code target}, each started only when {@code busy} is false. */
    ServerWarmUp(Registries registries, String home, int rounds, BooleanSupplier busy, String target) {
        this.registries = registries;
        this.home = home;
        this.rounds = rounds;
        this.busy = busy;
        this.target = target;
    }

    /** The target a request's arguments name ({@code -arch=}, {@code --gpu-name}, ...), else ptxas's default. */
    static String targetOf(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String a = args.get(i);
            String value = null;
            for (String name : List.of("-arch", "--gpu-name", "-gpu-name", "--arch")) {
                if (a.startsWith(name + "=")) {
                    value = a.substring(name.length() + 1);
                } else if (a.equals(name) && i + 1 < args.size()) {
                    value = args.get(i + 1);
                }
            }
            if (value != null && SM.matcher(value).matches()) {
                return value;
            }
        }
        return JptxasCommand.DEFAULT_TARGET.name();
    }

    @Override
    public void run() {
        PrintWriter discard = new PrintWriter(Writer.nullWriter());
        try {
            for (int i = 0; i < rounds; i++) {
                while (busy.getAsBoolean()) {
                    Thread.sleep(5);
                }
                long start = System.nanoTime();
                compile(registries, home, target, discard, discard);
                // at most half a core: a toolchain's next call may come in while a round runs
                Thread.sleep(Math.max(1, (System.nanoTime() - start) / 1_000_000));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** One warm-up compilation, in memory: {@code -lineinfo -v} as Triton compiles; jptxas's exit code. */
    static int compile(Registries registries, String home, String target, PrintWriter out, PrintWriter err) {
        Workspace memory = new Workspace() {
            @Override
            public byte[] read(String name) throws IOException {
                throw new IOException("the warm-up reads no files");
            }

            @Override
            public void write(List<Output> outputs) {
                // the cubin is not kept
            }
        };
        return new JptxasCommand(out, err, Map.of(), home, Path.of("/"), registries, memory)
                .run(new String[] {"-arch=" + target, "-lineinfo", "-v", "-ias", KERNEL});
    }
}
