package org.jptxas.isel.regalloc;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionAttrs;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;

/** Hand-built Ori functions for allocator tests. */
final class OriBuilder {
    final FunctionBody body = new FunctionBody();
    BasicBlock cur;

    OriBuilder() {
        cur = body.addBlock(null);
    }

    BasicBlock block() {
        cur = body.addBlock(null);
        return cur;
    }

    Reg r() {
        return body.newVirtual(RegFile.R, 1);
    }

    Reg r(int comps) {
        return body.newVirtual(RegFile.R, comps);
    }

    Reg p() {
        return body.newVirtual(RegFile.P, 1);
    }

    Reg ur() {
        return body.newVirtual(RegFile.UR, 1);
    }

    Instr emit(String op, List<String> mods, List<Reg> dsts, List<Src> srcs) {
        Instr in = new Instr(OriOpcodes.get().byName(op).orElseThrow(), mods, dsts, srcs, Guard.ALWAYS, 0);
        cur.instrs().add(in);
        return in;
    }

    static Src s(Object o) {
        if (o instanceof Integer i) {
            return Src.of(Imm.ofInt(i));
        }
        return o instanceof Src src ? src : Src.of((org.jptxas.ori.ir.Operand) o);
    }

    Reg param(int offset) {
        Reg d = r();
        emit("MOV", List.of(), List.of(d), List.of(Src.of(CBank.of(0, 0x160 + offset))));
        return d;
    }

    Reg param64(int offset) {
        Reg d = r(2);
        emit("IMAD_WIDE", List.of("U32"), List.of(d), List.of(s(Reg.RZ), s(Reg.RZ), Src.of(CBank.of(0, 0x160 + offset))));
        return d;
    }

    Reg add(Reg a, Object b) {
        Reg d = r();
        emit("IADD3", List.of(), List.of(d), List.of(s(a), s(b), s(Reg.RZ)));
        return d;
    }

    void addInto(Reg d, Reg a, Object b) {
        emit("IADD3", List.of(), List.of(d), List.of(s(a), s(b), s(Reg.RZ)));
    }

    Reg mov(Object src) {
        Reg d = r();
        emit("MOV", List.of(), List.of(d), List.of(s(src)));
        return d;
    }

    Reg wide(Reg a, Reg b) {
        Reg d = r(2);
        emit("IMAD_WIDE", List.of("U32"), List.of(d), List.of(s(a), s(4), s(b)));
        return d;
    }

    Reg setp(String cmp, Reg a, Object b) {
        Reg p = p();
        emit("ISETP", List.of(cmp, "AND"), List.of(p, Reg.PT), List.of(s(a), s(b), s(Reg.PT)));
        return p;
    }

    void store(Reg addr64, Reg value) {
        String mod = value.comps() == 1 ? null : value.comps() == 2 ? "64" : "128";
        List<String> mods = new ArrayList<>(List.of("E"));
        if (mod != null) {
            mods.add(mod);
        }
        emit("STG", mods, List.of(), List.of(Src.of(Addr.of(addr64, 0)), s(value)));
    }

    Reg load128(Reg addr64) {
        Reg d = r(4);
        emit("LDG", List.of("E", "128"), List.of(d), List.of(Src.of(Addr.of(addr64, 0))));
        return d;
    }

    void bra(BasicBlock target, Reg pred, boolean negated) {
        Instr in = emit("BRA", List.of(), List.of(), List.of(Src.of(target.ref())));
        if (pred != null) {
            in.setGuard(new Guard(pred, negated));
        }
    }

    void exit() {
        emit("EXIT", List.of(), List.of(), List.of());
    }

    OriFunction function() {
        return new OriFunction("k", true, 1, body, FunctionAttrs.NONE);
    }

    OriFunction function(long localBytes) {
        FunctionAttrs a = FunctionAttrs.NONE;
        return new OriFunction("k", true, 1, body, new FunctionAttrs(a.params(), a.paramBytes(), a.results(),
                a.sharedBytes(), localBytes, a.maxnreg(), a.maxntid(), a.reqntid(), a.minnctapersm(), a.callees()));
    }
}
