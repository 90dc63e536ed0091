package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.jptxas.isel.cubin.Cubin;
import org.jptxas.isel.cubin.dump.ElfDump;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Separate compilation ({@code -c}): {@code caller.ptx}'s kernel calls {@code _Z7ext_mixjj}, an {@code .extern .func}
 * that {@code callee.ptx} defines (with a {@code .visible .func} helper of its own). Each object keeps its functions
 * and its external call ({@code CALL.ABS.NOINC} with an {@code R_CUDA_ABS} relocation, the return address relocated
 * against the caller), and nvlink links the two into an executable (nvlink 13: our objects are in ptxas 13's
 * format; skipped without it).
 */
class RelocatableLinkTest {
    private static final Path NVLINK_13 = Path.of("/usr/local/bin/nvlink");

    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_90"})
    void externCallStaysARelocatedCall(String arch, @TempDir Path dir) throws IOException {
        compile(dir, arch);
        String caller = ElfDump.print(Cubin.read(Files.readAllBytes(dir.resolve("caller.o"))));
        String callType = arch.equals("sm_90") ? "R_CUDA_ABS55_16_34" : "R_CUDA_ABS47_34";
        assertTrue(caller.lines().anyMatch(l -> l.contains("_Z7ext_mixjj") && l.contains(callType)), caller);
        assertTrue(caller.lines().anyMatch(l -> l.contains("link_main") && l.contains("R_CUDA_ABS32_LO_32")), caller);
        assertTrue(caller.lines().anyMatch(l -> l.contains("link_main") && l.contains("R_CUDA_ABS32_HI_32")), caller);
        String sass = Files.readString(dir.resolve("caller.sass"));
        assertTrue(sass.contains("CALL.ABS.NOINC `(_Z7ext_mixjj)"), sass);
        String callee = ElfDump.print(Cubin.read(Files.readAllBytes(dir.resolve("callee.o"))));
        assertTrue(callee.contains(".text._Z7ext_mixjj") && callee.contains(".text._Z6helperj"), callee);
        assertFalse(callee.contains(".nv.constant0._Z7ext_mixjj"), "device functions take no parameter bank\n" + callee);
        assertTrue(Files.readString(dir.resolve("callee.sass")).contains("RET.ABS.NODEC R20 0x0"));
        // What the linker reads about the call, as ptxas -c writes it: the callee's prototype, the caller's EXTERNS.
        assertTrue(section(caller, ".nv.prototype").contains("(#iii)>"), caller);
        assertTrue(caller.contains("externs:\t_Z7ext_mixjj("), caller);
        assertTrue(section(caller, ".nv.callgraph").matches("(?s).*<0,-1>\\s*<\\d+,\\d+>\\s*<0,-2>.*"), caller);
        String prototypes = section(callee, ".nv.prototype");
        assertTrue(prototypes.contains("(#iii)>") && prototypes.contains("(#ii)>"), callee);
    }

    /** The lines of {@code name} in a {@code -elf} listing, up to the next blank line. */
    private static String section(String elf, String name) {
        int at = elf.indexOf("\n" + name + "\n");
        assertTrue(at >= 0, "no " + name + "\n" + elf);
        int end = elf.indexOf("\n\n", at + 1);
        return elf.substring(at + 1, end < 0 ? elf.length() : end);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void nvlinkLinksTwoObjects(String arch, @TempDir Path dir) throws Exception {
        Path nvlink = nvlink13().orElse(null);
        Assumptions.assumeTrue(nvlink != null, "nvlink 13 not installed");
        compile(dir, arch);
        List<String> cmd = List.of(nvlink.toString(), "-arch=" + arch, "caller.o", "callee.o", "-o", "linked.cubin");
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
        String out;
        try (InputStream in = p.getInputStream()) {
            out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), "nvlink: " + out);
        String linked = ElfDump.print(Cubin.read(Files.readAllBytes(dir.resolve("linked.cubin"))));
        assertTrue(linked.contains(".text.link_main") && linked.contains(".text._Z7ext_mixjj"), linked);
    }

    @Test
    void wholeProgramCompilationStillRefusesTheExternCall(@TempDir Path dir) throws IOException {
        copy(dir, "caller.ptx", "sm_80");
        CliRun r = CliRun.run(dir, "-arch=sm_80", "caller.ptx", "-o", "caller.cubin");
        assertEquals(255, r.exitCode());
        assertTrue(r.err().contains("call to external function '_Z7ext_mixjj'"), r.err());
        assertFalse(Files.exists(dir.resolve("caller.cubin")));
    }

    /**
     * {@code printf} and {@code assert} call the driver's {@code vprintf} and {@code __assertfail}: with -c they stay
     * relocated absolute calls (as ptxas -c writes them), a whole-program compilation names them as not supported.
     */
    @Test
    void systemCalls(@TempDir Path dir) throws IOException {
        copy(dir, "printf.ptx", "sm_80");
        CliRun whole = CliRun.run(dir, "-arch=sm_80", "printf.ptx", "-o", "printf.cubin");
        assertEquals(255, whole.exitCode());
        assertTrue(whole.err().contains("not yet supported for sm_80 (system call 'vprintf'"), whole.err());
        CliRun c = CliRun.run(dir, "-arch=sm_80", "-c", "printf.ptx", "-o", "printf.o");
        assertEquals(0, c.exitCode(), c.err());
        String elf = ElfDump.print(Cubin.read(Files.readAllBytes(dir.resolve("printf.o"))));
        for (String callee : new String[] {"vprintf", "__assertfail"}) {
            assertTrue(elf.lines().anyMatch(l -> l.contains(callee) && l.contains("R_CUDA_ABS47_34")), elf);
        }
        // ptxas 13 gives system calls its system-call ABI in their prototypes (from sm_80 on)
        String abi = "|12p4r20sRx" + "0".repeat(60) + "fff9)>";
        assertTrue(section(elf, ".nv.prototype").contains("(#ill" + abi), elf);
        assertTrue(section(elf, ".nv.prototype").contains("(#vllill" + abi), elf);
        assertTrue(elf.contains("externs:\tvprintf(0x"), elf);
    }

    private static void compile(Path dir, String arch) throws IOException {
        for (String name : new String[] {"caller", "callee"}) {
            copy(dir, name + ".ptx", arch);
            CliRun r = CliRun.run(dir, "-arch=" + arch, "-c", name + ".ptx", "-o", name + ".o", "--out-sass", name + ".sass");
            assertEquals(0, r.exitCode(), name + ": " + r.err());
        }
    }

    private static void copy(Path dir, String name, String arch) throws IOException {
        String text;
        try (InputStream in = RelocatableLinkTest.class.getResourceAsStream("/link/" + name)) {
            text = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
        Files.writeString(dir.resolve(name), text.replace(".target sm_75", ".target " + arch), StandardCharsets.ISO_8859_1);
    }

    private static Optional<Path> nvlink13() {
        List<Path> candidates = new ArrayList<>(List.of(NVLINK_13, Path.of("/usr/local/cuda-13.0/bin/nvlink")));
        return candidates.stream().filter(Files::isExecutable).findFirst();
    }
}
