package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Relocation;
import org.jptxas.cubin.Relocations;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.jptxas.cubin.Symbol;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.exec.ExecutionLimits;
import org.jptxas.simulator.exec.Launch;
import org.jptxas.simulator.exec.LaunchResult;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.ptx.PtxInterpreter;
import org.jptxas.simulator.sass.SassEmulator;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Addresses of variables in variables' initializers ({@code generic(x)+N}, {@code x+N}, a plain {@code x}, in
 * {@code .global} and {@code .const} holders, 64- and 32-bit): the cubin holds zeros there and R_CUDA_G64 relocations
 * against the addressed variable in {@code .rel[a].nv.global.init} / {@code .rel[a].nv.constant3}, as ptxas 13
 * writes them; the emulator and the interpreter apply them.
 */
class InitializerAddressesTest {
    private static final Path PTX = Path.of("cli/src/test/resources/org/jptxas/cli/relocations/initializers.ptx");

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_90", "sm_80 -c", "sm_90 -c"})
    void relocatedDataMatchesPtxas(String how, @TempDir Path dir) throws IOException {
        Oracles.assumePtxas13();
        Path ptx = RepoRoot.find().orElseThrow().resolve(PTX);
        String sm = how.split(" ")[0];
        boolean relocatable = how.endsWith("-c");
        OracleCubins.Compiled c = relocatable ? OracleCubins.ptxas13(ptx, sm, "-c") : OracleCubins.ptxas13(ptx, sm);
        assertTrue(c.ok(), c.diagnostics());
        Cubin theirs = Cubin.read(Files.readAllBytes(c.cubin().orElseThrow()));
        Cubin ours = Cubin.read(jptxas(ptx, dir, sm, relocatable));
        assertEquals(dataRelocations(theirs), dataRelocations(ours), how);
        assertTrue(dataRelocations(ours).size() >= (sm.equals("sm_90") ? 2 : 4), "every kind of section is made");
        assertEquals(variables(theirs), variables(ours), how);
    }

    @Test
    void jcuobjdumpPrintsDataRelocationsAsCuobjdump(@TempDir Path dir) throws IOException {
        Path cuobjdump = Oracles.assumeCuobjdump();
        Oracles.assumePtxas13();
        Path ptx = RepoRoot.find().orElseThrow().resolve(PTX);
        for (String sm : List.of("sm_80", "sm_90")) {
            Path cubin = OracleCubins.ptxas13(ptx, sm).cubin().orElseThrow();
            String expected = ToolDropInTest.stable(Processes.run(List.of(cuobjdump.toString(), "-elf",
                    cubin.toString()), cubin.getParent()).stdout());
            assertTrue(expected.contains(".rela.nv.global.init") && expected.contains("R_CUDA_G64"), expected);
            String mine = ToolDropInTest.stable(ToolDropInTest.jcuobjdump(Files.readAllBytes(cubin)));
            assertEquals("", expected.equals(mine) ? "" : ToolDropInTest.firstDifference(expected, mine), sm);
        }
    }

    /** A kernel that reads a string through {@code msg} and an int through {@code ptr} and writes them out. */
    private static final String READER = String.join("\n",
            ".version 8.0", ".target sm_80", ".address_size 64",
            ".global .align 1 .b8 $str[4] = {104, 105, 33};",
            ".global .align 8 .u64 msg = generic($str);",
            ".global .align 4 .b8 data[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};",
            ".global .align 8 .u64 ptr = generic(data)+8;",
            ".const .align 8 .u64 cptr = generic(data)+12;",
            ".visible .entry reader(.param .u64 out)", "{",
            "  .reg .b16 %rs<4>; .reg .b32 %r<3>; .reg .b64 %rd<9>;",
            "  ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;",
            "  ld.global.u64 %rd3, [msg]; cvta.to.global.u64 %rd4, %rd3;",
            "  ld.global.u8 %rs1, [%rd4]; st.global.u8 [%rd2], %rs1;",
            "  ld.global.u8 %rs2, [%rd4+1]; st.global.u8 [%rd2+1], %rs2;",
            "  ld.global.u8 %rs3, [%rd4+2]; st.global.u8 [%rd2+2], %rs3;",
            "  ld.global.u64 %rd5, [ptr]; cvta.to.global.u64 %rd6, %rd5;",
            "  ld.global.u32 %r1, [%rd6]; st.global.u32 [%rd2+4], %r1;",
            "  ld.const.u64 %rd7, [cptr]; cvta.to.global.u64 %rd8, %rd7;",
            "  ld.global.u32 %r2, [%rd8]; st.global.u32 [%rd2+8], %r2;",
            "  ret;", "}", "");

