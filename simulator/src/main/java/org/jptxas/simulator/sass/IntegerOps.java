package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.CBank;
import org.jptxas.simulator.sass.SassOperand.Pred;
import org.jptxas.simulator.sass.SassOperand.Reg;
import org.jptxas.simulator.sass.SassOperand.UReg;

/**
 * Integer arithmetic, logic and compares on the per-thread path: IMAD, IADD3, LEA, SHF, LOP3, PLOP3, PRMT, the minimum
 * and maximum forms, IDP, FLO, ISETP.
 */
final class IntegerOps {
    private final SassMachine machine;
    private final OperandAccess operands;

    IntegerOps(SassMachine machine) {
        this.machine = machine;
        this.operands = machine.operands;
    }

    /** PRMT's default mode: each result byte is the byte of {b:a} its selector nibble names, or that byte's sign. */
    static int permute(int a, int sel, int b) {
        return PermuteOps.permute("", a, sel, b);
    }

    void imad(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean signed = !op.has("U32");
        if (op.has("WIDE")) {
            // IMAD.WIDE{.U32}{.X} Rd, {Pc,} a, b, c64 {, Pcin}: the optional carry out of the 64-bit sum chains wide adds
            int i = 1;
            SassOperand pOut = null;
            if (o.get(1) instanceof Pred) {
                pOut = o.get(1);
                i = 2;
            }
            long a = signed ? operands.read(o.get(i), t, w) : Integer.toUnsignedLong(operands.read(o.get(i), t, w));
            long b = signed ? operands.read(o.get(i + 1), t, w) : Integer.toUnsignedLong(operands.read(o.get(i + 1), t, w));
            java.math.BigInteger sum = java.math.BigInteger.valueOf(a * b).and(MASK64)
                    .add(wideAddend(o.get(i + 2), t, w));
            if (op.has("X")) {
                sum = sum.add(java.math.BigInteger.valueOf(operands.pred(o.get(o.size() - 1), t, w) ? 1 : 0));
            }
            OperandAccess.writeR64(t, o.get(0), sum.longValue());
            if (pOut != null) {
                OperandAccess.writeP(t, pOut, sum.testBit(64));
            }
            return;
        }
        if (op.has("HI")) {
            // IMAD.HI{.U32}{.X} Rd, {Pc,} a, b, c64 {, Pcin}: high word of a*b plus a 64-bit C (a register pair; ptxas's
            // Newton steps put the estimate in its high half), with an optional carry out of bit 64. The product enters
            // the sum as its 64-bit pattern, signed or not, as in IMAD.WIDE: the carry is the unsigned adder's, which
            // is PTX's mad.hi.cc.s32 carry (ptxas writes that as IMAD.HI Rd, P0, a, b, R(c << 32) and reads P0).
            int i = 1;
            SassOperand pOut = null;
            if (o.get(1) instanceof Pred) {
                pOut = o.get(1);
                i = 2;
            }
            if (!(o.get(i + 2) instanceof Reg || o.get(i + 2) instanceof SassOperand.CBank)) {
                throw machine.unimplemented(op); // (a 64-bit c from a register pair or a constant bank)
            }
            int x = operands.read(o.get(i), t, w), y = operands.read(o.get(i + 1), t, w);
            java.math.BigInteger p = java.math.BigInteger.valueOf(signed ? (long) x * y
                    : Integer.toUnsignedLong(x) * Integer.toUnsignedLong(y)).and(MASK64);
            java.math.BigInteger sum = p.add(wideAddend(o.get(i + 2), t, w));
            if (op.has("X")) {
                sum = sum.add(java.math.BigInteger.valueOf(operands.pred(o.get(o.size() - 1), t, w) ? 1 : 0));
            }
            OperandAccess.writeR(t, o.get(0), sum.shiftRight(32).intValue());
            if (pOut != null) {
                OperandAccess.writeP(t, pOut, sum.testBit(64));
            }
            return;
        }
        int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w), c = operands.read(o.get(3), t, w);
        int r = a * b + c;
        if (op.has("X")) {
            r += operands.pred(o.get(o.size() - 1), t, w) ? 1 : 0;
        }
        OperandAccess.writeR(t, o.get(0), r);
    }

    private static final java.math.BigInteger MASK64 = java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE);

    /**
     * IMAD.WIDE/IMAD.HI's 64-bit c as it enters the 65-bit sum: {@code -Rc} is the pair's 64-bit negation, added as
     * {@code ~c + 1} (so -0 carries out), and {@code ~Rc} the pair inverted (ptxas folds sub.u64 after mul.wide into
     * {@code IMAD.WIDE.U32 Rd, a, b, -Rc}).
     */
    private java.math.BigInteger wideAddend(SassOperand o, Thread t, Warp w) {
        java.math.BigInteger c = java.math.BigInteger.valueOf(operands.read64(o, t, w)).and(MASK64);
        boolean negate = o instanceof Reg r ? r.negate() : o instanceof UReg u && u.negate();
        boolean invert = o instanceof Reg r ? r.invert() : o instanceof UReg u && u.invert();
        if (negate || invert) {
            c = c.not().and(MASK64);
        }
        return negate ? c.add(java.math.BigInteger.ONE) : c;
    }

    /** Contribution of a source to a carry-propagating sum: {@code -x} adds {@code ~x + 1} as the hardware does. */
    long addend(SassOperand o, Thread t, Warp w) {
        boolean negated = o instanceof Reg r ? r.negate() : o instanceof UReg u ? u.negate()
                : o instanceof CBank c && c.negate();
        int v = operands.read(o, t, w);
        // -x enters as ~x + 1, so -0 carries out of the word: the read value is -x, and ~x = -x - 1
        return negated ? Integer.toUnsignedLong(v - 1) + 1 : Integer.toUnsignedLong(v);
    }

    void iadd3(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int i = 1;
        SassOperand p0 = null, p1 = null;
        if (o.get(i) instanceof Pred) {
            p0 = o.get(i++);
            if (o.get(i) instanceof Pred) {
                p1 = o.get(i++);
            }
        }
        long sum = addend(o.get(i), t, w) + addend(o.get(i + 1), t, w) + addend(o.get(i + 2), t, w);
        if (op.has("X")) {
            for (int k = i + 3; k < o.size(); k++) {
                sum += operands.pred(o.get(k), t, w) ? 1 : 0;
            }
        }
        OperandAccess.writeR(t, o.get(0), (int) sum);
        long carry = sum >>> 32;
        if (p1 != null) {
            // two carry-outs each count one: IADD3.X adds both, so a carry of 2 sets both, not the second alone
            OperandAccess.writeP(t, p0, carry >= 1);
            OperandAccess.writeP(t, p1, carry >= 2);
        } else if (p0 != null) {
            OperandAccess.writeP(t, p0, (carry & 1) != 0);
        }
    }

    void lea(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int i = 1;
        SassOperand pOut = null;
        if (o.get(i) instanceof Pred) {
            pOut = o.get(i++);
        }
        if (op.has("HI")) {
            // LEA.HI d, lo, base, hi, shift [, carry]; .SX32: hi is the sign of lo
            int lo = operands.read(o.get(i), t, w);
            long base = addend(o.get(i + 1), t, w); // a negated base carries as IADD3's: ptxas's 64-bit subtractions
            int hi;
            int shiftIdx;
            if (op.has("SX32")) {
                hi = lo >> 31;
                shiftIdx = i + 2;
            } else {
                hi = operands.read(o.get(i + 2), t, w);
                shiftIdx = i + 3;
            }
            int sh = operands.read(o.get(shiftIdx), t, w) & 63;
            long wide = (Integer.toUnsignedLong(lo) | (long) hi << 32) << sh;
            long sum = base + ((wide >>> 32) & 0xffffffffL);
            if (op.has("X") && shiftIdx + 1 < o.size()) {
                sum += operands.pred(o.get(shiftIdx + 1), t, w) ? 1 : 0;
            }
            OperandAccess.writeR(t, o.get(0), (int) sum);
            if (pOut != null) {
                OperandAccess.writeP(t, pOut, (sum >>> 32 & 1) != 0);
            }
            return;
        }
        long a = Integer.toUnsignedLong(operands.read(o.get(i), t, w));
        long b = Integer.toUnsignedLong(operands.read(o.get(i + 1), t, w));
        int sh = operands.read(o.get(i + 2), t, w) & 31;
        // LEA Rd, P, -Ra, b, s adds -(a << s) as ~(a << s) + 1, as IADD3 adds -x: the low half of a 64-bit
        // subtraction (ptxas's sub.u64 of a shifted value), whose carry out is the borrow the .X half takes
        boolean negated = o.get(i) instanceof Reg r ? r.negate() : o.get(i) instanceof UReg u && u.negate();
        long sum = negated ? (~((-a & 0xffffffffL) << sh) & 0xffffffffL) + 1 + b : ((a << sh) & 0xffffffffL) + b;
        if (op.has("X") && i + 3 < o.size()) {
            sum += operands.pred(o.get(i + 3), t, w) ? 1 : 0;
        }
        OperandAccess.writeR(t, o.get(0), (int) sum);
        if (pOut != null) {
            OperandAccess.writeP(t, pOut, (sum >>> 32 & 1) != 0); // carry out of the low 32 bits, consumed by LEA.HI.X
        }
    }

    void shf(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        OperandAccess.writeR(t, o.get(0), FunnelShift.shift(FunnelShift.mode(op), operands.read(o.get(1), t, w), operands.read(o.get(2), t, w),
                operands.read(o.get(3), t, w)));
    }

    void isetp(SassOp op, Thread t, Warp w) {
        integerSetPredicate(op, t, w, (d, v) -> OperandAccess.writeP(t, d, v));
    }

    /** ISETP's two predicates (the comparison and its inverse, each combined with Pc), written by {@code out}. */
    void integerSetPredicate(SassOp op, Thread t, Warp w,
            java.util.function.BiConsumer<SassOperand, Boolean> out) {
        List<SassOperand> o = op.operands();
        String bool = op.has("AND") ? "AND" : op.has("OR") ? "OR" : "XOR";
        boolean r = integerCompare(op, operands.read(o.get(2), t, w), operands.read(o.get(3), t, w),
                op.has("EX") && (o.size() < 6 || operands.pred(o.get(5), t, w))); // sm_75 hides a PT .EX predicate
        boolean c = operands.pred(o.get(4), t, w);
        out.accept(o.get(0), combine(bool, r, c));
        out.accept(o.get(1), combine(bool, !r, c));
    }

    /**
     * ISETP's comparison ({@code .U32}: unsigned); with {@code .EX} it compares the high words of a 64-bit pair and
     * {@code low} (the low words' result, by the same comparison) decides when they are equal.
     */
    private boolean integerCompare(SassOp op, int a, int b, boolean low) {
        String cmp = op.modifiers().get(0);
        int ca = op.has("U32") ? Integer.compareUnsigned(a, b) : Integer.compare(a, b);
        if (op.has("EX")) {
            return switch (cmp) {
                case "EQ" -> ca == 0 && low;
                case "NE" -> ca != 0 || low;
                case "LT", "LE" -> ca < 0 || (ca == 0 && low);
                case "GT", "GE" -> ca > 0 || (ca == 0 && low);
                default -> throw machine.unimplemented(op);
            };
        }
        return switch (cmp) {
            case "EQ" -> ca == 0;
            case "NE" -> ca != 0;
            case "LT" -> ca < 0;
            case "LE" -> ca <= 0;
            case "GT" -> ca > 0;
            case "GE" -> ca >= 0;
            case "F" -> false;
            case "T" -> true;
            default -> throw machine.unimplemented(op);
        };
    }

    static boolean combine(String bool, boolean a, boolean b) {
        return switch (bool) {
            case "AND" -> a && b;
            case "OR" -> a || b;
            default -> a ^ b;
        };
    }

    /** LOP3.LUT: any function of three inputs given by its truth table, with an optional nonzero test. */
    void lop3(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int k = o.size();
        if (o.get(0) instanceof Pred) {
            // LOP3.LUT[.PAND] P0, Rd, a, b, c, lut, Pq: the result, and its non-zero test OR (.PAND: AND) Pq
            int a = operands.read(o.get(2), t, w), b = operands.read(o.get(3), t, w), c = operands.read(o.get(4), t, w);
            int lut = operands.read(o.get(5), t, w);
            int r = 0;
            for (int bit = 0; bit < 8; bit++) {
                if ((lut >>> bit & 1) != 0) {
                    r |= ((bit & 4) != 0 ? a : ~a) & ((bit & 2) != 0 ? b : ~b) & ((bit & 1) != 0 ? c : ~c);
                }
            }
            boolean q = k > 6 && operands.pred(o.get(6), t, w);
            OperandAccess.writeR(t, o.get(1), r);
            OperandAccess.writeP(t, o.get(0), op.has("PAND") ? r != 0 && q : r != 0 || q);
            t.pc++;
            return;
        }
        boolean predOut = o.get(1) instanceof Pred;
        int i = predOut ? 2 : 1;
        int a = operands.read(o.get(i), t, w), b = operands.read(o.get(i + 1), t, w), c = operands.read(o.get(i + 2), t, w);
        int lut = operands.read(o.get(i + 3), t, w);
        int r = 0;
        for (int bit = 0; bit < 8; bit++) {
            if ((lut >>> bit & 1) != 0) {
                r |= ((bit & 4) != 0 ? a : ~a) & ((bit & 2) != 0 ? b : ~b) & ((bit & 1) != 0 ? c : ~c);
            }
        }
        OperandAccess.writeR(t, o.get(0), r);
        if (predOut) {
            OperandAccess.writeP(t, o.get(1), r != 0);
        }
        if (k > i + 4 && !(o.get(i + 4) instanceof Pred)) {
            throw machine.unimplemented(op);
        }
        t.pc++;
    }

    /**
     * VIMNMX d, a, b, Pp (sm_90): as IMNMX, the predicate selects the minimum; {@code .S16x2}/{@code .U16x2} take
     * each 16-bit half on its own, and {@code .RELU} turns a negative result (of each half) into 0.
     */
    void vimnmx(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w);
        boolean min = operands.pred(o.get(3), t, w);
        OperandAccess.writeR(t, o.get(0), minMax(op, a, b, min));
        t.pc++;
    }

    /**
     * VABSDIFF4{.U8}{.ACC} d, a, b, c (vabsdiff4): per byte |a - b|, the bytes signed unless {@code .U8}; with
     * {@code .ACC} the four differences summed onto c (vabsdiff4.add), else packed into d's bytes (every lane
     * written, so c's merge bytes are never taken).
     */
    void vabsdiff4(SassOp op, Thread t, Warp w) {
        if (op.modifiers().stream().anyMatch(m -> !m.equals("U8") && !m.equals("ACC"))) {
            throw machine.unimplemented(op);
        }
        List<SassOperand> o = op.operands();
        int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w), c = operands.read(o.get(3), t, w);
        OperandAccess.writeR(t, o.get(0), absDiff4(a, b, c, op.has("U8"), op.has("ACC")));
        t.pc++;
    }

    static int absDiff4(int a, int b, int c, boolean unsigned, boolean accumulate) {
        int sum = c, packed = 0;
        for (int k = 0; k < 32; k += 8) {
            int x = unsigned ? a >>> k & 0xff : (byte) (a >>> k), y = unsigned ? b >>> k & 0xff : (byte) (b >>> k);
            int d = Math.abs(x - y);
            sum += d;
            packed |= (d & 0xff) << k;
        }
        return accumulate ? sum : packed;
    }

    /**
     * VIMNMX3 d, a, b, c, Pp (sm_90, ptxas's fold of two chained min or max): VIMNMX of VIMNMX(a, b) and c, with the
     * same types and {@code .RELU}. Clamping the inner result as well changes nothing: relu(min(relu(x), c)) and
     * relu(max(relu(x), c)) equal relu(min(x, c)) and relu(max(x, c)).
     */
    void vimnmx3(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w), c = operands.read(o.get(3), t, w);
        boolean min = operands.pred(o.get(4), t, w);
        OperandAccess.writeR(t, o.get(0), minMax(op, minMax(op, a, b, min), c, min));
        t.pc++;
    }

    /** The minimum or maximum of a and b as VIMNMX's (and VIMNMX3's) type and {@code .RELU} modifiers read them. */
    private int minMax(SassOp op, int a, int b, boolean min) {
        if (op.modifiers().stream().anyMatch(m -> !m.equals("U32") && !m.equals("S32") && !m.equals("S16x2")
                && !m.equals("U16x2") && !m.equals("RELU"))) {
            throw machine.unimplemented(op);
        }
        boolean relu = op.has("RELU");
        if (op.has("S16x2") || op.has("U16x2")) {
            boolean signed = op.has("S16x2");
            int r = 0;
            for (int k = 0; k < 2; k++) {
                int x = a >>> 16 * k & 0xffff, y = b >>> 16 * k & 0xffff;
                if (signed) {
                    x = (short) x;
                    y = (short) y;
                }
                int v = min ? Math.min(x, y) : Math.max(x, y);
                r |= ((relu ? Math.max(v, 0) : v) & 0xffff) << 16 * k;
            }
            return r;
        }
        int c = op.has("U32") ? Integer.compareUnsigned(a, b) : Integer.compare(a, b);
        int v = min ? (c <= 0 ? a : b) : (c >= 0 ? a : b);
        return relu ? Math.max(v, 0) : v;
    }

    /** VIADDMNMX (sm_90): minimum or maximum of (a + b) and c. */
    void viaddmnmx(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w), c = operands.read(o.get(3), t, w);
        boolean min = operands.pred(o.get(4), t, w);
        if (op.modifiers().stream().anyMatch(m -> !m.equals("U32") && !m.equals("S32"))) {
            throw machine.unimplemented(op);
        }
        int sum = a + b;
        int cmp = op.has("U32") ? Integer.compareUnsigned(sum, c) : Integer.compare(sum, c);
        OperandAccess.writeR(t, o.get(0), min ? (cmp <= 0 ? sum : c) : (cmp >= 0 ? sum : c));
        t.pc++;
    }

    /**
     * SGXT{.W}{.U32} d, a, b: PTX's szext, whose .clamp/.wrap it is (ptxas writes szext.clamp as a bare SGXT): the low
     * b bits of a, sign- or zero-extended; a width of 32 or more (the whole register, not its low byte) gives a
     * unchanged, .W takes the width modulo 32 instead; a width of 0 gives 0.
     */
    void sgxt(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w);
        OperandAccess.writeR(t, o.get(0), org.jptxas.simulator.numeric.BitFields.signOrZeroExtend(a, b, op.has("W"),
                !op.has("U32")));
        t.pc++;
    }

    /** IDP.4A and IDP.2A: dot products of byte (and halfword) lanes with accumulation. */
    void idp(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int a = operands.read(o.get(1), t, w), b = operands.read(o.get(2), t, w), acc = operands.read(o.get(3), t, w);
        boolean aSigned = op.modifiers().contains("S8") || op.modifiers().contains("S16")
                ? op.modifiers().get(op.modifiers().size() - 2).startsWith("S") : false;
        boolean bSigned = op.modifiers().get(op.modifiers().size() - 1).startsWith("S");
        if (op.has("4A")) {
            for (int k = 0; k < 4; k++) {
                int x = aSigned ? (byte) (a >> 8 * k) : a >>> 8 * k & 0xff;
                int y = bSigned ? (byte) (b >> 8 * k) : b >>> 8 * k & 0xff;
                acc += x * y;
            }
        } else {
            int hiOff = op.has("HI") ? 2 : 0;
            for (int k = 0; k < 2; k++) {
                int x = aSigned ? (short) (a >> 16 * k) : a >>> 16 * k & 0xffff;
                int y = bSigned ? (byte) (b >> 8 * (k + hiOff)) : b >>> 8 * (k + hiOff) & 0xff;
                acc += x * y;
            }
        }
        OperandAccess.writeR(t, o.get(0), acc);
        t.pc++;
    }

    /** FLO: the position of the most significant set (or, signed, non-sign) bit. */
    void flo(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int x = operands.read(o.get(1), t, w);
        boolean signed = !op.has("U32");
        if (signed && x < 0) {
            x = ~x;
        }
        int msb = x == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(x);
        OperandAccess.writeR(t, o.get(0), op.has("SH") ? (msb < 0 ? -1 : 31 - msb) : msb);
        t.pc++;
    }

    /**
     * PLOP3.LUT: one or two predicates as functions of three predicates, or of three registers' sign bits
     * ({@code R7.SIGN}, {@code UR6.SIGN}, {@code c[0x2] [0x0].SIGN}: ptxas's saturating adds test the operands' and the
     * sum's signs, an immediate operand's in constant bank 2 or a uniform register).
     */
    void plop3(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int lut = operands.read(o.get(5), t, w);
        boolean a = input(o.get(2), t, w), b = input(o.get(3), t, w), c = input(o.get(4), t, w);
        int idx = (a ? 4 : 0) | (b ? 2 : 0) | (c ? 1 : 0);
        OperandAccess.writeP(t, o.get(0), (lut >>> idx & 1) != 0);
        if (o.size() > 6) {
            int lut2 = operands.read(o.get(6), t, w);
            OperandAccess.writeP(t, o.get(1), (lut2 >>> idx & 1) != 0);
        }
        t.pc++;
    }

    private boolean input(SassOperand x, Thread t, Warp w) {
        if (x instanceof Reg r && "SIGN".equals(r.suffix())) {
            return operands.read(new Reg(r.index(), false, false, false, ""), t, w) < 0;
        }
        if (x instanceof SassOperand.SignBit s) {
            return operands.read(s.source(), t, w) < 0;
        }
        return operands.pred(x, t, w);
    }

    /** PRMT: byte permute. */
    void prmt(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int a = operands.read(o.get(1), t, w), sel = operands.read(o.get(2), t, w), b = operands.read(o.get(3), t, w);
        List<String> mode = op.modifiers();
        if (mode.size() > 1 || !mode.isEmpty() && !PermuteOps.MODES.contains(mode.get(0))) {
            throw machine.unimplemented(op);
        }
        OperandAccess.writeR(t, o.get(0), PermuteOps.permute(mode.isEmpty() ? "" : mode.get(0), a, sel, b));
        t.pc++;
    }
}
