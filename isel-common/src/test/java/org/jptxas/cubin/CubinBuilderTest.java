package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jptxas.cubin.info.NvInfo;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Facts of ptxas's {@code empty} kernel, rebuilt from scratch: the new cubin has ptxas's .nv.info.empty and global
 * records, reads back to the same facts, and CUDA 12.5's cuobjdump and nvdisasm accept it; nvlink links the
 * relocatable form.
 */
class CubinBuilderTest {
    @TempDir
    Path tmp;

    private static FunctionFacts empty(Cubin ptxas) {
        return CubinFacts.functions(ptxas).stream().filter(f -> f.name().equals("empty")).findFirst().orElseThrow();
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixture_sm_75.cubin", "fixture_sm_75_c.cubin", "fixture_sm_80.cubin", "fixture_sm_80_c.cubin",
            "fixture_sm_90.cubin", "fixture_sm_90_c.cubin", "fixture_sm_100.cubin", "fixture_sm_120_c.cubin"})
    void rebuiltKernelHasPtxasInfo(String name) {
        Cubin ptxas = Cubin.read(Fixtures.bytes(name));
        FunctionFacts facts = empty(ptxas);
        Cubin built = new CubinBuilder(ptxas.sm(), ptxas.header().relocatable()).add(facts).build();
        byte[] bytes = built.write();
        Cubin back = Cubin.read(bytes);
        assertArrayEquals(bytes, back.write());
        assertEquals(ptxas.header().flags(), back.header().flags());
        assertEquals(ptxas.header().type(), back.header().type());
        assertEquals(NvInfo.decode(ptxas.section(".nv.info.empty").orElseThrow().data(), "ptxas"),
                NvInfo.decode(back.section(".nv.info.empty").orElseThrow().data(), "jptxas"));
        FunctionFacts again = empty(back);
        assertEquals(facts.registers(), again.registers());
        assertArrayEquals(facts.code(), again.code());
        assertEquals(ptxas.section(".text.empty").orElseThrow().info() >>> 24, back.section(".text.empty").orElseThrow().info() >>> 24);
        if (ptxas.sm() >= 90) {
            assertArrayEquals(ptxas.section(".nv.compat").orElseThrow().data(), back.section(".nv.compat").orElseThrow().data());
        }
    }

    @org.junit.jupiter.api.Test
    void abiV7InfoEqualsCuda125() {
        Cubin ptxas = Cubin.read(Fixtures.bytes("fixture125_sm_75_c.cubin"));
        Cubin built = Cubin.read(new CubinBuilder(75, true).abiVersion7().add(empty(ptxas)).build().write());
        assertEquals(ptxas.header().flags(), built.header().flags());
        assertEquals(ptxas.header().osAbi(), built.header().osAbi());
        assertEquals(ptxas.header().version(), built.header().version());
        assertEquals(NvInfo.decode(ptxas.section(".nv.info.empty").orElseThrow().data(), "ptxas"),
                NvInfo.decode(built.section(".nv.info.empty").orElseThrow().data(), "jptxas"));
        assertEquals(ptxas.section(".text.empty").orElseThrow().info() >>> 24, built.section(".text.empty").orElseThrow().info() >>> 24);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixture_sm_75", "fixture_sm_80", "fixture_sm_90"})
    void cudaToolsAcceptRebuiltCubins(String stem) throws Exception {
        Path cuobjdump = Oracles.assumeCuobjdump();
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path nvlink = Oracles.assumeNvlink();
        for (boolean reloc : new boolean[] {false, true}) {
            Cubin ptxas = Cubin.read(Fixtures.bytes(stem + (reloc ? "_c" : "") + ".cubin"));
            Path file = tmp.resolve(stem + (reloc ? "_c" : "") + ".jptxas.cubin");
            CubinBuilder builder = new CubinBuilder(ptxas.sm(), reloc).add(empty(ptxas));
            // nvlink 12.5 links only ABI v7 objects (it rejects ptxas 13's own -c output: "abi does not match").
            Files.write(file, (reloc ? builder.abiVersion7() : builder).build().write());
            Processes.Result dump = Processes.run(List.of(cuobjdump.toString(), "-elf", file.toString()), tmp);
            assertEquals(0, dump.exitCode(), "cuobjdump: " + dump.stderr());
            Processes.Result dis = Processes.run(List.of(nvdisasm.toString(), file.toString()), tmp);
            assertEquals(0, dis.exitCode(), "nvdisasm: " + dis.stderr());
            assertEquals(true, dis.stdout().contains("EXIT"), dis.stdout());
            if (reloc) {
                Path linked = tmp.resolve(stem + ".linked.cubin");
                Processes.Result link = Processes.run(List.of(nvlink.toString(), "-arch=sm_" + ptxas.sm(), file.toString(),
                        "-o", linked.toString()), tmp);
                assertEquals(0, link.exitCode(), "nvlink: " + link.stdout() + link.stderr());
                Cubin out = Cubin.read(Files.readAllBytes(linked));
                assertEquals(ElfHeader.ET_EXEC, out.header().type());
                assertEquals(1, out.textSections().size());
            }
        }
    }
}
