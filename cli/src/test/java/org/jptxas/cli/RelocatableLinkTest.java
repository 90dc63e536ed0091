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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Symbol;
import org.jptxas.cubin.dump.ElfDump;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Separate compilation ({@code -c}): {@code caller.ptx}'s kernel calls {@code _Z7ext_mixjj}, an {@code .extern .func}
 * that {@code callee.ptx} defines (with a {@code .visible .func} helper of its own). Each object keeps its functions
 * and its external call ({@code CALL.ABS.NOINC} with an {@code R_CUDA_ABS} relocation, the return address relocated
 * against the caller), and nvlink links the two into an executable (nvlink 13: our objects are in ptxas 13's
 * format; {@link Oracles#assumeNvlink13()}).
 */
class RelocatableLinkTest {
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
        // nvlink 13 refuses an sm_90 object without .debug_frame ("must be recompiled with toolkit >= Cuda 12.0")
        for (String o : new String[] {"caller.o", "callee.o"}) {
            assertTrue(Cubin.read(Files.readAllBytes(dir.resolve(o))).section(".debug_frame").isPresent(), o);
        }
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
        Path nvlink = Oracles.assumeNvlink13();
        compile(dir, arch);
        link(nvlink, dir, arch, "caller.o", "callee.o");
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
     * relocated absolute calls (as ptxas -c writes them).
     */
    @Test
    void systemCallsStayRelocatedCallsWithC(@TempDir Path dir) throws IOException {
        copy(dir, "printf.ptx", "sm_80");
        CliRun c = CliRun.run(dir, "-arch=sm_80", "-c", "printf.ptx", "-o", "printf.o");
        assertEquals(0, c.exitCode(), c.err());
        String elf = ElfDump.print(Cubin.read(Files.readAllBytes(dir.resolve("printf.o"))));
        for (String callee : new String[] {"vprintf", "__assertfail"}) {
            assertTrue(elf.lines().anyMatch(l -> l.contains(callee) && l.contains("R_CUDA_ABS47_34")), elf);
        }
        assertFalse(elf.contains("SYSCALL_OFFSETS"), "the linker writes SYSCALL_OFFSETS, not ptxas -c\n" + elf);
        // ptxas 13 gives system calls its system-call ABI in their prototypes (from sm_80 on)
        String abi = "|12p4r20sRx" + "0".repeat(60) + "fff9)>";
        assertTrue(section(elf, ".nv.prototype").contains("(#ill" + abi), elf);
        assertTrue(section(elf, ".nv.prototype").contains("(#vllill" + abi), elf);
        assertTrue(elf.contains("externs:\tvprintf(0x"), elf);
    }

    private static final Pattern INSTRUCTION = Pattern.compile("^\\s+/\\*([0-9a-f]{4,})\\*/\\s+(.*?) ?;$");

    /**
     * A whole-program compilation calls them as ptxas 13 does in an executable: the callee's address from a slot of
     * constant bank 4 ({@code LDC.64 R2, c[0x4][R]}; the slot relocated R_CUDA_64 against the undefined function
     * symbol, which the loader resolves), a PC-relative return address in R20/R21 ({@code LEPC R20, `(return)} on
     * sm_90; {@code LEPC R20} plus the distance to the return point below) and {@code CALL.ABS.NOINC R2}, whose
     * offsets SYSCALL_OFFSETS lists.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void wholeProgramSystemCallsGoThroughConstantBank4(String arch, @TempDir Path dir) throws IOException {
        copy(dir, "printf.ptx", arch);
        CliRun whole = CliRun.run(dir, "-arch=" + arch, "printf.ptx", "-o", "printf.cubin", "--out-sass", "printf.sass");
        assertEquals(0, whole.exitCode(), whole.err());
        Cubin cubin = Cubin.read(Files.readAllBytes(dir.resolve("printf.cubin")));
        String elf = ElfDump.print(cubin);
        for (String callee : new String[] {"vprintf", "__assertfail"}) {
            assertTrue(elf.lines().anyMatch(l -> l.matches("0x[0-9a-f]+\\s+" + callee + "\\s+R_CUDA_64.*")), elf);
            Symbol sym = cubin.symbols().stream().filter(x -> x.name().equals(callee)).findFirst().orElseThrow();
            assertEquals(0, sym.shndx(), callee + " is undefined: the loader resolves it");
            assertEquals(Symbol.STT_FUNC, sym.symbolType());
        }
        assertTrue(elf.contains(arch.equals("sm_75") || arch.equals("sm_80") || arch.equals("sm_86")
                || arch.equals("sm_89") ? ".rel.nv.constant4" : ".rela.nv.constant4"), elf);
        List<String> sass = Files.readAllLines(dir.resolve("printf.sass"));
        List<long[]> calls = new ArrayList<>(); // address, index in sass
        List<String> offsets = new ArrayList<>();
        for (int i = 0; i < sass.size(); i++) {
            Matcher m = INSTRUCTION.matcher(sass.get(i));
            if (m.matches() && m.group(2).endsWith("CALL.ABS.NOINC R2")) {
                calls.add(new long[] {Long.parseLong(m.group(1), 16), i});
                offsets.add("0x" + m.group(1).replaceFirst("^0+(?=.)", ""));
            }
        }
        assertEquals(2, calls.size(), String.join("\n", sass));
        String syscalls = elf.substring(elf.indexOf("EIATTR_SYSCALL_OFFSETS"));
        syscalls = syscalls.substring(syscalls.indexOf("Value:") + 6, syscalls.indexOf('\n', syscalls.indexOf("Value:")));
        assertEquals(offsets, List.of(syscalls.trim().split("\\s+")), elf);
        for (long[] call : calls) {
            int at = (int) call[1];
            boolean loaded = false;
            long lepc = -1;
            long distance = -1;
            for (int k = at - 1; k >= 0 && lepc < 0; k--) {
                Matcher m = INSTRUCTION.matcher(sass.get(k));
                if (!m.matches()) {
                    continue;
                }
                String text = m.group(2).replaceFirst("^@!?P\\d\\s+", "");
                if (text.startsWith("IADD3 R20, P") && text.endsWith(", RZ")) {
                    distance = Long.decode(text.replaceAll(".*R20, (0x[0-9a-f]+), RZ$", "$1"));
                }
                if (text.startsWith("LEPC R20")) {
                    lepc = Long.parseLong(m.group(1), 16);
                    if (arch.equals("sm_90")) {
                        String label = text.replaceAll(".*`\\((.*)\\)$", "$1");
                        assertEquals(label + ":", sass.get(at + 1).trim(), "LEPC names the return point");
                    } else {
                        assertEquals(call[0] + 0x10, lepc + distance, "return address is the instruction after CALL");
                    }
                }
            }
            for (int k = at - 1; k >= 0 && !loaded; k--) {
                loaded = sass.get(k).contains("LDC.64 R2, c[0x4][R");
            }
            assertTrue(lepc >= 0 && loaded, "LDC.64 R2, c[0x4][R..] and LEPC R20 before the call at " + call[0]);
        }
    }

    /**
     * With -c a call to a {@code .visible .func} of the same module is a true call by symbol, as ptxas -c makes it
     * ({@code CALL.ABS.NOINC `(f)} relocated against the function's own global symbol, return address relocated),
     * not an inlined copy; nvlink 13 links the object.
     */
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_90"})
    void callsToExportedFunctionsStayCalls(String arch, @TempDir Path dir) throws Exception {
        String ptx = Files.readString(org.jptxas.testing.kernels.KernelSuite.byName("call_func").orElseThrow().ptx())
                .replace(".func  (.param .b32 func_retval0) _Z3mixii", ".visible .func  (.param .b32 func_retval0) _Z3mixii");
        assertTrue(ptx.contains(".visible .func  (.param .b32 func_retval0) _Z3mixii"));
        Files.writeString(dir.resolve("k.ptx"), ptx);
        CliRun r = CliRun.run(dir, "-arch=" + arch, "-c", "k.ptx", "-o", "k.o", "--out-sass", "k.sass");
        assertEquals(0, r.exitCode(), r.err());
        String sass = Files.readString(dir.resolve("k.sass"));
        assertEquals(2, sass.lines().filter(l -> l.contains("CALL.ABS.NOINC `(_Z3mixii)")).count(), sass);
        Cubin o = Cubin.read(Files.readAllBytes(dir.resolve("k.o")));
        String elf = ElfDump.print(o);
        String callType = arch.equals("sm_90") ? "R_CUDA_ABS55_16_34" : "R_CUDA_ABS47_34";
        assertEquals(2, elf.lines().filter(l -> l.contains("_Z3mixii") && l.contains(callType)).count(), elf);
        Symbol mix = o.symbols().stream().filter(x -> x.name().equals("_Z3mixii")).findFirst().orElseThrow();
        assertTrue(mix.shndx() > 0 && mix.info() >> 4 == Symbol.STB_GLOBAL, "a global function of its own");
        link(Oracles.assumeNvlink13(), dir, arch, "k.o");
    }

    /** nvlink links {@code objects} (in {@code dir}) into {@code linked.cubin}. */
    private static void link(Path nvlink, Path dir, String arch, String... objects) {
        List<String> cmd = new ArrayList<>(List.of(nvlink.toString(), "-arch=" + arch));
        cmd.addAll(List.of(objects));
        cmd.addAll(List.of("-o", "linked.cubin"));
        Processes.Result r = Processes.run(cmd, dir);
        assertEquals(0, r.exitCode(), "nvlink: " + r.stdout() + r.stderr());
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
}
