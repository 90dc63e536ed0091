package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.ProgramHeader;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.Symbol;
import org.jptxas.cubin.SymbolTable;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code .nv_debug.shared}: ptxas 13 writes it, empty NOBITS (write+alloc, aligned as dynamic shared memory: at least
 * 16; sized as the window the system reserves, 0 on sm_80, 1 KiB on sm_90) after every other section, without a
 * symbol, for an executable module without kernels that declares {@code .extern .shared} variables (whether or not
 * its device functions use them; the PTX of device-function libraries such as the CUDA SDK's nbody). With a kernel
 * the kernel's shared section holds them, and relocatable output does not write it.
 */
class DebugSharedSectionTest {
    @TempDir
    Path dir;

    private static final String HEAD = ".version 8.0\n.target sm_80\n.address_size 64\n";
    private static final String FUNC = ".visible .func f(.param .u64 p)\n{\n.reg .b64 %rd<3>;\nmov.u64 %rd1, dyn;\n"
            + "st.shared.u32 [%rd1], 1;\nret;\n}\n";

    /** The inputs ptxas's rule is about, by name: the section or not, and its alignment. */
    private static final List<String[]> INPUTS = List.of(
            new String[] {"extern", HEAD + ".extern .shared .align 8 .b8 dyn[];\n"},
            new String[] {"extern-used", HEAD + ".extern .shared .align 16 .b8 dyn[];\n" + FUNC},
            new String[] {"extern-32", HEAD + ".extern .shared .align 16 .b8 dyn[];\n"
                    + ".extern .shared .align 32 .b8 dyn2[];\n"},
            new String[] {"kernel", HEAD + ".extern .shared .align 16 .b8 dyn[];\n.visible .entry k()\n{\nret;\n}\n"},
            new String[] {"static", HEAD + ".shared .align 8 .b8 buf[40];\n"});

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name + ".ptx");
        Files.writeString(p, text);
        return p;
    }

    /** The section's header facts, where it stands, and the symbols in it; "none" without it. */
    static String describe(Path cubin) throws Exception {
        Cubin c = Cubin.read(Files.readAllBytes(cubin));
        List<Section> sections = c.sections();
        for (int i = 0; i < sections.size(); i++) {
            Section s = sections.get(i);
            if (s.name().equals(".nv_debug.shared")) {
                List<String> symbols = new ArrayList<>();
                for (Symbol y : SymbolTable.decode(c, c.section(".symtab").orElseThrow())) {
                    if (y.shndx() == i) {
                        symbols.add(y.name().isEmpty() ? "(section)" : y.name());
                    }
                }
                return "type 0x" + Integer.toHexString(s.type()) + " flags 0x" + Long.toHexString(s.flags())
                        + " size 0x" + Long.toHexString(s.size()) + " align " + s.addralign() + " link " + s.link()
                        + " info " + s.info() + (i == sections.size() - 1 ? " last" : " at " + i) + " symbols " + symbols;
            }
        }
        return "none";
    }

    /**
     * The writable LOAD segments' memory beyond their file bytes (what the loader reserves for uninitialised data; the
     * file part depends on the section offsets, which differ with the tool note's length).
     */
    private static List<String> writable(Path cubin) throws Exception {
        List<String> out = new ArrayList<>();
        for (ProgramHeader h : Cubin.read(Files.readAllBytes(cubin)).programHeaders()) {
            if ((h.flags() & ProgramHeader.PF_W) != 0) {
                out.add("bss 0x" + Long.toHexString(h.memsz() - h.filesz()));
            }
        }
        return out;
    }

    private String jptxas(String name, String arch, String... options) throws Exception {
        Path out = dir.resolve("j-" + name + "-" + arch + options.length + ".cubin");
        List<String> args = new ArrayList<>(List.of(options));
        args.addAll(List.of("-arch=" + arch, write(name, text(name)).toString(), "-o", out.toString()));
        CliRun r = CliRun.run(dir, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        return describe(out);
    }

    private static String text(String name) {
        return INPUTS.stream().filter(i -> i[0].equals(name)).findFirst().orElseThrow()[1];
    }

    @Test
    void anExecutableWithoutKernelsRecordsItsExternSharedVariables() throws Exception {
        String empty = "type 0x" + Integer.toHexString(SectionType.NOBITS) + " flags 0x3 size 0x%x align %d link 0 info 0"
                + " last symbols []";
        assertEquals(String.format(empty, 0, 16), jptxas("extern", "sm_80"));
        assertEquals(String.format(empty, 0, 16), jptxas("extern-used", "sm_80"));
        assertEquals(String.format(empty, 0, 32), jptxas("extern-32", "sm_80"));
        assertEquals(String.format(empty, 0x400, 16), jptxas("extern", "sm_90"));
        assertEquals("none", jptxas("kernel", "sm_80"));
        assertEquals("none", jptxas("static", "sm_80"));
        assertEquals("none", jptxas("extern", "sm_80", "-c"));
    }

    /** Each input on sm_80 and sm_90, executable: the section as ptxas 13 writes it, and the segment holding it. */
    @Test
    void asPtxas13WritesIt() throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        for (String[] input : INPUTS) {
            for (String arch : List.of("sm_80", "sm_90")) {
                Path theirs = dir.resolve("p-" + input[0] + "-" + arch + ".cubin");
                Processes.Result p = Processes.run(List.of(ptxas.toString(), "-arch=" + arch,
                        write(input[0], input[1]).toString(), "-o", theirs.toString()), dir);
                assertEquals(0, p.exitCode(), p.stderr());
                String what = input[0] + " on " + arch;
                Path ours = dir.resolve("j-" + input[0] + "-" + arch + "0.cubin");
                assertEquals(describe(theirs), jptxas(input[0], arch), what);
                if (!input[0].equals("kernel")) {
                    // (ptxas also gives a kernel that does not use the module's .extern .shared variables an empty
                    // .nv.shared.<kernel>, with its own writable segment; jptxas does not yet)
                    assertEquals(writable(theirs), writable(ours), what + ": uninitialised data of the writable segments");
                }
            }
        }
    }
}
