package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A kernel that calls a device function and stores to a global, rebuilt from ptxas's facts and relocations
 * ({@code call.ptx}): the relocation sections equal ptxas's (by symbol name), and nvlink 12.5 links the ABI v7 form.
 */
class CubinBuilderRelocationTest {
    @TempDir
    Path tmp;

    /** Rebuilds {@code ptxas} with the builder, copying its code relocations and its global {@code total}. */
    static Cubin rebuild(Cubin ptxas, boolean abiV7) {
        CubinBuilder b = new CubinBuilder(ptxas.sm(), ptxas.header().relocatable());
        if (abiV7) {
            b.abiVersion7();
        }
        CubinFacts.functions(ptxas).forEach(b::add);
        b.global(new CubinBuilder.GlobalVariable("total", 4, 4, null, false));
        List<Symbol> symbols = ptxas.symbols();
        for (Section s : ptxas.sections()) {
            if ((s.type() == SectionType.REL || s.type() == SectionType.RELA) && s.name().contains(".text.")) {
                String fn = ptxas.section(s.info()).functionName();
                for (Relocation r : Relocations.decode(s)) {
                    b.relocation(new CubinBuilder.CodeRelocation(fn, r.offset(), r.typeName(), symbols.get(r.symbol()).name(),
                            r.addend()));
                }
            }
        }
        return Cubin.read(b.build().write());
    }

    static List<String> codeRelocations(Cubin c) {
        List<String> out = new ArrayList<>();
        List<Symbol> symbols = c.symbols();
        for (Section s : c.sections()) {
            if ((s.type() == SectionType.REL || s.type() == SectionType.RELA) && s.name().contains(".text.")) {
                for (Relocation r : Relocations.decode(s)) {
                    out.add(s.name() + " 0x" + Long.toHexString(r.offset()) + " " + symbols.get(r.symbol()).name() + " "
                            + r.typeName() + " " + r.addend());
                }
            }
        }
        out.sort(null);
        return out;
    }

    @Test
    void relocationsEqualPtxas() {
        for (String name : List.of("call125_sm_75_c.cubin", "call_sm_90_c.cubin")) {
            Cubin ptxas = Cubin.read(Fixtures.bytes(name));
            Cubin built = rebuild(ptxas, name.startsWith("call125"));
            List<String> expected = codeRelocations(ptxas);
            assertEquals(5, expected.size(), expected.toString());
            assertEquals(expected, codeRelocations(built), name);
            Symbol total = built.symbols().stream().filter(s -> s.name().equals("total")).findFirst().orElseThrow();
            assertEquals(".nv.global", built.section(total.shndx()).name());
            assertEquals(4, total.size());
        }
    }

    @Test
    void nvlinkLinksTheRebuiltObject() throws Exception {
        Path nvlink = Oracles.assumeNvlink();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Path in = tmp.resolve("call.cubin");
        Files.write(in, rebuild(Cubin.read(Fixtures.bytes("call125_sm_75_c.cubin")), true).write());
        Path out = tmp.resolve("linked.cubin");
        Processes.Result link = Processes.run(List.of(nvlink.toString(), "-arch=sm_75", in.toString(), "-o", out.toString()), tmp);
        assertEquals(0, link.exitCode(), link.stdout() + link.stderr());
        Cubin linked = Cubin.read(Files.readAllBytes(out));
        assertEquals(ElfHeader.ET_EXEC, linked.header().type());
        assertTrue(codeRelocations(linked).stream().anyMatch(r -> r.contains("twice R_CUDA_ABS47_34")), codeRelocations(linked).toString());
        Processes.Result dump = Processes.run(List.of(cuobjdump.toString(), "-elf", out.toString()), tmp);
        assertEquals(0, dump.exitCode(), dump.stderr());
    }
}
