package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * An instruction as {@link SassTextPrinter} sees it with its register numbers and branch labels abstracted: what
 * decides which candidate spelling the target encodes. Each register becomes a stand-in numbered by first appearance
 * (so equal registers stay equal), keeping its file, width, zero-ness and its number modulo 4 (tuple alignment);
 * labels become one label (branch targets are placed at one probe address). Immediates, constant-bank and address
 * offsets, symbols and modifiers stay as they are.
 */
record PrintShape(Guard guard, String mnemonic, List<Src> operands, int descriptor, int hash) {
    private static final BlockLabel LABEL = new BlockLabel(0);

    PrintShape(Guard guard, String mnemonic, List<Src> operands, int descriptor) {
        // hashed once: the memo's lookup and insertion both ask, and a record's generated hash walks every part
        this(guard, mnemonic, operands, descriptor, java.util.Objects.hash(guard, mnemonic, operands, descriptor));
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrintShape p && hash == p.hash && descriptor == p.descriptor
                && mnemonic.equals(p.mnemonic) && guard.equals(p.guard) && operands.equals(p.operands);
    }

    /** The shape of {@code s}, or null when it has more distinct registers than stand-ins. */
    static PrintShape of(SelectedInstr s) {
        try {
            return shape(s);
        } catch (TooManyRegisters e) {
            return null;
        }
    }

    private static PrintShape shape(SelectedInstr s) {
        Map<Reg, Reg> standIns = new HashMap<>();
        Guard g = s.guard();
        Guard guard = g.isAlways() ? g : new Guard(standIn(g.predicate(), standIns), g.negated());
        List<Src> ops = new ArrayList<>(s.operands().size());
        for (Src src : s.operands()) {
            Operand v = abstracted(src.value(), standIns);
            ops.add(v == src.value() ? src : new Src(v, src.neg(), src.abs(), src.not()));
        }
        return new PrintShape(guard, s.mnemonic(), ops, s.descriptor());
    }

    private static Operand abstracted(Operand v, Map<Reg, Reg> standIns) {
        if (v instanceof Reg r) {
            return standIn(r, standIns);
        }
        if (v instanceof Addr a) {
            return new Addr(standIn(a.base(), standIns),
                    a.uniformBase() == null ? null : standIn(a.uniformBase(), standIns), a.offset());
        }
        if (v instanceof CBank c && c.index() != null) {
            return new CBank(c.bank(), c.offset(), standIn(c.index(), standIns));
        }
        if (v instanceof BlockLabel) {
            return LABEL;
        }
        return v;
    }

    private static Reg standIn(Reg r, Map<Reg, Reg> standIns) {
        if (r.isZero() || r.virtual()) {
            return r;
        }
        Reg key = new Reg(r.file(), r.index(), 1, false);
        Reg known = standIns.get(key);
        int ordinal = 0; // stand-ins of this file so far
        for (Reg k : standIns.keySet()) {
            ordinal += k.file() == r.file() ? 1 : 0;
        }
        int index = known != null ? known.index()
                : r.file().isPredicate() ? ordinal : 4 * ordinal + r.index() % 4;
        if (index + r.comps() - 1 >= r.file().count()) {
            throw new TooManyRegisters();
        }
        if (known == null) {
            standIns.put(key, new Reg(r.file(), index, 1, false));
        }
        return new Reg(r.file(), index, r.comps(), false);
    }

    /** More distinct registers than stand-ins: the instruction has no shape (it is searched on its own). */
    private static final class TooManyRegisters extends RuntimeException {
        TooManyRegisters() {
            super(null, null, false, false);
        }
    }
}
