package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.Symbol;
import org.jptxas.cubin.SymbolTable;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .nv_debug.shared} with -g: ptxas 13 writes it for every executable module declaring {@code .extern .shared}
 * variables (with kernels too): NOBITS write+alloc, aligned to 16, sized as the window the system reserves (0 on sm_80,
 * 1 KiB on sm_90), after the first kernel's shared section. Each variable is a global object in it, after the first
 * global function, at one address for every kernel: past the reserved window and the static windows of the kernels
 * using it, aligned to the variable. -g also leaves out {@code .nv.shared.reserved.0} and its alias symbol.
 */
class DebugSharedSymbolsTest {
    @TempDir
    Path dir;

    private static final String HEAD = ".version 8.0\n.target %s\n.address_size 64\n";
    private static final String USES_DYN = "{\n.reg .b32 %r<3>;\nmov.u32 %r1, dyn;\nst.shared.u32 [%r1], 7;\nret;\n}\n";

    /** Inputs by name: none, one kernel using the variable, several kernels with a static window, an unused variable. */
    private static final List<String[]> INPUTS = List.of(
            new String[] {"plain", ".visible .entry k(.param .u64 p)\n{\nret;\n}\n"},
            new String[] {"one", ".extern .shared .align 16 .b8 dyn[];\n.visible .entry k(.param .u64 p)\n" + USES_DYN},
            new String[] {"unused", ".extern .shared .align 8 .b8 dyn[];\n.visible .entry k()\n{\nret;\n}\n"},
            new String[] {"several", ".extern .shared .align 16 .b8 dyn[];\n.visible .entry k1(.param .u64 p)\n"
                    + "{\n.reg .b32 %r<3>;\n.shared .align 4 .b8 buf[100];\nmov.u32 %r1, dyn;\nst.shared.u32 [%r1], 7;\n"
                    + "mov.u32 %r2, buf;\nst.shared.u32 [%r2], 7;\nret;\n}\n.visible .entry k2(.param .u64 p)\n" + USES_DYN
                    + ".visible .entry k3()\n{\nret;\n}\n"},
            new String[] {"two", ".extern .shared .align 16 .b8 dyn[];\n.extern .shared .align 32 .b8 dyn2[];\n"
                    + ".shared .align 4 .b8 gbuf[20];\n.visible .entry k1(.param .u64 p)\n{\n.reg .b32 %r<3>;\n"
                    + "mov.u32 %r1, dyn;\nst.shared.u32 [%r1], 7;\nmov.u32 %r2, gbuf;\nst.shared.u32 [%r2], 7;\nret;\n}\n"},
            // (without functions: ptxas -g keeps an uncalled device function of a module without kernels, jptxas not yet)
            new String[] {"library", ".extern .shared .align 16 .b8 dyn[];\n"});

    private Path write(String name, String arch) throws Exception {
        Path p = dir.resolve(name + "-" + arch + ".ptx");
        String body = INPUTS.stream().filter(i -> i[0].equals(name)).findFirst().orElseThrow()[1];
        Files.writeString(p, String.format(HEAD, arch) + body);
        return p;
    }

    /**
     * The section's header facts and the section before it, its symbols (name, binding, type, value, size) and the
     * symbol before each; whether the reserved window's section and alias are written.
     */
    static String describe(Path cubin) throws Exception {
        Cubin c = Cubin.read(Files.readAllBytes(cubin));
        List<Section> sections = c.sections();
        List<Symbol> symbols = SymbolTable.decode(c, c.section(".symtab").orElseThrow());
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            if (s.name().equals(".nv.shared.reserved.0")) {
                out.append("reserved section; ");
            }
            if (s.name().equals(".nv_debug.shared")) {
                out.append("type 0x").append(Integer.toHexString(s.type())).append(" flags 0x")
                        .append(Long.toHexString(s.flags())).append(" size 0x").append(Long.toHexString(s.size()))
                        .append(" align ").append(s.addralign()).append(" after ").append(sections.get(i - 1).name())
                        .append("; ");
                for (int k = 0; k < symbols.size(); k++) {
                    Symbol y = symbols.get(k);
                    if (y.shndx() == i && !y.name().isEmpty()) {
                        out.append(y.name()).append(" info 0x").append(Integer.toHexString(y.info())).append(" at 0x")
                                .append(Long.toHexString(y.value())).append(" size ").append(y.size())
                                .append(" after ").append(symbols.get(k - 1).name()).append("; ");
                    }
                }
            }
        }
        for (Symbol y : symbols) {
            if (y.name().equals("__nv_reservedSMEM_offset_0_alias")) {
                out.append("alias; ");
            }
        }
        return out.length() == 0 ? "none" : out.toString().trim();
    }

    private String jptxas(String name, String arch) throws Exception {
        Path out = dir.resolve("j-" + name + "-" + arch + ".cubin");
        CliRun r = CliRun.run(dir, "-g", "-arch=" + arch, write(name, arch).toString(), "-o", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        return describe(out);
    }

    @Test
    void minusGNamesTheExternSharedVariables() throws Exception {
        assertEquals("none", jptxas("plain", "sm_90"));
        assertEquals("type 0x8 flags 0x3 size 0x400 align 16 after .nv.shared.k; dyn info 0x11 at 0x400 size 0 after k;",
                jptxas("one", "sm_90"));
        assertEquals("type 0x8 flags 0x3 size 0x0 align 16 after .nv.shared.k1; dyn info 0x11 at 0x70 size 0 after k1;",
                jptxas("several", "sm_80"));
        assertEquals("type 0x8 flags 0x3 size 0x400 align 16 after .nv.shared.k1; dyn info 0x11 at 0x420 size 0 after k1; "
                + "dyn2 info 0x11 at 0x400 size 0 after dyn;", jptxas("two", "sm_90"));
    }

    /** Each input on sm_80 and sm_90 with -g: the section, its symbols and the reserved window as ptxas 13 writes them. */
    @Test
    void asPtxas13WritesThem() throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        for (String[] input : INPUTS) {
            for (String arch : List.of("sm_80", "sm_90")) {
                Path theirs = dir.resolve("p-" + input[0] + "-" + arch + ".cubin");
                Processes.Result p = Processes.run(List.of(ptxas.toString(), "-g", "-arch=" + arch,
                        write(input[0], arch).toString(), "-o", theirs.toString()), dir);
                assertEquals(0, p.exitCode(), p.stderr());
                assertEquals(describe(theirs), jptxas(input[0], arch), input[0] + " on " + arch);
            }
        }
    }

    /** A Triton kernel (its {@code global_smem}) with -g on sm_90. */
    @Test
    void aTritonKernelAsPtxas13() throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        Path ptx = org.jptxas.testing.Corpus.assumeDir().resolve("ptx/triton_runner/v3.3.x__ptx__sm80__matmul_kernel.ptx");
        for (String arch : List.of("sm_80", "sm_90")) {
            Path theirs = dir.resolve("p-triton-" + arch + ".cubin");
            Processes.Result p = Processes.run(List.of(ptxas.toString(), "-g", "-arch=" + arch, ptx.toString(), "-o",
                    theirs.toString()), dir);
            assertEquals(0, p.exitCode(), p.stderr());
            Path ours = dir.resolve("j-triton-" + arch + ".cubin");
            CliRun r = CliRun.run(dir, "-g", "-arch=" + arch, ptx.toString(), "-o", ours.toString());
            assertEquals(0, r.exitCode(), r.err());
            assertEquals(describe(theirs), describe(ours), arch);
        }
    }
}
