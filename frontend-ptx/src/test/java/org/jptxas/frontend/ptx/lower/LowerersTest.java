package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.GlobalVar;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.spi.TestTargets;

/** Focused checks of the lowering framework and each lowerer: the Ori each PTX form becomes. */
class LowerersTest {
    static final String HEADER = ".version 8.0\n.target sm_80\n.address_size 64\n";

    static OriModule module(String ptx, String sm) throws CompilationException {
        return TestFrontEnds.of(Target.of(sm)).check("t.ptx", ptx).lower();
    }

    /** Lowers a kernel with the given declarations/body and returns its instructions as text, one per line. */
    static List<String> kernel(String params, String body) throws CompilationException {
        return kernel(params, body, "sm_80");
    }

    static List<String> kernel(String params, String body, String sm) throws CompilationException {
        OriModule m = module(HEADER + ".visible .entry k(" + params + ")\n{\n" + body + "\n}\n", sm);
        OriFunction f = m.functions().get(0);
        // snippets read registers they never write: only structural problems count here
        assertEquals(List.of(), IrVerifier.verify(f.name(), f.body()).stream()
                .filter(p -> !p.contains("used but never defined")).toList());
        assertEquals(List.of(), new NaiveSass().check(f).stream().filter(p -> !NaiveSass.tableGap(p)).toList());
        return text(f);
    }

