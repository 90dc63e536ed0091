package org.jptxas.isel.codegen;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalInt;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.ori.target.Target;

/** examples/saxpy.ptx as the front end lowers it (sm_80 spelling, virtual registers), written by hand. */
public final class SaxpyOri {
    private SaxpyOri() {}

    public static Instr op(String name, List<String> mods, List<Reg> dsts, Operand... srcs) {
        List<Src> s = new ArrayList<>();
        Arrays.stream(srcs).forEach(o -> s.add(Src.of(o)));
        return new Instr(OriOpcodes.get().byName(name).orElseThrow(() -> new IllegalArgumentException(name)), mods, dsts, s,
                Guard.ALWAYS, 0);
    }

    public static Reg load(FunctionBody body, BasicBlock b, CBank c, int comps) {
        Reg r = body.newVirtual(RegFile.R, comps);
        b.instrs().add(op("LDC", comps == 2 ? List.of("64") : List.of(), List.of(r), c));
        return r;
    }

    /** y[i] = a * x[i] + y[i] for i < n; parameters n (u32), a (f32), x, y (u64) from the target's parameter base. */
    public static OriModule module(String arch) {
        Target target = Target.of(arch);
        int base = org.jptxas.spi.TestTargets.profile(arch).paramBase();
        FunctionBody body = new FunctionBody();
        BasicBlock b0 = body.addBlock(null);
        BasicBlock b1 = body.addBlock(null);
        BasicBlock b2 = body.addBlock("$L__BB0_2");
        Reg ctaid = body.newVirtual(RegFile.R, 1);
        Reg tid = body.newVirtual(RegFile.R, 1);
        Reg i = body.newVirtual(RegFile.R, 1);
        Reg p = body.newVirtual(RegFile.P, 1);
        Reg four = body.newVirtual(RegFile.R, 1);
        Reg xa = body.newVirtual(RegFile.R, 2);
        Reg ya = body.newVirtual(RegFile.R, 2);
        Reg x = body.newVirtual(RegFile.R, 1);
        Reg y = body.newVirtual(RegFile.R, 1);
        Reg r = body.newVirtual(RegFile.R, 1);
        b0.instrs().add(op("S2R", List.of(), List.of(ctaid), new SpecialReg("SR_CTAID.X")));
        b0.instrs().add(op("S2R", List.of(), List.of(tid), new SpecialReg("SR_TID.X")));
        // sm_90 has no c-bank operand in these forms: the values come through LDC first.
        boolean ldc = target.sm() >= 90;
        // nvdisasm spells an LDC of offset 0 c[0x0][RZ]: the form has an index register.
        Operand ntid = ldc ? load(body, b0, new CBank(0, 0, Reg.RZ), 1) : CBank.of(0, 0);
        Operand n = ldc ? load(body, b0, CBank.of(0, base), 1) : CBank.of(0, base);
        Operand xp = ldc ? load(body, b0, CBank.of(0, base + 8), 2) : CBank.of(0, base + 8);
        Operand yp = ldc ? load(body, b0, CBank.of(0, base + 16), 2) : CBank.of(0, base + 16);
        Operand a = ldc ? load(body, b0, CBank.of(0, base + 4), 1) : CBank.of(0, base + 4);
        b0.instrs().add(op("IMAD", List.of(), List.of(i), ctaid, ntid, tid));
        b0.instrs().add(op("ISETP", List.of("GE", "U32", "AND"), List.of(p, Reg.PT), i, n, Reg.PT));
        Instr exit = op("BRA", List.of(), List.of(), b2.ref());
        exit.setGuard(new Guard(p, false));
        b0.instrs().add(exit);
        b1.instrs().add(op("MOV", List.of(), List.of(four), Imm.ofInt(4)));
        b1.instrs().add(op("IMAD_WIDE", List.of("U32"), List.of(xa), i, four, xp));
        b1.instrs().add(op("IMAD_WIDE", List.of("U32"), List.of(ya), i, four, yp));
        List<String> e = target.sm() == 75 ? List.of("E", "SYS") : List.of("E");
        b1.instrs().add(op("LDG", e, List.of(x), Addr.of(xa, 0)));
        b1.instrs().add(op("LDG", e, List.of(y), Addr.of(ya, 0)));
        b1.instrs().add(op("FFMA", List.of(), List.of(r), x, a, y));
        b1.instrs().add(op("STG", e, List.of(), Addr.of(ya, 0), r));
        b2.instrs().add(op("EXIT", List.of(), List.of()));
        List<FunctionAttrs.Param> params = List.of(new FunctionAttrs.Param(0, "n", 0, 4, 4, "u32"),
                new FunctionAttrs.Param(1, "a", 4, 4, 4, "f32"), new FunctionAttrs.Param(2, "x", 8, 8, 8, "u64"),
                new FunctionAttrs.Param(3, "y", 16, 8, 8, "u64"));
        FunctionAttrs attrs = new FunctionAttrs(params, 24, List.of(), 0, 0, OptionalInt.empty(), List.of(), List.of(),
                OptionalInt.empty(), List.of());
        return new OriModule("saxpy.ptx", target, List.of(new OriFunction("saxpy", true, 9, body, attrs)));
    }
}
