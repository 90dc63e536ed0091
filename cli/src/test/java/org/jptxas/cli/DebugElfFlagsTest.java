package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The top byte of the cubin's {@code e_flags} says what debug information it carries, as ptxas 13 writes it: 0x06
 * without, 0x09 with line tables ({@code -lineinfo}, or PTX ISA 4.0 and later with {@code .loc}: an older PTX with
 * {@code .loc} gets none unasked), 0x0b with {@code -g};
 * {@code --suppress-debug-info} drops it back to 0x06. Compared with ptxas 13 on sm_80 and sm_90, executable and
 * {@code -c}.
 */
class DebugElfFlagsTest {
    @TempDir
    Path dir;

    private static final String WITH_LOC = ".version 7.0\n.target sm_80\n.address_size 64\n.file 1 \"a.cu\"\n"
            + ".visible .entry k(.param .u64 out)\n{\n.reg .u64 %rd<2>;\n.reg .u32 %r<2>;\n.loc 1 3 1\n"
            + "ld.param.u64 %rd1, [out];\n.loc 1 4 1\nmov.u32 %r1, %tid.x;\ncvta.to.global.u64 %rd1, %rd1;\n"
            + "st.global.u32 [%rd1], %r1;\nret;\n}\n";
    private static final String WITHOUT_LOC = WITH_LOC.replaceAll("\\.loc 1 \\d 1\n", "");
    /** The same with {@code .loc} in PTX ISA 3.2 (what nvcc 5 and gpuocelot's corpus files are). */
    private static final String OLD_WITH_LOC = WITH_LOC.replace(
            ".version 7.0\n.target sm_80", ".version 3.2\n.target sm_20");

    @Test
    void debugByteIsPtxas() throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        Files.writeString(dir.resolve("loc.ptx"), WITH_LOC);
        Files.writeString(dir.resolve("plain.ptx"), WITHOUT_LOC);
        Files.writeString(dir.resolve("old.ptx"), OLD_WITH_LOC);
        List<String> differing = new ArrayList<>();
        List<Integer> seen = new ArrayList<>();
        for (String arch : List.of("sm_80", "sm_90")) {
            for (String file : List.of("loc.ptx", "plain.ptx", "old.ptx")) {
                for (List<String> options : List.of(List.<String>of(), List.of("-lineinfo"), List.of("-g"),
                        List.of("-lineinfo", "-suppress-debug-info"), List.of("-g", "-suppress-debug-info"),
                        List.of("-c", "-lineinfo"))) {
                    List<String> args = new ArrayList<>(List.of("-arch=" + arch));
                    args.addAll(options);
                    args.add(file);
                    int theirs = flags(ptxas(ptxas, args));
                    int ours = flags(jptxas(args));
                    seen.add(theirs >>> 24);
                    if (theirs != ours) {
                        differing.add(args + ": ptxas 0x" + Integer.toHexString(theirs) + ", jptxas 0x"
                                + Integer.toHexString(ours));
                    }
                }
            }
        }
        assertEquals(List.of(), differing);
        assertTrue(seen.containsAll(List.of(0x06, 0x09, 0x0b)), "the cases cover every debug byte: " + seen);
    }

    private static int flags(byte[] cubin) {
        return (cubin[0x30] & 0xff) | (cubin[0x31] & 0xff) << 8 | (cubin[0x32] & 0xff) << 16
                | (cubin[0x33] & 0xff) << 24;
    }

    private byte[] jptxas(List<String> args) throws IOException {
        Path out = dir.resolve("j.cubin");
        Files.deleteIfExists(out);
        List<String> argv = new ArrayList<>(args);
        argv.addAll(List.of("-o", "j.cubin"));
        StringWriter err = new StringWriter();
        int rc = new JptxasCommand(new PrintWriter(new StringWriter()), new PrintWriter(err), Map.of(), null, dir,
                Registries.shared()).run(argv.toArray(String[]::new));
        assertEquals(0, rc, "jptxas " + args + ": " + err);
        return Files.readAllBytes(out);
    }

    private byte[] ptxas(Path ptxas, List<String> args) throws Exception {
        Path out = dir.resolve("p.cubin");
        Files.deleteIfExists(out);
        List<String> argv = new ArrayList<>(List.of(ptxas.toString()));
        argv.addAll(args);
        argv.addAll(List.of("-o", "p.cubin"));
        Process p = new ProcessBuilder(argv).directory(dir.toFile()).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String text = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "ptxas timed out");
        assertEquals(0, p.exitValue(), "ptxas " + args + ": " + text);
        return Files.readAllBytes(out);
    }
}
