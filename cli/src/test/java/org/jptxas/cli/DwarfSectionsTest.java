package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Relocation;
import org.jptxas.cubin.Relocations;
import org.jptxas.cubin.Section;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A {@code .target debug} PTX's own DWARF in the cubin, as ptxas 13 writes it (measured on NVVM's
 * vector_add_scalar.debug.ptx and zluda's vectorAdd_kernel64.ptx): the non-empty {@code .debug_abbrev},
 * {@code .debug_info} and {@code .debug_macinfo} copied in that order after the line tables and register maps, a
 * reference to another debug section 0, a kernel parameter its constant-bank-0 address, and each body label an R_CUDA_64 relocation against
 * the kernel in {@code .rela.debug_info} (the last word first): the body's first label 0, its last label the code's
 * end; in relocatable output also the section offsets. Without {@code .target debug} (and without -g) ptxas copies
 * none.
 */
class DwarfSectionsTest {
    @TempDir
    Path dir;

    private static final String PTX = ".version 8.5\n.target sm_80, debug\n.address_size 64\n"
            + ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n.reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n"
            + ".loc 1 4 0\n$L__func_begin0:\n.loc 1 4 0\nld.param.u64 %rd1, [k_param_0];\nld.param.u32 %r1, [k_param_1];\n"
            + "$L__tmp0:\n.loc 1 5 5\nmov.u32 %r2, %tid.x;\nadd.s32 %r2, %r2, %r1;\nst.u32 [%rd1], %r2;\n"
            + "$L__tmp1:\n.loc 1 6 1\nret;\n$L__func_end0:\n}\n.file 1 \"a.cu\"\n"
            + ".section .debug_abbrev\n{\n.b8 1\n.b8 17\n.b8 0\n.b8 0\n.b8 0\n}\n"
            + ".section .debug_info\n{\n.b32 30\n.b8 2\n.b8 0\n.b32 .debug_abbrev\n.b8 8\n"
            + ".b64 $L__func_begin0\n.b64 $L__tmp0\n.b64 $L__func_end0\n.b64 k_param_1\n.b8 0\n}\n"
            + ".section .debug_macinfo { }\n";

    @Test
    void copiesTheDwarfRelocatedToTheCode() throws Exception {
        Path ptx = dir.resolve("k.ptx");
        Files.writeString(ptx, PTX);
        Cubin cubin = compile(ptx, "-lineinfo");
        List<String> names = cubin.sections().stream().map(Section::name).toList();
        // after the line tables and the register maps (RegisterMapsTest)
        assertEquals(names.indexOf(".nv_debug_ptx_txt") + 3, names.indexOf(".debug_abbrev"), names.toString());
        assertEquals(names.indexOf(".debug_abbrev") + 1, names.indexOf(".debug_info"), names.toString());
        assertFalse(names.contains(".debug_macinfo"), "an empty section is not copied");
        assertArrayEquals(new byte[] {1, 17, 0, 0, 0}, cubin.section(".debug_abbrev").orElseThrow().data());
        byte[] info = cubin.section(".debug_info").orElseThrow().data();
        assertEquals(4 + 1 + 1 + 4 + 1 + 4 * 8 + 1, info.length);
        assertEquals(0, word(info, 6, 4), ".debug_abbrev's offset");
        assertEquals(0x160 + 8, word(info, 35, 8), "k_param_1's constant-bank-0 address on sm_80");
        List<Relocation> relocations = Relocations.decode(cubin.section(".rela.debug_info").orElseThrow());
        assertEquals(List.of(27L, 19L, 11L), relocations.stream().map(Relocation::offset).toList());
        long end = cubin.section(".text.k").orElseThrow().size();
        assertEquals(end, relocations.get(0).addend(), "$L__func_end0: the end of the code");
        assertTrue(relocations.get(1).addend() > 0 && relocations.get(1).addend() < end, "$L__tmp0 inside the code");
        assertEquals(0, relocations.get(2).addend(), "$L__func_begin0");
        for (Relocation r : relocations) {
            assertEquals(r.addend(), word(info, (int) r.offset(), 8), "the word holds its address too");
        }
    }

    /**
     * In relocatable output the references to other debug sections are relocated too, R_CUDA_32 against the section's
     * symbol, among the code addresses from the last word to the first (ptxas 13 -c on zluda's vectorAdd_kernel64).
     */
    @Test
    void relocatableOutputRelocatesTheSectionOffsets() throws Exception {
        Path ptx = dir.resolve("k.ptx");
        Files.writeString(ptx, PTX);
        Cubin cubin = compile(ptx, "-c");
        List<Relocation> relocations = Relocations.decode(cubin.section(".rela.debug_info").orElseThrow());
        assertEquals(List.of(27L, 19L, 11L, 6L), relocations.stream().map(Relocation::offset).toList());
        Relocation abbrev = relocations.get(3);
        assertEquals(Relocation.typeCode("R_CUDA_32"), abbrev.type());
        assertEquals(".debug_abbrev", cubin.symbols().get(abbrev.symbol()).name());
        assertEquals(Relocation.typeCode("R_CUDA_64"), relocations.get(0).type());
        assertEquals("k", cubin.symbols().get(relocations.get(0).symbol()).name());
    }

    @Test
    void withoutDebugTargetNothingIsCopied() throws Exception {
        Path ptx = dir.resolve("plain.ptx");
        Files.writeString(ptx, PTX.replace(".target sm_80, debug", ".target sm_80"));
        Cubin cubin = compile(ptx, "-lineinfo");
        assertTrue(cubin.section(".debug_line").isPresent());
        assertFalse(cubin.section(".debug_info").isPresent());
        assertFalse(cubin.section(".rela.debug_info").isPresent());
    }

    private Cubin compile(Path ptx, String option) throws Exception {
        Path out = dir.resolve(ptx.getFileName() + ".cubin");
        CliRun r = CliRun.run(dir, option, "-arch=sm_80", ptx.toString(), "-o", out.toString());
        assertEquals(0, r.exitCode(), r.err());
        return Cubin.read(Files.readAllBytes(out));
    }

    private static long word(byte[] b, int at, int width) {
        long v = 0;
        for (int k = width - 1; k >= 0; k--) {
            v = v << 8 | (b[at + k] & 0xff);
        }
        return v;
    }
}
