package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Prerequisites;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * With {@code -g} (or a {@code .target ..., debug} module) ptxas 13 keeps every device function of the module with its
 * code, in a section of its own, called or not (zluda's _Z9vectorAddPKfS0_Pfi.ptx: eleven functions, the kernel
 * calling none); without it a whole-program compilation keeps the kernels alone.
 */
class DebugDeviceFunctionsTest {
    @TempDir
    Path dir;

    private static final String PTX = ".version 8.5\n.target sm_80\n.address_size 64\n"
            + ".func (.param .b32 r) twice(.param .b32 a)\n{\n.reg .b32 %r<3>;\n.loc 1 2 0\nld.param.b32 %r1, [a];\n"
            + "add.s32 %r2, %r1, %r1;\nst.param.b32 [r], %r2;\n.loc 1 3 0\nret;\n}\n"
            + ".visible .func unused(.param .b64 p)\n{\n.reg .b64 %rd<2>;\n.loc 1 6 0\nld.param.b64 %rd1, [p];\n"
            + "st.u32 [%rd1], 1;\n.loc 1 7 0\nret;\n}\n"
            + ".visible .entry k(.param .u64 k_p)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<2>;\n.loc 1 10 0\n"
            + "ld.param.u64 %rd1, [k_p];\nmov.u32 %r1, %tid.x;\n{\n.param .b32 a0;\nst.param.b32 [a0], %r1;\n"
            + ".param .b32 r0;\ncall.uni (r0), twice, (a0);\nld.param.b32 %r2, [r0];\n}\n.loc 1 11 0\n"
            + "st.u32 [%rd1], %r2;\nret;\n}\n.file 1 \"a.cu\"\n";

    @Test
    void gKeepsEveryDeviceFunctionWithItsCode() throws Exception {
        Cubin g = compile("-g");
        assertEquals(new TreeSet<>(List.of(".text.k", ".text.twice", ".text.unused")), texts(g));
        for (String f : List.of("twice", "unused")) {
            assertTrue(g.section(".text." + f).orElseThrow().size() > 0, f);
        }
        List<RegisterMapsTest.Entry> entries = RegisterMapsTest.decode(g);
        assertTrue(entries.stream().anyMatch(e -> e.function().equals("twice") && e.register().equals("%r2")),
                entries.toString());
        String listing = JnvdisasmRunner.listing(dir.resolve("k.cubin"));
        assertTrue(listing.contains("CALL"), "the kernel calls twice:\n" + listing);
    }

    @Test
    void withoutGTheKernelIsKeptAlone() throws Exception {
        assertEquals(new TreeSet<>(List.of(".text.k")), texts(compile("-lineinfo")));
    }

    @Test
    void ptxasKeepsTheSameFunctions() throws Exception {
        Oracles.assumePtxas13();
        Path ptx = dir.resolve("k.ptx");
        Files.writeString(ptx, PTX, StandardCharsets.ISO_8859_1);
        Cubin theirs = Cubin.read(Files.readAllBytes(OracleCubins.ptxas13(ptx, "sm_80", "-g").cubin().orElseThrow()));
        assertEquals(texts(theirs), texts(compile("-g")));
        Cubin plain = Cubin.read(Files.readAllBytes(OracleCubins.ptxas13(ptx, "sm_80").cubin().orElseThrow()));
        assertFalse(texts(plain).contains(".text.unused"));
    }

    /**
     * Function pointers are resolved in the caller's section only: a module taking function addresses keeps its
     * whole-program shape under -g (gpuocelot's functions__indirectCall.ptx; with its functions kept nvdisasm refused
     * the cubin: "Multiple EIATTR_REGCOUNT").
     */
    @Test
    void aModuleTakingFunctionAddressesKeepsItsWholeProgramShape() throws Exception {
        Path ptx = Corpus.assumeDir().resolve("ptx/gpuocelot/functions__indirectCall.ptx");
        Prerequisites.require(Files.isRegularFile(ptx), ptx + " missing");
        String text = Files.readString(ptx, StandardCharsets.ISO_8859_1);
        assertEquals(texts(compile(text, "-lineinfo")), texts(compile(text, "-g")));
        Oracles.nvdisasm().ifPresent(nvdisasm -> {
            Processes.Result r = Processes.run(List.of(nvdisasm.toString(), "-c", "-g",
                    dir.resolve("k.cubin").toString()), dir);
            assertEquals(0, r.exitCode(), r.stderr());
        });
    }

    private static TreeSet<String> texts(Cubin c) {
        TreeSet<String> out = new TreeSet<>();
        c.sections().stream().map(Section::name).filter(n -> n.startsWith(".text.")).forEach(out::add);
        return out;
    }

    private Cubin compile(String option) throws Exception {
        return compile(PTX, option);
    }

    private Cubin compile(String ptx, String option) throws Exception {
        Path file = dir.resolve("k.ptx");
        Files.writeString(file, ptx, StandardCharsets.ISO_8859_1);
        Path out = dir.resolve("k.cubin");
        List<String> args = new ArrayList<>(List.of(option, "-arch=sm_80", file.toString(), "-o", out.toString()));
        CliRun r = CliRun.run(dir, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        return Cubin.read(Files.readAllBytes(out));
    }
}
