package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code atom/red.add.noftz.f16} (and {@code .bf16}, sm_90) on a global, generic or shared address. No SASS atomic adds a single half, so, as ptxas 13
 * does, a compare-and-swap loop on the aligned 32-bit word that holds it: the half added to both lanes of the word
 * (HADD2, HADD2.BF16_V2 for bf16, with the value in both lanes), the lane at the address kept (PRMT) and the other restored, swapped in with
 * CAS (ATOMS.CAST.SPIN on shared memory) until no other thread changed the word in between; the old half is the
 * result.
 */
final class HalfAtomics {
    private HalfAtomics() {}

    /** {@code space}: "global" (ATOMG), "generic" (ATOM) or "shared" (ATOMS.CAST.SPIN on a 32-bit address). */
    static void add(LoweringContext cx, String space, Addr addr, Reg b, Reg d, boolean bf16) {
        update(cx, space, addr, b, null, d, bf16);
    }

    /**
     * {@code atom.cas.b16 d, [a], b, c}: the same loop, the new word the old one with c in the addressed lane when
     * that lane equals b, else the old word unchanged (swapped in all the same, so that the read is atomic).
     */
    static void cas(LoweringContext cx, String space, Addr addr, Reg b, Reg c, Reg d) {
        update(cx, space, addr, b, c, d, false);
    }