    @Test
    void kernelsReadThroughRelocatedPointers(@TempDir Path dir) throws Exception {
        Path ptx = dir.resolve("reader.ptx");
        Files.writeString(ptx, READER);
        String spec = "{\"entry\":\"reader\",\"grid\":[1,1,1],\"block\":[1,1,1],\"params\":[{\"type\":\"ptr\","
                + "\"bytes\":12}]}";
        byte[] expected = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN).put(new byte[] {'h', 'i', '!', 0})
                .putInt(3).putInt(4).array();

        SassEmulator emu = SassEmulator.fromCubin(TestTargets.of("sm_80"), jptxas(ptx, dir, "sm_80", false));
        Launch launch = Launch.prepare(Target.of("sm_80"), LaunchSpecReader.parse("spec.json", spec, dir));
        LaunchResult r = emu.execute(launch, ExecutionLimits.DEFAULT);
        assertTrue(r.completed(), () -> r.fault().orElseThrow().describe());
        assertEquals(Arrays.toString(expected),
                Arrays.toString(launch.arguments().get(0).buffer().orElseThrow().bytes()), "SASS emulator");

        PtxInterpreter interp = PtxInterpreter.load("reader.ptx", READER);
        Launch launch2 = Launch.prepare(Target.of("sm_80"), LaunchSpecReader.parse("spec.json", spec, dir));
        LaunchResult r2 = interp.execute(launch2, ExecutionLimits.DEFAULT);
        assertTrue(r2.completed(), () -> r2.fault().orElseThrow().describe());
        assertEquals(Arrays.toString(expected),
                Arrays.toString(launch2.arguments().get(0).buffer().orElseThrow().bytes()), "PTX interpreter");
    }

    private static byte[] jptxas(Path ptx, Path dir, String sm, boolean relocatable) throws IOException {
        Path out = dir.resolve("j-" + sm + (relocatable ? "-c" : "") + ".cubin");
        StringWriter err = new StringWriter();
        List<String> args = new ArrayList<>(List.of("-arch=" + sm, ptx.toString(), "-o", out.toString()));
        if (relocatable) {
            args.add(0, "-c");
        }
        int rc = new JptxasCommand(new PrintWriter(new StringWriter()), new PrintWriter(err), Map.of(), null, dir)
                .run(args.toArray(String[]::new));
        assertEquals(0, rc, err.toString());
        return Files.readAllBytes(out);
    }

    /**
     * The relocation sections of module data in section order, each with its entries in order, told by the variable
     * they patch and the offset in it (the two compilers may lay the variables out differently).
     */
    private static List<String> dataRelocations(Cubin cubin) {
        List<String> out = new ArrayList<>();
        List<Section> sections = cubin.sections();
        for (Section s : sections) {
            if ((s.type() != SectionType.REL && s.type() != SectionType.RELA)
                    || !sections.get(s.info()).name().matches("\\.nv\\.(global\\.init|constant3)")) {
                continue;
            }
            out.add(s.name());
            for (Relocation r : Relocations.decode(s)) {
                Symbol holder = holderOf(cubin, s.info(), r.offset());
                out.add("  " + holder.name() + "+" + (r.offset() - holder.value()) + " " + r.typeName() + " "
                        + cubin.symbols().get(r.symbol()).name() + "+" + r.addend());
            }
        }
        return out;
    }

    private static Symbol holderOf(Cubin cubin, int section, long offset) {
        return cubin.symbols().stream().filter(y -> y.shndx() == section && y.symbolType() != Symbol.STT_SECTION
                && offset >= y.value() && offset < y.value() + y.size()).findFirst().orElseThrow();
    }

    /** Each module variable's initial bytes, by name. */
    private static List<String> variables(Cubin cubin) {
        List<String> out = new ArrayList<>();
        for (Symbol y : cubin.symbols()) {
            if (y.shndx() <= 0 || y.shndx() >= cubin.sections().size() || y.symbolType() == Symbol.STT_SECTION) {
                continue;
            }
            Section s = cubin.sections().get(y.shndx());
            if (s.name().equals(".nv.global.init") || s.name().equals(".nv.constant3")) {
                out.add(y.name() + " " + java.util.HexFormat.of().formatHex(
                        Arrays.copyOfRange(s.data(), (int) y.value(), (int) (y.value() + y.size()))));
            }
        }
        out.sort(null);
        return out;
    }
}
