package org.jptxas.simulator.sass;

import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.sass.SassMachine.Stop;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.CBank;
import org.jptxas.simulator.sass.SassOperand.Imm;
import org.jptxas.simulator.sass.SassOperand.Pred;
import org.jptxas.simulator.sass.SassOperand.Reg;
import org.jptxas.simulator.sass.SassOperand.UPred;
import org.jptxas.simulator.sass.SassOperand.UReg;

/**
 * Reading and writing instruction operands: registers, predicates, immediates, constant banks, uniform registers,
 * 64-bit pairs.
 */
final class OperandAccess {
    private final SassMachine machine;

    OperandAccess(SassMachine machine) {
        this.machine = machine;
    }

    int read(SassOperand o, Thread t, Warp w) {
        if (o instanceof Reg r) {
            int v = r.index() == 255 ? 0 : t.r[r.index()];
            if (r.suffix().equals("H1")) {
                v >>>= 16;
            } else if (r.suffix().equals("H0")) {
                v &= 0xffff;
            }
            if (r.invert()) {
                v = ~v;
            }
            return r.negate() ? -v : v;
        }
        if (o instanceof UReg u) {
            int v = u.index() == 63 ? 0 : w.ur[u.index()];
            if (u.invert()) {
                v = ~v;
            }
            return u.negate() ? -v : v;
        }
        if (o instanceof Imm i) {
            return i.floating() ? Float.floatToRawIntBits((float) i.value()) : (int) i.bits();
        }
        if (o instanceof CBank c) {
            if (c.abs()) {
                throw new Stop(new Fault.Unimplemented("|c[..]| as an integer operand", ""));
            }
            int v = (int) cbank(c, t, 4);
            return c.negate() ? -v : v;
        }
        throw new Stop(new Fault.Unimplemented("operand " + o, ""));
    }

    /** A constant-bank word at a fixed address (no base register). */
    long constant(CBank c, int size) {
        return cbank(c, null, size);
    }

    long cbank(CBank c, Thread t, int size) {
        Region bank = c.bank() == 0 ? machine.cbank0 : c.bank() < machine.banks.length ? machine.banks[c.bank()] : null;
        if (bank == null) {
            throw new Stop(new Fault.Unimplemented("constant bank " + c.bank() + " (not in the cubin)", ""));
        }
        long addr = c.offset() + (c.baseReg() >= 0 && c.baseReg() != 255 ? Integer.toUnsignedLong(t.r[c.baseReg()]) : 0);
        if (bank == machine.cbank0 && addr >= machine.cbank0.size() && addr <= SassMachine.CBANK0_BYTES - size && (addr & (size - 1)) == 0) {
            return 0; // the unfilled part of bank 0's 64 KiB window (allocated only as far as the driver fills it)
        }
        return bank.load(addr, size);
    }

    /** A float source with |x| and -x applied on the value. */
    /**
     * A 32-bit float operand's bits with its |abs| and negation applied to the sign bit alone (FSEL's |a| and -|a|:
     * a select, so NaN payloads pass unchanged).
     */
    int floatBits(SassOperand o, Thread t, Warp w) {
        boolean abs, negate;
        int v;
        if (o instanceof Reg r && !r.invert() && r.suffix().isEmpty()) {
            abs = r.abs();
            negate = r.negate();
            v = r.index() == 255 ? 0 : t.r[r.index()];
        } else if (o instanceof CBank c) {
            abs = c.abs();
            negate = c.negate();
            v = (int) cbank(c, t, 4);
        } else if (o instanceof UReg u && !u.invert()) {
            abs = false;
            negate = u.negate();
            v = u.index() == 63 ? 0 : w.ur[u.index()];
        } else {
            return read(o, t, w);
        }
        if (abs) {
            v &= 0x7fffffff;
        }
        return negate ? v ^ 0x80000000 : v;
    }

    float readF(SassOperand o, Thread t, Warp w) {
        if (o instanceof UReg u && u.negate()) {
            return -Float.intBitsToFloat(u.index() == 63 ? 0 : w.ur[u.index()]);
        }
        if (o instanceof CBank c && (c.negate() || c.abs())) {
            float f = Float.intBitsToFloat((int) cbank(c, t, 4));
            if (c.abs()) {
                f = Math.abs(f);
            }
            return c.negate() ? -f : f;
        }
        if (o instanceof Reg r && (r.abs() || r.negate())) {
            float f = Float.intBitsToFloat(r.index() == 255 ? 0 : t.r[r.index()]);
            if (r.abs()) {
                f = Math.abs(f);
            }
            return r.negate() ? -f : f;
        }
        if (o instanceof Imm i && i.floating()) {
            return (float) i.value();
        }
        if (o instanceof Imm i) {
            return Float.intBitsToFloat((int) i.bits());
        }
        return Float.intBitsToFloat(read(o, t, w));
    }

    boolean pred(SassOperand o, Thread t, Warp w) {
        if (o instanceof Pred p) {
            return t.p[p.index()] != p.negated();
        }
        if (o instanceof UPred p) {
            return w.up[p.index()] != p.negated();
        }
        throw new Stop(new Fault.Unimplemented("predicate operand " + o, ""));
    }

    static void writeR(Thread t, SassOperand d, int v) {
        int i = ((Reg) d).index();
        if (i != 255) {
            t.r[i] = v;
        }
    }

    static void writeR64(Thread t, SassOperand d, long v) {
        int i = ((Reg) d).index();
        if (i != 255) {
            t.r[i] = (int) v;
            t.r[i + 1] = (int) (v >>> 32);
        }
    }

    static void writeP(Thread t, SassOperand d, boolean v) {
        int i = ((Pred) d).index();
        if (i != 7) {
            t.p[i] = v;
        }
    }

    double readD(SassOperand o, Thread t, Warp w) {
        if (o instanceof Imm i) {
            return i.floating() ? i.value() : Double.longBitsToDouble(i.bits() << 32);
        }
        double d = Double.longBitsToDouble(read64(o, t, w));
        boolean neg = o instanceof Reg r ? r.negate() : o instanceof UReg u ? u.negate() : o instanceof CBank c && c.negate();
        boolean abs = o instanceof Reg r ? r.abs() : o instanceof CBank c && c.abs();
        if (abs) {
            d = Math.abs(d);
        }
        return neg ? -d : d;
    }

    /** The 64-bit value of register pair {@code r}, {@code r + 1} (low word first). */
    static long pair(Thread t, int r) {
        return Integer.toUnsignedLong(t.r[r]) | (long) t.r[r + 1] << 32;
    }

    long read64(SassOperand o, Thread t, Warp w) {
        if (o instanceof Reg r) {
            return r.index() == 255 ? 0 : pair(t, r.index());
        }
        if (o instanceof UReg u) {
            return u.index() == 63 ? 0 : Integer.toUnsignedLong(w.ur[u.index()]) | (long) w.ur[u.index() + 1] << 32;
        }
        if (o instanceof CBank c) {
            return cbank(c, t, 8);
        }
        if (o instanceof Imm i) {
            return i.bits();
        }
        throw new Stop(new Fault.Unimplemented("64-bit operand " + o, ""));
    }
}
