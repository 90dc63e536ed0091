package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.analysis.IrVerifier;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** {@link FmaContraction}: which multiply/add pairs fuse, as ptxas 13 fuses them (and which it keeps apart). */
class FmaContractionTest {
    private static Instr ins(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    /** Loads a, b, c from constant bank 0, computes {@code d = a*b (+) c} as {@code mulMods}/{@code addMods}, stores d. */
    private static FunctionBody kernel(boolean contractMul, boolean contractAdd, List<String> mulMods,
                                       List<String> addMods, boolean negate, boolean secondUse, boolean f64) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        int w = f64 ? 2 : 1;
        Reg a = f.newVirtual(RegFile.R, w);
        Reg x = f.newVirtual(RegFile.R, w);
        Reg c = f.newVirtual(RegFile.R, w);
        Reg t = f.newVirtual(RegFile.R, w);
        Reg d = f.newVirtual(RegFile.R, w);
        Reg p = f.newVirtual(RegFile.R, 2);
        List<Instr> in = b.instrs();
        in.add(ins("MOV", List.of(), List.of(p.component(0)), Src.of(CBank.of(0, 0x160))));
        in.add(ins("MOV", List.of(), List.of(p.component(1)), Src.of(CBank.of(0, 0x164))));
        for (Reg r : List.of(a, x, c)) {
            in.add(ins("LDG", f64 ? List.of("E", "64") : List.of("E"), List.of(r), Src.of(Addr.of(p, 0))));
        }
        in.add(ins(f64 ? "DMUL" : "FMUL", mulMods, List.of(t), Src.of(a), Src.of(x)).setContractible(contractMul));
        in.add(ins(f64 ? "DADD" : "FADD", addMods, List.of(d), Src.of(c), negate ? Src.of(t).negated() : Src.of(t))
                .setContractible(contractAdd));
        in.add(ins("STG", f64 ? List.of("E", "64") : List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(d)));
        if (secondUse) {
            in.add(ins("STG", f64 ? List.of("E", "64") : List.of("E"), List.of(), Src.of(Addr.of(p, 8)), Src.of(t)));
        }
        in.add(ins("EXIT", List.of(), List.of()));
        return f;
    }

    private static String run(FunctionBody body, OptPipeline pipeline) {
        pipeline.verifying(true).run(new OriFunction("k", true, 0, body), TestProfiles.of("sm_80"));
        assertTrue(IrVerifier.verify("k", body).isEmpty());
        StringBuilder sb = new StringBuilder();
        for (Instr in : body.blocks().get(0).instrs()) {
            String s = in.toString();
            if (s.contains("MUL") || s.contains("ADD") || s.contains("FMA")) {
                sb.append(s.replaceAll("%r\\d+", "%r")).append('\n');
            }
        }
        return sb.toString().strip();
    }

    private static String fuse(FunctionBody body) {
        return run(body, OptPipeline.of(List.of(new FmaContraction())));
    }

    @Test
    void mulThenAddFuses() {
        String out = fuse(kernel(true, true, List.of(), List.of(), false, false, false));
        assertTrue(out.startsWith("FFMA ") && !out.contains("FMUL") && !out.contains("FADD"), out);
        String dbl = fuse(kernel(true, true, List.of(), List.of(), false, false, true));
        assertTrue(dbl.startsWith("DFMA ") && !dbl.contains("DMUL"), dbl);
    }

    @Test
    void subtractionNegatesTheProduct() {
        String out = fuse(kernel(true, true, List.of(), List.of(), true, false, false));
        assertTrue(out.startsWith("FFMA ") && out.contains("-%r"), out);
    }

    @Test
    void saturatingAddGivesFfmaSat() {
        String out = fuse(kernel(true, true, List.of("FTZ"), List.of("FTZ", "SAT"), false, false, false));
        assertTrue(out.startsWith("FFMA.FTZ.SAT "), out);
    }

    @Test
    void whatStaysApart() {
        // an explicit rounding modifier on either (the lowering leaves it unmarked)
        assertTrue(fuse(kernel(false, true, List.of(), List.of(), false, false, false)).contains("FMUL"));
        assertTrue(fuse(kernel(true, false, List.of(), List.of(), false, false, false)).contains("FMUL"));
        // flush-to-zero on one only (ptxas 13: FMUL.FTZ then FADD)
        assertTrue(fuse(kernel(true, true, List.of("FTZ"), List.of(), false, false, false)).contains("FMUL.FTZ"));
        // a saturated product
        assertTrue(fuse(kernel(true, true, List.of("SAT"), List.of(), false, false, false)).contains("FMUL.SAT"));
        // the product read elsewhere too
        assertTrue(fuse(kernel(true, true, List.of(), List.of(), false, true, false)).contains("FMUL"));
    }

