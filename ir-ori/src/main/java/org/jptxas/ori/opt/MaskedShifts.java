package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * A mask applied before a multiply by a power of two goes after it, as ptxas writes {@code (x & m) * 2^k}: the
 * shift of {@code x}, then the AND with {@code m << k}, both on the multiply's line (the AND's own line is gone).
 * The 32-bit {@code IMAD.SHL.U32} of a masked value, and the {@code IMAD.WIDE.U32} whose high word nothing reads
 * when {@code m << k} fits in 32 bits (a shared-memory index scaled to bytes); the AND must have no other reader.
 * A product an add reads is left alone: there ptxas folds the shift into the add (LEA) and keeps the mask first
 * (sm_90's shared addresses, base + (x &amp; m) * 4).
 */
final class MaskedShifts {
    private MaskedShifts() {
    }

    /** Rewrites {@code outer} when it multiplies such a mask: the shift goes into {@code inserts} before it. */
    static boolean moveMask(FunctionBody body, Instr outer, SingleDefs sd, Map<Instr, List<Instr>> inserts) {
        boolean wide = OpInfo.is(outer, "IMAD_WIDE") && outer.mods().equals(List.of("U32"));
        boolean narrow = OpInfo.is(outer, "IMAD") && outer.mods().size() == 2
                && outer.mods().containsAll(List.of("SHL", "U32"));
        if (!wide && !narrow || outer.srcs().size() != 3 || outer.dsts().size() != 1 || !outer.guard().isAlways()
                || !OpInfo.isRZ(outer.srcs().get(2))) {
            return false;
        }
        Reg d = outer.dsts().get(0);
        if (!d.virtual() || d.isPart() || d.file() != RegFile.R || d.comps() != (wide ? 2 : 1)
                || sd.soleDef(d) != outer || wide && !WideMultiplyNarrowing.onlyLowWordRead(d, sd)) {
            return false;
        }
        for (Instr reader : sd.uses(d)) {
            if (OpInfo.is(reader, "IADD3")) {
                return false; // the shift goes into the add (a LEA) and the mask stays before it, as in ptxas's
            }
        }
        Long scale = OpInfo.imm(outer.srcs().get(1));
        if (scale == null || Long.bitCount(scale & 0xffffffffL) != 1 || outer.srcs().get(1).hasModifiers()) {
            return false;
        }
        Instr mask = InstructionCombining.innerDef(body, outer.srcs().get(0), outer, sd);
        if (mask == null || !OpInfo.is(mask, "LOP3") || !mask.mods().equals(List.of("LUT"))
                || mask.srcs().size() != 5 || !mask.guard().isAlways() || outer.srcs().get(0).hasModifiers()) {
            return false;
        }
        List<Src> m = mask.srcs();
        Long lut = OpInfo.imm(m.get(3));
        Long bits = OpInfo.imm(m.get(1));
        if (lut == null || lut != 0xc0 || bits == null || m.get(1).hasModifiers() || !OpInfo.isRZ(m.get(2))
                || !(m.get(0).value() instanceof Reg x) || m.get(0).hasModifiers() || x.file() != RegFile.R) {
            return false;
        }
        long shifted = (bits & 0xffffffffL) * (scale & 0xffffffffL);
        if (wide && shifted > 0xffffffffL) {
            return false; // the product's high word would not be zero
        }
        Reg product = body.newVirtual(RegFile.R, wide ? 2 : 1);
        Instr shift = Instr.of(outer.op(), List.of(product), List.of(m.get(0), outer.srcs().get(1), Src.of(Reg.RZ)));
        shift.setMods(outer.mods());
        shift.setLine(outer.line());
        inserts.computeIfAbsent(outer, k -> new ArrayList<>()).add(shift);
        outer.dsts().set(0, wide ? d.component(0) : d);
        outer.setOp(OpInfo.op("LOP3"));
        outer.setMods(List.of("LUT"));
        outer.srcs().clear();
        outer.srcs().addAll(List.of(Src.of(wide ? product.component(0) : product),
                Src.of(Imm.ofInt((int) shifted)), Src.of(Reg.RZ), m.get(3), m.get(4)));
        return true;
    }
}
