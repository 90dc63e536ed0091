package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.jptxas.ori.opt.TestInstrs.imm;
import static org.jptxas.ori.opt.TestInstrs.ins;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/**
 * A warpgroup multiply's descriptor pair built the way the front end lowers {@code bfe; cvt.u64; or.b64} on a
 * shared-memory address: from the CTA's shared window (uniform) or from {@code %tid.x} (per thread).
 */
class UniformArithmeticTest {
    private static FunctionBody descriptor(String special) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        List<Instr> e = b.instrs();
        Reg window = f.newVirtual(RegFile.R, 1);
        Reg k = f.newVirtual(RegFile.R, 1);
        Reg base = f.newVirtual(RegFile.R, 1);
        Reg sum = f.newVirtual(RegFile.R, 1);
        Reg shifted = f.newVirtual(RegFile.R, 1);
        Reg wide = f.newVirtual(RegFile.R, 2);
        Reg desc = f.newVirtual(RegFile.R, 2);
        Reg q = f.newVirtual(RegFile.UR, 2);
        e.add(ins("S2R", List.of(), List.of(window), Src.of(new SpecialReg(special))));
        e.add(ins("MOV", List.of(), List.of(k), imm(0x400)));
        e.add(ins("LEA", List.of(), List.of(base, Reg.PT), Src.of(window), Src.of(k), imm(0x18)));
        e.add(ins("IADD3", List.of(), List.of(sum, Reg.PT, Reg.PT), Src.of(base), imm(0x4000), Src.of(Reg.RZ)));
        e.add(ins("SHF", List.of("R", "U32", "HI"), List.of(shifted), Src.of(Reg.RZ), imm(4), Src.of(sum)));
        e.add(ins("SGXT", List.of("U32"), List.of(wide.component(0)), Src.of(shifted), imm(0xe)));
        e.add(ins("MOV", List.of(), List.of(wide.component(1)), Src.of(Reg.RZ)));
        for (int h = 0; h < 2; h++) {
            e.add(ins("LOP3", List.of("LUT"), List.of(Reg.PT, desc.component(h)), Src.of(wide.component(h)),
                    imm(h == 0 ? 0x4000000 : 0x40000040), Src.of(Reg.RZ), imm(0xfc), Src.of(Reg.PT).inverted()));
        }
        e.add(ins("R2UR", List.of(), List.of(q.component(0)), Src.of(desc.component(0))));
        e.add(ins("R2UR", List.of(), List.of(q.component(1)), Src.of(desc.component(1))));
        e.add(ins("HGMMA", List.of("64x64x16", "F32"), List.of(), Src.of(q)));
        e.add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    private static String uniformThenDce(FunctionBody body) {
        return TestInstrs.run(body, "sm_90", new UniformArithmetic(), new DeadCodeElimination());
    }

    @Test
    void aUniformDescriptorIsComputedOnTheUniformDatapath() {
        String out = uniformThenDce(descriptor("SR_CgaCtaId"));
        assertFalse(out.contains("R2UR"), out);
        for (String op : List.of("S2UR", "ULEA", "UIADD3", "USHF.R.U32.HI", "USGXT.U32", "ULOP3.LUT")) {
            assertTrue(out.contains(op + " "), op + " in\n" + out);
        }
        // the per-thread chain is dead once the uniform one serves the multiply
        String lines = "\n" + out;
        assertFalse(lines.contains("\nS2R ") || lines.contains("\nIADD3 ") || lines.contains("\nSGXT.U32 "), out);
        // the constant high word is moved where it is needed
        assertTrue(out.contains("UMOV %ur0.hi, 0x40000040"), out);
    }

    @Test
    void aPerThreadDescriptorKeepsItsR2urs() {
        FunctionBody body = descriptor("SR_TID.X");
        String out = uniformThenDce(body);
        assertTrue(out.contains("R2UR %ur0.lo, %r6.lo"), out);
        assertFalse(out.contains("USGXT") || out.contains("S2UR"), out);
        assertEquals(0, out.split("UIADD3", -1).length - 1, out);
    }

    /**
     * A tensor copy's tensor-map address, a kernel parameter's generic address: a 64-bit add of the parameter base
     * (a constant-bank pair) and an offset, {@code IADD3} with a carry-out and {@code IADD3.X}; {@code perThreadOffset}
     * makes the offset a thread index, which keeps the chain per thread.
     */
    private static FunctionBody tensorMapAddress(boolean perThreadOffset) {
        FunctionBody f = new FunctionBody();
        List<Instr> e = f.addBlock(null).instrs();
        Reg off = f.newVirtual(RegFile.R, 1);
        if (perThreadOffset) {
            e.add(ins("S2R", List.of(), List.of(off), Src.of(new SpecialReg("SR_TID.X"))));
        } else {
            e.add(ins("MOV", List.of(), List.of(off), imm(0x40)));
        }
        Reg lo = f.newVirtual(RegFile.R, 1);
        Reg carry = f.newVirtual(RegFile.P, 1);
        Reg map = f.newVirtual(RegFile.R, 2);
        e.add(ins("IADD3", List.of(), List.of(lo, carry, Reg.PT), Src.of(off), Src.of(new CBank(0, 0x198, null)),
                Src.of(Reg.RZ)));
        e.add(ins("IADD3", List.of("X"), List.of(map.component(1), Reg.PT, Reg.PT), Src.of(Reg.RZ),
                Src.of(new CBank(0, 0x19c, null)), Src.of(Reg.RZ), Src.of(carry), Src.of(Reg.PT).inverted()));
        e.add(ins("MOV", List.of(), List.of(map.component(0)), Src.of(lo)));
        Reg q = f.newVirtual(RegFile.UR, 2);
        e.add(ins("R2UR", List.of(), List.of(q.component(0)), Src.of(map.component(0))));
        e.add(ins("R2UR", List.of(), List.of(q.component(1)), Src.of(map.component(1))));
        Reg smem = f.newVirtual(RegFile.UR, 4);
        e.add(ins("UTMALDG", List.of("2D"), List.of(), Src.of(Addr.of(smem, 0)), Src.of(Addr.of(q, 0))));
        e.add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    @Test
    void aTensorMapAddressIsAddedWithAUniformCarry() {
        String out = uniformThenDce(tensorMapAddress(false));
        assertFalse(out.contains("R2UR"), out);
        assertTrue(out.contains("ULDC %ur") && out.contains("c[0x0][0x198]") && out.contains("c[0x0][0x19c]"), out);
        // the low half's carry-out is a uniform predicate, which the high half's UIADD3.X reads
        assertTrue(out.matches("(?s).*UIADD3 %ur\\d+, %up(\\d+), .*UIADD3\\.X %ur\\d+, .*%up\\1, !UPT.*"), out);
        String lines = "\n" + out;
        assertFalse(lines.contains("\nIADD3"), out);
    }

    @Test
    void aPerThreadOffsetKeepsTheTensorMapR2urs() {
        String out = uniformThenDce(tensorMapAddress(true));
        assertTrue(out.contains("R2UR"), out);
        assertFalse(out.contains("UIADD3") || out.contains("ULDC"), out);
    }
}