    @Test
    void fmadFalseAndO0KeepThemApart() {
        assertEquals(List.of(), OptPipeline.forLevel(3, false).passes().stream()
                .filter(p -> p instanceof FmaContraction).toList());
        assertEquals(List.of(), OptPipeline.forLevel(0, true).passes());
        assertTrue(OptPipeline.forLevel(3).passes().stream().anyMatch(p -> p instanceof FmaContraction));
        String kept = run(kernel(true, true, List.of(), List.of(), false, false, false), OptPipeline.forLevel(3, false));
        assertTrue(kept.contains("FMUL") && kept.contains("FADD") && !kept.contains("FFMA"), kept);
        String fused = run(kernel(true, true, List.of(), List.of(), false, false, false), OptPipeline.forLevel(3));
        assertTrue(fused.contains("FFMA") && !fused.contains("FMUL"), fused);
    }

    @Test
    void oneConstantSlotOnly() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg a = f.newVirtual(RegFile.R, 1);
        Reg t = f.newVirtual(RegFile.R, 1);
        Reg d = f.newVirtual(RegFile.R, 1);
        Reg p = f.newVirtual(RegFile.R, 2);
        List<Instr> in = b.instrs();
        in.add(ins("MOV", List.of(), List.of(p.component(0)), Src.of(CBank.of(0, 0x160))));
        in.add(ins("MOV", List.of(), List.of(p.component(1)), Src.of(CBank.of(0, 0x164))));
        in.add(ins("LDG", List.of("E"), List.of(a), Src.of(Addr.of(p, 0))));
        in.add(ins("FMUL", List.of(), List.of(t), Src.of(a), Src.of(Imm.ofInt(0x40000000))).setContractible(true));
        in.add(ins("FADD", List.of(), List.of(d), Src.of(t), Src.of(CBank.of(0, 0x168))).setContractible(true));
        in.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(d)));
        in.add(ins("EXIT", List.of(), List.of()));
        assertTrue(fuse(f).contains("FMUL"));
    }

    /** Several pairs in one block, the last at the block's end (the analysis' positions must hold as they fuse). */
    @Test
    void severalPairsInOneBlock() {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        List<Instr> in = b.instrs();
        in.add(ins("MOV", List.of(), List.of(p.component(0)), Src.of(CBank.of(0, 0x160))));
        in.add(ins("MOV", List.of(), List.of(p.component(1)), Src.of(CBank.of(0, 0x164))));
        Reg x = f.newVirtual(RegFile.R, 1);
        in.add(ins("LDG", List.of("E"), List.of(x), Src.of(Addr.of(p, 0))));
        List<Reg> sums = new java.util.ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Reg t = f.newVirtual(RegFile.R, 1);
            Reg d = f.newVirtual(RegFile.R, 1);
            in.add(ins("FMUL", List.of(), List.of(t), Src.of(x), Src.of(x)).setContractible(true));
            in.add(ins("FADD", List.of(), List.of(d), Src.of(t), Src.of(x)).setContractible(true));
            sums.add(d);
        }
        for (Reg d : sums) {
            in.add(ins("STG", List.of("E"), List.of(), Src.of(Addr.of(p, 0)), Src.of(d)));
        }
        in.add(ins("EXIT", List.of(), List.of()));
        String out = fuse(f);
        assertEquals(3, out.lines().filter(l -> l.startsWith("FFMA ")).count(), out);
        assertTrue(!out.contains("FMUL") && !out.contains("FADD"), out);
    }

    @Test
    void withoutTheBackendsWordOnlyHabitualForms() {
        Reg r = new FunctionBody().newVirtual(RegFile.R, 1);
        Src imm = Src.of(Imm.ofInt(0x40000000));
        assertTrue(FmaContraction.habitual(ins("FFMA", List.of(), List.of(r), Src.of(r), imm, Src.of(r))));
        // ptxas writes FFMA.SAT R, R, 2, R, a form the tables have not seen: kept apart
        assertTrue(!FmaContraction.habitual(ins("FFMA", List.of("SAT"), List.of(r), Src.of(r), imm, Src.of(r))));
        assertTrue(!FmaContraction.habitual(ins("DFMA", List.of(), List.of(r), Src.of(r), imm, Src.of(r))));
        // DFMA R, R, R, -R (a double sub): not in sm_80's tables
        assertTrue(!FmaContraction.habitual(ins("DFMA", List.of(), List.of(r), Src.of(r), Src.of(r),
                Src.of(r).negated())));
        assertTrue(FmaContraction.habitual(ins("FFMA", List.of("SAT"), List.of(r), Src.of(r),
                Src.of(CBank.of(0, 0x160)), Src.of(r))));
    }
}
