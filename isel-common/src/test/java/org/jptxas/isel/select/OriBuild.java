package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OpcodeGroup;
import org.jptxas.ori.opcode.OriOpcode;
import org.jptxas.ori.opcode.OriOpcodes;

/** Terse construction of Ori instructions for tests: {@code ins("IMAD_WIDE", mods("U32"), dst(r(2,2)), r(3), imm(4))}. */
final class OriBuild {
    private OriBuild() {}

    static OriOpcode op(String name) {
        return OriOpcodes.get().byName(name).orElseGet(() -> new OriOpcode(9999, name, OpcodeGroup.MISC, "test", 70));
    }

    static Reg r(int i) {
        return Reg.phys(RegFile.R, i, 1);
    }

    static Reg r(int i, int comps) {
        return Reg.phys(RegFile.R, i, comps);
    }

    static Reg ur(int i) {
        return Reg.phys(RegFile.UR, i, 1);
    }

    static Reg ur(int i, int comps) {
        return Reg.phys(RegFile.UR, i, comps);
    }

    static Reg p(int i) {
        return Reg.phys(RegFile.P, i, 1);
    }

    static Reg vr(int i) {
        return Reg.virt(RegFile.R, i, 1);
    }

    static Reg vr(int i, int comps) {
        return Reg.virt(RegFile.R, i, comps);
    }

    static Reg vur(int i) {
        return Reg.virt(RegFile.UR, i, 1);
    }

    static Reg vp(int i) {
        return Reg.virt(RegFile.P, i, 1);
    }

    static Imm imm(long v) {
        return new Imm(v);
    }

    static CBank c(int bank, int off) {
        return CBank.of(bank, off);
    }

    static Addr addr(Reg base, long off) {
        return Addr.of(base, off);
    }

    static List<String> mods(String... m) {
        return List.of(m);
    }

    /** Destination marker. */
    record D(Reg reg) {}

    static D dst(Reg r) {
        return new D(r);
    }

    static Instr ins(String name, List<String> mods, Object... operands) {
        return guarded(Guard.ALWAYS, name, mods, operands);
    }

    static Instr guarded(Guard g, String name, List<String> mods, Object... operands) {
        List<Reg> dsts = new ArrayList<>();
        List<Src> srcs = new ArrayList<>();
        for (Object o : Arrays.asList(operands)) {
            if (o instanceof D d) {
                dsts.add(d.reg());
            } else if (o instanceof Src s) {
                srcs.add(s);
            } else {
                srcs.add(Src.of((org.jptxas.ori.ir.Operand) o));
            }
        }
        return new Instr(op(name), mods, dsts, srcs, g, 7);
    }
}