    static List<String> text(OriFunction f) {
        List<String> out = new ArrayList<>();
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                out.add(in.toString());
            }
        }
        return out;
    }

    static void assertHas(List<String> code, String... lines) {
        for (String l : lines) {
            assertTrue(code.contains(l), "missing '" + l + "' in\n" + String.join("\n", code));
        }
    }

    @Test
    void kernelsStartWithTheStackPointerAndEndInExit() throws Exception {
        List<String> code = kernel("", "ret;");
        assertEquals(List.of("MOV R1, c[0x0][0x28]", "EXIT"), code);
    }

    @Test
    void parametersComeFromConstantBankZeroAtTheTargetsBase() throws Exception {
        String params = ".param .u32 n, .param .u64 p";
        String body = ".reg .b32 %r<2>; .reg .b64 %rd<2>;\nld.param.u32 %r1, [n];\nld.param.u64 %rd1, [p];\n"
                + "st.global.u32 [%rd1], %r1;";
        assertHas(kernel(params, body), "MOV %r0, c[0x0][0x160]", "MOV %r1.lo, c[0x0][0x168]", "MOV %r1.hi, c[0x0][0x16c]");
        assertHas(kernel(params, body, "sm_90"), "MOV %r0, c[0x0][0x210]");
        OriFunction f = module(HEADER + ".visible .entry k(" + params + ")\n{\nret;\n}\n", "sm_80").functions().get(0);
        assertEquals(16, f.attrs().paramBytes());
        assertEquals(8, f.attrs().params().get(1).offset());
    }

    @Test
    void saxpyUsesPtxassIdioms() throws Exception {
        String body = ".reg .pred %p<2>; .reg .f32 %f<5>; .reg .b32 %r<6>; .reg .b64 %rd<8>;\n"
                + "ld.param.u32 %r2, [n];\nld.param.f32 %f1, [a];\nld.param.u64 %rd1, [x];\n"
                + "mov.u32 %r3, %ctaid.x;\nmov.u32 %r4, %ntid.x;\nmov.u32 %r5, %tid.x;\nmad.lo.s32 %r1, %r3, %r4, %r5;\n"
                + "setp.ge.u32 %p1, %r1, %r2;\n@%p1 bra $L__BB0_2;\ncvta.to.global.u64 %rd4, %rd1;\n"
                + "mul.wide.u32 %rd5, %r1, 4;\nadd.s64 %rd6, %rd4, %rd5;\nld.global.f32 %f2, [%rd6];\n"
                + "fma.rn.f32 %f4, %f2, %f1, %f2;\nst.global.f32 [%rd6], %f4;\n$L__BB0_2:\nret;";
        List<String> code = kernel(".param .u32 n, .param .f32 a, .param .u64 x", body);
        assertHas(code, "S2R %r4, SR_CTAID.X", "MOV %r5, c[0x0][0x0]", "S2R %r7, SR_TID.X",
                "IMAD %r8, %r3, %r5, %r6", "ISETP.GE.U32.AND %p0, PT, %r8, %r0, PT", "@%p0 BRA bb2",
                "IMAD_WIDE.U32 %r10.64, %r8, 0x4, RZ", "IADD3 %r11.lo, %p1, PT, %r9.lo, %r10.lo, RZ",
                "IADD3.X %r11.hi, PT, PT, %r9.hi, %r10.hi, RZ, %p1, !PT", "LDG.E %r12, [%r11.64]",
                "FFMA %r13, %r12, %r1, %r12", "STG.E [%r11.64], %r13", "EXIT");
    }

    @Test
    void specialRegistersAsPtxasReadsThem() throws Exception {
        String body = ".reg .b32 %r<9>; .reg .b64 %rd<3>;\nmov.u32 %r1, %laneid;\nmov.u32 %r2, %warpid;\n"
                + "mov.u32 %r3, %clock;\nmov.u64 %rd1, %clock64;\nmov.u64 %rd2, %globaltimer;\n"
                + "mov.u32 %r4, %lanemask_lt;\nmov.u32 %r5, %nctaid.y;\nmov.u32 %r6, %smid;\nmov.u32 %r7, %nwarpid;";
        assertHas(kernel("", body), "S2R %r1, SR_LANEID", "S2R %r3, SR_VIRTID", "SHF.R.U32.HI %r4, RZ, 0x8, %r3",
                "SGXT.U32 %r5, %r4, 0x7", "CS2R_32 %r7, SR_CLOCKLO", "CS2R_64 %r9.64, SR_CLOCKLO",
                "CS2R_64 %r11.64, SR_GLOBALTIMERLO", "S2R %r13, SR_LTMASK", "MOV %r14, c[0x0][0x10]",
                "S2R %r16, SR_VIRTUALSMID", "MOV %r17, 0x40");
    }

    @Test
    void integerArithmetic() throws Exception {
        String body = ".reg .b32 %r<9>; .reg .b64 %rd<6>;\nsub.s32 %r1, %r2, %r3;\nsub.s32 %r1, %r1, 5;\n"
                + "mul.hi.u32 %r4, %r1, %r2;\nmul.lo.s64 %rd1, %rd2, %rd3;\nsub.s64 %rd4, %rd1, %rd2;\n"
                + "min.u32 %r5, %r1, %r2;\nmax.s32 %r6, %r1, 7;\nabs.s32 %r7, %r6;\nneg.s32 %r8, %r7;\n"
                + "add.cc.u32 %r1, %r2, %r3;\naddc.u32 %r4, %r5, %r6;";
        List<String> code = kernel("", body);
        assertHas(code, "IADD3 %r0, PT, PT, %r1, -%r2, RZ", "IADD3 %r0, PT, PT, %r0, 0xfffffffb, RZ",
                "IMAD.HI.U32 %r3, %r0, %r1, RZ", "IMNMX.U32 %r10, %r0, %r1, PT", "IMNMX %r11, %r0, 0x7, !PT",
                "IABS %r12, %r11", "IADD3 %r13, PT, PT, -%r12, RZ, RZ", "IMAD_WIDE.U32 %r7.64, %r5.lo, %r6.lo, RZ",
                "IMAD %r8, %r5.lo, %r6.hi, %r7.hi", "IMAD %r4.hi, %r5.hi, %r6.lo, %r8", "MOV %r4.lo, %r7.lo");
        assertTrue(code.stream().anyMatch(l -> l.matches("IADD3 %r0, %p\\d+, PT, %r1, %r2, RZ")), code.toString());
        assertTrue(code.stream().anyMatch(l -> l.matches("IADD3.X %r\\d+, PT, PT, %r\\d+, %r\\d+, RZ, %p\\d+, !PT")), code.toString());
        assertTrue(code.stream().anyMatch(l -> l.matches("IADD3.X %r\\d+.hi, PT, PT, %r\\d+.hi, !%r\\d+.hi, RZ, %p\\d+, !PT")),
                "64-bit subtraction inverts the high half: " + code);
    }

    @Test
    void comparisonsAndSelects() throws Exception {
        String body = ".reg .pred %p<4>; .reg .b32 %r<4>; .reg .b64 %rd<4>; .reg .f32 %f<3>;\n"
                + "setp.lt.s64 %p1, %rd1, %rd2;\nsetp.gtu.ftz.f32 %p2|%p3, %f1, %f2;\n"
                + "setp.eq.and.u32 %p1, %r1, 3, %p2;\nselp.b32 %r2, %r1, 9, %p1;\nselp.f32 %f1, %f2, %f1, %p3;"
                + "\nselp.b64 %rd3, %rd1, %rd2, %p1;";
        List<String> code = kernel("", body);
        assertTrue(code.stream().anyMatch(l -> l.matches("ISETP.LT.U32.AND %p\\d+, PT, %r0.lo, %r1.lo, PT")), code.toString());
        assertTrue(code.stream().anyMatch(l -> l.matches("ISETP.LT.AND.EX %p0, PT, %r0.hi, %r1.hi, PT, %p\\d+")), code.toString());
        assertHas(code, "FSETP.GTU.FTZ.AND %p2, %p3, %r2, %r3, PT", "ISETP.EQ.AND %p0, PT, %r4, 0x3, %p2",
                "SEL %r5, %r4, 0x9, %p0", "FSEL %r2, %r3, %r2, %p3", "SEL %r6.lo, %r0.lo, %r1.lo, %p0",
                "SEL %r6.hi, %r0.hi, %r1.hi, %p0");
    }

    @Test
    void logicAndShifts() throws Exception {
        String body = ".reg .pred %p<4>; .reg .b32 %r<6>; .reg .b64 %rd<4>;\nand.b32 %r1, %r2, 255;\n"
                + "or.b64 %rd1, %rd2, %rd3;\nnot.b32 %r3, %r1;\nxor.pred %p1, %p2, %p3;\nshl.b32 %r4, %r1, 3;\n"
                + "shr.s32 %r5, %r1, %r2;\nshr.u64 %rd1, %rd2, 7;\nshl.b64 %rd3, %rd2, 40;";
        List<String> code = kernel("", body);
        assertHas(code, "LOP3.LUT PT, %r0, %r1, 0xff, RZ, 0xc0, !PT", "LOP3.LUT PT, %r2.lo, %r3.lo, %r4.lo, RZ, 0xfc, !PT",
                "LOP3.LUT PT, %r5, %r0, RZ, RZ, 0xf, !PT", "PLOP3.LUT %p0, PT, %p1, %p2, PT, 0x3c, 0x0",
                "SHF.L.U32 %r6, %r0, 0x3, RZ", "SHF.R.S32.HI %r7, RZ, %r1, %r0", "SHF.R.U32.HI %r2.hi, RZ, 0x7, %r3.hi",
                "SHF.L.U32 %r4.hi, %r3.lo, 0x8, RZ", "MOV %r4.lo, RZ");
    }

    @Test
    void memorySpacesAndOrders() throws Exception {
        String body = ".reg .b32 %r<6>; .reg .b64 %rd<3>; .reg .f32 %f<5>;\n.shared .align 16 .b8 tile[64];\n"
                + ".local .align 4 .b8 buf[32];\nld.volatile.global.u32 %r1, [%rd1+4];\nld.acquire.gpu.global.u32 %r2, [%rd1];\n"
                + "st.release.gpu.global.u32 [%rd1], %r2;\nld.global.nc.v4.f32 {%f1, %f2, %f3, %f4}, [%rd1+16];\n"
                + "st.shared.u16 [tile+2], %r1;\nld.shared.u32 %r3, [%r4+8];\nst.local.u32 [buf+4], %r3;\n"
                + "ld.u8 %r5, [%rd2];\nst.global.cs.u32 [%rd1], %r5;";
        List<String> code = kernel("", body);
        assertEquals(List.of("MOV R1, c[0x0][0x28]", "IADD3 R1, PT, PT, R1, 0xffffffe0, RZ",
                "LDG.E.STRONG.SYS %r1, [%r0.64+0x4]", "LDG.E.STRONG.GPU %r2, [%r0.64]", "CCTL.IVALL", "MEMBAR.ALL.GPU",
                "ERRBAR", "STG.E.STRONG.GPU [%r0.64], %r2", "LDG.E.128.CONSTANT %r3.128, [%r0.64+0x10]",
                "MOV %r4, %r3.0", "MOV %r5, %r3.1", "MOV %r6, %r3.2", "MOV %r7, %r3.3", "STS.U16 [0x2], %r1",
                "LDS %r9, [%r8+0x8]", "STL [R1+0x4], %r9", "LD.E.U8 %r11, [%r10.64]", "STG.E.EF [%r0.64], %r11",
                "EXIT"), code.stream().filter(l -> !l.matches("MOV %r\\d+(\\.lo|\\.hi)?, RZ")).toList());
        OriFunction f = module(HEADER + ".visible .entry k()\n{\n" + body + "\n}\n", "sm_80").functions().get(0);
        assertEquals(64, f.attrs().sharedBytes());
        assertEquals(32, f.attrs().localBytes());
    }

    @Test
    void moduleVariables() throws Exception {
        String ptx = HEADER + ".const .align 4 .u32 tab[3] = {1, 2, 3};\n.global .align 8 .f64 g = 0d3FF0000000000000;\n"
                + ".shared .align 4 .b8 s1[16];\n.shared .align 8 .b8 s2[8];\n"
                + ".visible .entry k()\n{\n.reg .b32 %r<3>; .reg .b64 %rd<2>;\nld.const.u32 %r1, [tab+4];\n"
                + "ld.shared.u32 %r2, [s2];\nmov.u64 %rd1, g;\nst.global.u32 [%rd1], %r2;\nret;\n}\n";
        OriModule m = module(ptx, "sm_80");
        GlobalVar tab = m.globals().stream().filter(g -> g.name().equals("tab")).findFirst().orElseThrow();
        assertEquals(GlobalVar.Space.CONSTANT, tab.space());
        assertArrayEquals(new byte[] {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0}, tab.init());
        GlobalVar g = m.globals().stream().filter(x -> x.name().equals("g")).findFirst().orElseThrow();
        assertEquals((byte) 0x3f, g.init()[7]);
        OriFunction k = m.functions().get(0);
        List<String> code = text(k);
        assertHas(code, "MOV %r0, c[0x3][0x4]", "LDS %r1, [RZ]", "MOV %r3.lo, 32@lo(g)", "MOV %r3.hi, 32@hi(g)");
        assertEquals(8, k.attrs().sharedBytes(), "only the shared variables the kernel uses");
    }

    @Test
    void addressesInInitializersBecomeTypedParts() throws Exception {
        String ptx = HEADER + ".global .align 1 .b8 $str[3] = {104, 105};\n"
                + ".global .align 8 .u64 msg = generic($str);\n"
                + ".global .align 4 .b8 data[16] = {1, 0, 0, 0, 2};\n"
                + ".global .align 8 .u64 arr[3] = {data, generic(data)+8, 7};\n"
                + ".const .align 8 .u64 cptr = 4+data;\n"
                + ".visible .entry k()\n{\nret;\n}\n";
        OriModule m = module(ptx, "sm_80");
        GlobalVar msg = m.globals().stream().filter(g -> g.name().equals("msg")).findFirst().orElseThrow();
        assertEquals(List.of(new GlobalVar.Address(0, "$str", 0)), msg.addresses());
        assertArrayEquals(new byte[8], msg.init(), "the address bytes stay zero for the relocation");
        GlobalVar arr = m.globals().stream().filter(g -> g.name().equals("arr")).findFirst().orElseThrow();
        assertEquals(List.of(new GlobalVar.Address(0, "data", 0), new GlobalVar.Address(8, "data", 8)),
                arr.addresses());
        assertEquals(7, arr.init()[16]);
        GlobalVar cptr = m.globals().stream().filter(g -> g.name().equals("cptr")).findFirst().orElseThrow();
        assertEquals(List.of(new GlobalVar.Address(0, "data", 4)), cptr.addresses());
        assertEquals(List.of(), m.globals().stream().filter(g -> g.name().equals("data")).findFirst().orElseThrow()
                .addresses());
    }

    @Test
    void functionAddressesInInitializersAreRefusedByName() {
        String ptx = HEADER + ".func f()\n{\nret;\n}\n.global .align 8 .u64 table[1] = {f};\n"
                + ".visible .entry k()\n{\nret;\n}\n";
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> module(ptx, "sm_80"));
        assertTrue(e.getMessage().contains("Variable 'table': initializers with addresses of functions are not yet"
                + " supported"), e.getMessage());
    }

    @Test
    void deviceFunctionsUseTheRegisterCallingConvention() throws Exception {
        String ptx = HEADER + ".func (.param .b32 r) f(.param .b32 a, .param .b64 b)\n{\n.reg .b32 %r<3>;\n"
                + "ld.param.b32 %r1, [a];\nadd.s32 %r2, %r1, 1;\nst.param.b32 [r], %r2;\nret;\n}\n";
        OriFunction f = TestFrontEnds.of(Target.of("sm_80")).check("t.ptx", ptx).lowerWithoutInlining().functions().get(0);
        assertEquals(List.of(), IrVerifier.verify(f.name(), f.body()));
        List<String> code = text(f);
        assertEquals("MOV %r0, R4", code.get(0));
        assertHas(code, "MOV %r1.lo, R6", "MOV %r1.hi, R7", "MOV R4, %r2", "RET.REL.NODEC");
    }

    @Test
    void registersReadButNeverWrittenStartAsZero() throws Exception {
        List<String> code = kernel("", ".reg .pred %p<3>; .reg .b32 %r<3>;\nmov.pred %p1, %p2;\nadd.s32 %r1, %r2, 1;");
        assertHas(code, "PLOP3.LUT %p1, PT, PT, PT, PT, 0x0, 0x0", "MOV %r1, RZ");
    }

    @Test
    void subWordParametersAreBytesOfTheirRegister() throws Exception {
        String ptx = HEADER + ".func (.param .b32 r) f(.param .b32 a)\n{\n.reg .b16 %h<3>;\n"
                + "ld.param.s8 %h1, [a+1];\nld.param.u16 %h2, [a+2];\nst.param.b16 [r+2], %h1;\nst.param.b8 [r], %h2;\nret;\n}\n";
        OriFunction f = TestFrontEnds.of(Target.of("sm_80")).check("t.ptx", ptx).lowerWithoutInlining().functions().get(0);
        List<String> code = text(f);
        assertHas(code, "PRMT %r2, %r0, 0x9991, RZ", "PRMT %r3, %r0, 0x4432, RZ", "PRMT %r1, %r2, 0x1054, %r1",
                "PRMT %r1, %r3, 0x7650, %r1");
    }

    @Test
    void kernelParameterAddressesReadConstantBankZero() throws Exception {
        List<String> code = kernel(".param .u64 in", ".reg .b64 %rd<3>;\nmov.b64 %rd1, in;\nld.param.b64 %rd2, [%rd1];");
        assertHas(code, "MOV %r1.lo, 0x160", "LDC.64 %r2.64, c[0x0][%r0.lo+0x0]");
    }

    @Test
    void aConstantOffsetBeforeTheBankIsNamed() {
        // ptxas accepts [tab+-4] for a table at bank offset 0 and reads c[0x3][-0x4]
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> module(HEADER
                + ".const .b8 tab[8];\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r1;\n.reg .b64 %rd1;\n"
                + "ld.param.u64 %rd1, [p];\nld.const.u32 %r1, [tab+-4];\nst.global.u32 [%rd1], %r1;\nret;\n}\n",
                "sm_80"));
        assertEquals("Instruction 'ld.const.u32' not yet supported for sm_80 (constant offset -4 outside the bank)",
                e.diagnostics().get(0).message());
    }

    @Test
    void unsupportedInstructionsAreNamedAtTheirLine() throws Exception {
        UnsupportedFeatureException selector = assertThrows(UnsupportedFeatureException.class,
                () -> kernel("", ".reg .b32 %r<4>;\nvadd.u32.u32.u32 %r1, %r2.b1, %r3;"));
        assertEquals("Instruction 'vadd.u32.u32.u32' not yet supported for sm_80 (video selector .b1)",
                selector.diagnostics().get(0).message());
        assertEquals(7, selector.diagnostics().get(0).line());
    }

    /** A stand-in lowerer with internal control flow, to exercise branchAroundGuard. */
    static final class Diamond implements InstructionLowerer {
        @Override
        public Set<String> opcodes() {
            return Set.of("pmevent");
        }

        @Override
        public void lower(Instruction insn, LoweringContext cx) {
            BasicBlock done = cx.branchAroundGuard();
            cx.emit("NOP", List.of(), List.of(), List.of());
            cx.startBlock(done);
        }
    }

    @Test
    void branchAroundGuardSkipsTheExpansion() throws Exception {
        String ptx = HEADER + ".visible .entry k()\n{\n.reg .pred %p<2>;\nsetp.eq.u32 %p1, 1, 2;\n@%p1 pmevent 1;\nret;\n}\n";
        var resolved = TestFrontEnds.of(Target.of("sm_80")).check("t.ptx", ptx).resolved();
        List<InstructionLowerer> ls = new ArrayList<>();
        LowererRegistry.get().opcodes().forEach(op -> LowererRegistry.get().forOpcode(op).ifPresent(l -> {
            if (!ls.contains(l) && !l.opcodes().contains("pmevent")) {
                ls.add(l);
            }
        }));
        ls.add(new Diamond());
        OriModule m = new PtxLowering("t.ptx", resolved, TestTargets.profile("sm_80"), LowererRegistry.of(ls)).lower();
        OriFunction f = m.functions().get(0);
        assertEquals(List.of(), IrVerifier.verify(f.name(), f.body()));
        String code = text(f).stream().collect(Collectors.joining("\n"));
        assertTrue(code.contains("@!%p0 BRA bb2"), code);
        assertTrue(code.contains("NOP"), code);
        assertNull(f.body().blocks().get(2).label());
    }

    @Test
    void twoLowerersForOneOpcodeAreRejected() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> LowererRegistry.of(List.of(new ControlLowerer(), new ControlLowerer())));
        assertTrue(e.getMessage().contains("claimed by two lowerers"), e.getMessage());
    }
}
