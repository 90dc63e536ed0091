package org.jptxas.isel.codegen;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFacts;
import org.jptxas.cubin.FunctionFacts;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.spi.CompileOptions;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;
import org.jptxas.spi.IrObserver;

class ModuleCodegenTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_90"})
    void constantAndGlobalVariablesGetTheirSections(String arch) throws Exception {
        org.jptxas.ori.ir.OriModule m = SaxpyOri.module(arch);
        byte[] init = {1, 2, 3, 4, 5, 6, 7, 8};
        m = new org.jptxas.ori.ir.OriModule(m.sourceName(), m.target(), m.functions(), List.of(
                new org.jptxas.ori.ir.GlobalVar("coeffs", org.jptxas.ori.ir.GlobalVar.Space.CONSTANT, 8, 4, 8, init, false),
                new org.jptxas.ori.ir.GlobalVar("table", org.jptxas.ori.ir.GlobalVar.Space.GLOBAL, 8, 8, 0, init, true)));
        ModuleCodegen.Result r = new ModuleCodegen(CodegenPipeline.naive(TestTargets.of(arch))).compile(m, Target.of(arch),
                CompileOptions.defaults(), IrObserver.NONE, false);
        Cubin cubin = Cubin.read(r.cubin());
        assertTrue(cubin.section(".nv.constant4").isEmpty(), "no address table without address uses");
        var bank3 = cubin.section(".nv.constant3").orElseThrow();
        assertEquals(16, bank3.size());
        assertArrayEquals(init, java.util.Arrays.copyOfRange(bank3.data(), 8, 16));
        assertTrue(cubin.section(".nv.global.init").isPresent());
        if (arch.equals("sm_80")) {
            assertTrue(r.resourceReport().startsWith("jptxas info    : 8 bytes gmem, 16 bytes cmem[3]"), r.resourceReport());
        }
    }

    static ModuleCodegen.Result compile(String arch) throws Exception {
        return new ModuleCodegen(CodegenPipeline.naive(TestTargets.of(arch))).compile(SaxpyOri.module(arch), Target.of(arch),
                CompileOptions.defaults(), IrObserver.NONE, false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_80", "sm_89"})
    void globalAddressesComeFromARelocatedBank4Table(String arch) throws Exception {
        org.jptxas.ori.ir.OriModule m = SaxpyOri.module(arch);
        var body = m.functions().get(0).body();
        var lo = body.newVirtual(org.jptxas.ori.ir.RegFile.R, 1);
        var hi = body.newVirtual(org.jptxas.ori.ir.RegFile.R, 1);
        var sym = new org.jptxas.ori.ir.Sym("table", org.jptxas.ori.ir.Sym.Kind.GLOBAL, org.jptxas.ori.ir.Sym.Part.LO32, 0);
        var symHi = new org.jptxas.ori.ir.Sym("table", org.jptxas.ori.ir.Sym.Kind.GLOBAL, org.jptxas.ori.ir.Sym.Part.HI32, 0);
        var b1 = body.block(1).instrs();
        b1.add(0, SaxpyOri.op("MOV", List.of(), List.of(lo), sym));
        b1.add(1, SaxpyOri.op("MOV", List.of(), List.of(hi), symHi));
        b1.add(2, SaxpyOri.op("STG", List.of("E"), List.of(), org.jptxas.ori.ir.Addr.of(b1.get(4).dsts().get(0), 0), lo));
        m = new org.jptxas.ori.ir.OriModule(m.sourceName(), m.target(), m.functions(), List.of(
                new org.jptxas.ori.ir.GlobalVar("table", org.jptxas.ori.ir.GlobalVar.Space.GLOBAL, 8, 8, 0, null, true)));
        ModuleCodegen.Result r = new ModuleCodegen(CodegenPipeline.naive(TestTargets.of(arch))).compile(m, Target.of(arch),
                CompileOptions.defaults(), IrObserver.NONE, false);
        Cubin cubin = Cubin.read(r.cubin());
        assertEquals(8, cubin.section(".nv.constant4").orElseThrow().size());
        assertTrue(cubin.section(".rel.nv.constant4").isPresent());
        assertTrue(r.sass().contains("MOV R") && r.sass().contains("c[0x4][0x0]") && r.sass().contains("c[0x4][0x4]"), r.sass());
    }

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void saxpyBecomesACubinWhoseCodeDecodesToOurText(String arch) throws Exception {
        ModuleCodegen.Result r = compile(arch);
        Cubin cubin = Cubin.read(r.cubin());
        List<FunctionFacts> fs = CubinFacts.functions(cubin);
        assertEquals(1, fs.size());
        FunctionFacts f = fs.get(0);
        assertEquals("saxpy", f.name());
        byte[] code = f.code();
        assertEquals(0, code.length % 128, "code padded to 128 bytes");
        List<CodeLine> lines = r.functions().get(0).code();
        assertEquals(code.length / 16, lines.size());
        SassIsa isa = TestTargets.of(arch).isa();
        for (int i = 0; i < lines.size(); i++) {
            SassInstruction d = isa.decode(SassIsa.le64(code, 16 * i), SassIsa.le64(code, 16 * i + 8));
            assertTrue(d instanceof SassInstruction.Known, "decodes: " + lines.get(i).text());
            assertEquals(lines.get(i).control(), d.control(), "control of " + lines.get(i).text());
        }
        String last = SassPrinter.text(isa.decode(SassIsa.le64(code, code.length - 16), SassIsa.le64(code, code.length - 8)),
                code.length - 16, null);
        assertEquals("NOP", last);
        // Every EXIT is recorded (the branch to the exit block became a guarded EXIT, as ptxas writes it).
        int[] exits = java.util.stream.IntStream.range(0, lines.size())
                .filter(i -> lines.get(i).mnemonic().equals("EXIT")).map(i -> i * 16).toArray();
        assertEquals(2, exits.length, r.sass());
        assertArrayEquals(exits, f.exitOffsets());
        assertEquals(24, f.paramBytes());
        assertTrue(r.sass().contains("EXIT ;"), r.sass());
        // sm_80 … sm_89 read the global memory descriptor from UR4 (a hidden field); it is loaded once at the entry.
        boolean descriptor = r.sass().contains("ULDC.64 UR4, c[0x0][0x118]");
        assertEquals(arch.equals("sm_80") || arch.equals("sm_86") || arch.equals("sm_89"), descriptor, r.sass());
        assertTrue(r.resourceReport().contains("Compiling entry function 'saxpy' for '" + arch + "'"), r.resourceReport());
    }
}
