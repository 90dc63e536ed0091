package org.jptxas.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.CompileRequest;
import org.jptxas.ori.target.Target;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.gate.Gate;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jptxas.frontend.ptx.TestFrontEnds;

/**
 * Truncated and bit-flipped cubins given to {@code jcuobjdump} (-elf, -sass, --rewrite) and {@code jnvdisasm}: every
 * run ends with exit code 0, or a non-zero code and a one-line diagnostic (the README's promise); never a stack
 * trace, never an exception or error escaping, never an "internal error" (which would mean a reader bug rather than a
 * malformed input). The cubins are jptxas's own for kernels with calls and shared memory (executable sm_80 and sm_90,
 * -c sm_80); the number of runs is the README's figure.
 */
public class MalformedCubinToolsTest {
    @TempDir
    Path dir;

    /** One tool run: its exit code and what it printed. */
    public record Outcome(int exitCode, String out, String err) {}

    private Outcome jcuobjdump(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = new JcuobjdumpCommand(new PrintWriter(out), new PrintWriter(err), dir).run(args);
        return new Outcome(rc, out.toString(), err.toString());
    }

    private static Outcome jnvdisasm(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = JnvdisasmMain.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Outcome(rc, out.toString(), err.toString());
    }

    private static byte[] compile(String kernel, String arch, boolean relocatable) throws Exception {
        Path ptx = KernelSuite.byName(kernel).orElseThrow().ptx();
        Target target = Target.of(arch);
        var module = TestFrontEnds.of(target).check(ptx.getFileName().toString(),
                Files.readString(ptx, StandardCharsets.ISO_8859_1)).lower();
        CompileOptions options = new CompileOptions(3, java.util.OptionalInt.empty(), relocatable, false, false, false,
                false);
        return BackendRegistry.discover(MalformedCubinToolsTest.class.getClassLoader()).forTarget(target)
                .compile(new CompileRequest(module, target, options)).cubin();
    }

    /** What is wrong with one tool run on a damaged cubin, or null. */
    public static String problem(Outcome o) {
        String all = o.out() + o.err();
        if (all.contains("\tat ") || all.contains("Exception in thread") || all.contains("internal error")) {
            return "stack trace or internal error: " + o.err().lines().findFirst().orElse("");
        }
        if (o.exitCode() != 0 && o.err().isBlank()) {
            return "exit " + o.exitCode() + " without a diagnostic";
        }
        if (o.exitCode() != 0 && o.err().lines().count() != 1) {
            return "not a one-line diagnostic: " + o.err().lines().count() + " lines: " + o.err().strip();
        }
        return null;
    }

    @Test
    void damagedCubinsEndInADiagnosticNeverATrace() throws Exception {
        Map<String, byte[]> cubins = new LinkedHashMap<>();
        cubins.put("call_deep_local sm_80", compile("call_deep_local", "sm_80", false));
        cubins.put("call_recursive sm_90", compile("call_recursive", "sm_90", false));
        cubins.put("call_deep_local sm_80 -c", compile("call_deep_local", "sm_80", true));
        SplittableRandom random = new SplittableRandom(11);
        Gate gate = Gate.named("damaged cubins in jcuobjdump and jnvdisasm");
        int failedCleanly = 0;
        for (Map.Entry<String, byte[]> e : cubins.entrySet()) {
            byte[] good = e.getValue();
            List<byte[]> damaged = new ArrayList<>();
            List<String> names = new ArrayList<>();
            // 15 cuts in the ELF header and the first section headers, 30 spread over the rest: the same number of
            // runs whatever the cubins' sizes
            for (int c = 0; c < 45; c++) {
                int len = c < 15 ? 9 * c : 128 + (int) ((long) (good.length - 128) * (c - 15) / 30);
                damaged.add(java.util.Arrays.copyOf(good, len));
                names.add("cut to " + len);
            }
            for (int n = 0; n < 30; n++) {
                byte[] copy = good.clone();
                int flips = 1 + random.nextInt(4);
                for (int f = 0; f < flips; f++) {
                    // Half the flips in the ELF and section headers, where they change structure.
                    int at = random.nextBoolean() ? random.nextInt(64) : random.nextInt(copy.length);
                    copy[at] ^= (byte) (1 << random.nextInt(8));
                }
                damaged.add(copy);
                names.add("flip #" + n);
            }
            for (int i = 0; i < damaged.size(); i++) {
                Path file = dir.resolve("x.cubin");
                Files.write(file, damaged.get(i));
                List<Outcome> outcomes = new ArrayList<>();
                try {
                    outcomes.add(jcuobjdump("-elf", "x.cubin"));
                    outcomes.add(jcuobjdump("-sass", "x.cubin"));
                    outcomes.add(jcuobjdump("--rewrite", "y.cubin", "x.cubin"));
                    outcomes.add(jnvdisasm("-c", file.toString()));
                    outcomes.add(jnvdisasm(file.toString()));
                } catch (Throwable t) {
                    gate.crash(e.getKey() + " " + names.get(i), t);
                    continue;
                }
                for (Outcome o : outcomes) {
                    judge(gate, e.getKey() + " " + names.get(i), o);
                    failedCleanly += o.exitCode() != 0 ? 1 : 0;
                }
            }
        }
        System.out.printf("damaged cubins: %s; %d ended in a diagnostic%n", gate.summary(), failedCleanly);
        gate.verify(Figures.get("malformed.runs").value().intValue());
        Figures.check("malformed.runs", gate.compared());
    }

    /** One run into the gate: a pass, or a difference naming what is wrong. */
    public static void judge(Gate gate, String key, Outcome o) {
        String p = problem(o);
        if (p == null) {
            gate.pass();
        } else {
            gate.differ(key, p);
        }
    }
}