    /** {@code swap} null: add b; else compare-and-swap b, swap. */
    private static void update(LoweringContext cx, String space, Addr addr, Reg b, Reg swap, Reg d, boolean bf16) {
        boolean shared = space.equals("shared"), global = space.equals("global");
        // the word's address: base + offset with bit 1 cleared (a half is 2-byte aligned), and which half it is
        Reg ea = cx.newReg(RegFile.R, shared ? 1 : 2);
        if (shared) {
            IntArith.iadd3(cx, ea, Src.of(addr.base()), Ptx.imm(addr.offset()), Ptx.rz());
        } else {
            IntArith.add64(cx, ea, Src.of(addr.base()), Src.of(new Imm(addr.offset())), false);
        }
        Reg eaLow = shared ? ea : ea.component(0);
        Reg half = Ptx.r32(cx);
        LogicLowerer.lop(cx, half, Src.of(eaLow), Ptx.imm(2), Ptx.rz(), LogicLowerer.A & LogicLowerer.B);
        Reg word = cx.newReg(RegFile.R, shared ? 1 : 2);
        LogicLowerer.lop(cx, shared ? word : word.component(0), Src.of(eaLow), Ptx.imm(0xfffffffcL), Ptx.rz(),
                LogicLowerer.A & LogicLowerer.B);
        if (!shared) {
            cx.emit("MOV", List.of(), List.of(word.component(1)), List.of(Src.of(ea.component(1))));
        }
        Reg low = Ptx.pred(cx);
        cx.emit("ISETP", List.of("EQ", "U32", "AND"), List.of(low, Reg.PT),
                List.of(Src.of(half), Ptx.rz(), Ptx.pt()));
        Reg both = Ptx.r32(cx); // the value to add or to store, in both lanes
        Reg value = swap == null ? b : swap;
        cx.emit("PRMT", List.of(), List.of(both), List.of(Src.of(value), Ptx.imm(0x1010), Src.of(value)));
        Reg expected = null;
        if (swap != null) { // the compared half, zero-extended
            expected = Ptx.r32(cx);
            cx.emit("PRMT", List.of(), List.of(expected), List.of(Src.of(b), Ptx.imm(0x7610), Ptx.rz()));
        }
        Addr at = Addr.of(word, 0);

        BasicBlock done = cx.branchAroundGuard();
        BasicBlock loop = cx.newBlock();
        cx.startBlock(loop);
        Reg old = Ptx.r32(cx);
        if (shared) {
            cx.emit("LDS", List.of(), List.of(old), List.of(Src.of(at)));
        } else {
            cx.emit(global ? "LDG" : "LD", List.of("E"), List.of(old), List.of(Src.of(at)));
        }
        Reg sum = both;
        if (swap == null) {
            sum = Ptx.r32(cx);
            cx.emitUnguarded("HADD2", bf16 ? List.of("BF16_V2") : List.of(), List.of(sum),
                    List.of(Src.of(old), Src.of(both)));
        }
        Reg newLow = Ptx.r32(cx), newHigh = Ptx.r32(cx), next = Ptx.r32(cx);
        cx.emitUnguarded("PRMT", List.of(), List.of(newLow), List.of(Src.of(old), Ptx.imm(0x3254), Src.of(sum)));
        cx.emitUnguarded("PRMT", List.of(), List.of(newHigh), List.of(Src.of(old), Ptx.imm(0x7610), Src.of(sum)));
        cx.emitUnguarded("SEL", List.of(), List.of(next), List.of(Src.of(newLow), Src.of(newHigh), Src.of(low)));
        if (swap != null) {
            Reg current = lane(cx, old, low, true);
            Reg match = Ptx.pred(cx);
            cx.emitUnguarded("ISETP", List.of("EQ", "U32", "AND"), List.of(match, Reg.PT),
                    List.of(Src.of(current), Src.of(expected), Ptx.pt()));
            Reg kept = Ptx.r32(cx);
            cx.emitUnguarded("SEL", List.of(), List.of(kept), List.of(Src.of(next), Src.of(old), Src.of(match)));
            next = kept;
        }
        Reg seen;
        Reg same = Ptx.pred(cx);
        if (shared) { // the flag is 1 when the swap happened
            Reg flag = Ptx.r32(cx);
            cx.emit("ATOMS", List.of("CAST", "SPIN"), List.of(flag), List.of(Src.of(at), Src.of(old), Src.of(next)));
            cx.emitUnguarded("ISETP", List.of("EQ", "U32", "AND"), List.of(same, Reg.PT),
                    List.of(Src.of(flag), Ptx.imm(1), Ptx.pt()));
            seen = old;
        } else {
            seen = Ptx.r32(cx);
            cx.emit(global ? "ATOMG" : "ATOM", List.of("E", "CAS", "STRONG", "GPU"), List.of(Reg.PT, seen),
                    List.of(Src.of(at), Src.of(old), Src.of(next)));
            cx.emitUnguarded("ISETP", List.of("EQ", "U32", "AND"), List.of(same, Reg.PT),
                    List.of(Src.of(seen), Src.of(old), Ptx.pt()));
        }
        cx.emitUnguarded("BRA", List.of(), List.of(), List.of(Src.of(loop.ref()))).setGuard(new Guard(same, true));
        if (d != null) { // the old half, zero-extended; before the guard's join, where a skipped thread keeps d
            cx.startBlock(cx.newBlock());
            Reg r = lane(cx, seen, low, false);
            cx.emit("MOV", List.of(), List.of(d), List.of(Src.of(r)));
        }
        cx.startBlock(done);
    }

    /** The addressed lane of {@code word} (the low one when {@code low}), zero-extended. */
    private static Reg lane(LoweringContext cx, Reg word, Reg low, boolean inLoop) {
        Reg lo = Ptx.r32(cx), hi = Ptx.r32(cx), r = Ptx.r32(cx);
        List<Src> los = List.of(Src.of(word), Ptx.imm(0x7610), Ptx.rz()), his = List.of(Src.of(word), Ptx.imm(0x7632),
                Ptx.rz()), sel = List.of(Src.of(lo), Src.of(hi), Src.of(low));
        if (inLoop) {
            cx.emitUnguarded("PRMT", List.of(), List.of(lo), los);
            cx.emitUnguarded("PRMT", List.of(), List.of(hi), his);
            cx.emitUnguarded("SEL", List.of(), List.of(r), sel);
        } else {
            cx.emit("PRMT", List.of(), List.of(lo), los);
            cx.emit("PRMT", List.of(), List.of(hi), his);
            cx.emit("SEL", List.of(), List.of(r), sel);
        }
        return r;
    }
}
