package org.jptxas.simulator.sass;

import static org.jptxas.simulator.sass.DecodedOp.CBANK;
import static org.jptxas.simulator.sass.DecodedOp.CONST;
import static org.jptxas.simulator.sass.DecodedOp.REG;
import static org.jptxas.simulator.sass.DecodedOp.UREG;

import org.jptxas.simulator.memory.GlobalMemory;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.numeric.Ieee;
import org.jptxas.simulator.numeric.Rounding;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;

/**
 * The emulator's hot path: one pre-decoded instruction executed for every lane of a converged group in one loop,
 * warp-uniform sources (immediates, UR, fixed constant-bank words) read once, no strings, maps or operand objects
 * per lane. Semantics are those of {@link SassMachine}'s per-thread code for the same forms (bit-exact; the suite
 * tests compare both against the CPU references).
 */
final class FastPath {
    private FastPath() {}

    /**
     * Executes straight-line {@code d} for the lanes {@code act} (the group's lanes whose guard holds). Program
     * counters are the caller's: the whole group moves to the next instruction.
     */
    static void run(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        switch (d.kind) {
            case NOP -> { }
            case MOV -> mov(m, d, th, base, act, w);
            case S2R -> s2r(m, d, th, base, act, w);
            case IMAD -> imad(m, d, th, base, act, w);
            case IMAD_WIDE -> imadWide(m, d, th, base, act, w);
            case IADD3 -> iadd3(m, d, th, base, act, w);
            case LEA -> lea(m, d, th, base, act, w);
            case LOP3 -> lop3Op(m, d, th, base, act, w);
            case SHF -> shf(m, d, th, base, act, w);
            case ISETP -> isetp(m, d, th, base, act, w);
            case FSETP -> fsetp(m, d, th, base, act, w);
            case FFMA, FADD, FMUL -> floatArith(m, d, th, base, act, w);
            case DFMA, DADD, DMUL -> doubleArith(m, d, th, base, act, w);
            case SEL -> sel(m, d, th, base, act, w);
            case LOAD, STORE -> access(m, d, th, base, act, w, d.kind == DecodedOp.Kind.LOAD);
            default -> throw new IllegalStateException("no fast path for " + d.kind);
        }
    }

    private static void mov(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), ua = uniform(m, d, 0, w), dst = d.dst;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            t.r[dst] = ra >= 0 ? t.r[ra] : ua;
        }
    }

    private static void s2r(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int dst = d.dst;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            t.r[dst] = switch (d.aux) {
                case DecodedOp.SR_TID_X -> t.tid.x();
                case DecodedOp.SR_TID_Y -> t.tid.y();
                case DecodedOp.SR_TID_Z -> t.tid.z();
                case DecodedOp.SR_CTAID_X -> m.cta().x();
                case DecodedOp.SR_CTAID_Y -> m.cta().y();
                case DecodedOp.SR_CTAID_Z -> m.cta().z();
                default -> t.lane;
            };
        }
    }

    private static void imad(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1), rc = reg(d, 2);
        int ua = uniform(m, d, 0, w), ub = uniform(m, d, 1, w), uc = uniform(m, d, 2, w);
        boolean na = d.srcNeg[0] && ra >= 0, nb = d.srcNeg[1] && rb >= 0, nc = d.srcNeg[2] && rc >= 0;
        int dst = d.dst, pc = d.ps0;
        boolean pcn = d.ps0Neg, x = d.is(DecodedOp.F_X);
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            int a = ra >= 0 ? (na ? -t.r[ra] : t.r[ra]) : ua;
            int b = rb >= 0 ? (nb ? -t.r[rb] : t.r[rb]) : ub;
            int c = rc >= 0 ? (nc ? -t.r[rc] : t.r[rc]) : uc;
            int r = a * b + c;
            if (x && t.p[pc] != pcn) {
                r++;
            }
            t.r[dst] = r;
        }
    }

    private static void imadWide(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1), rc = reg(d, 2);
        int ua = uniform(m, d, 0, w), ub = uniform(m, d, 1, w);
        long uc = rc >= 0 ? 0 : uniform64(m, d, 2, w);
        boolean na = d.srcNeg[0] && ra >= 0, nb = d.srcNeg[1] && rb >= 0;
        boolean unsigned = d.is(DecodedOp.F_UNSIGNED);
        int dst = d.dst;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            int a = ra >= 0 ? (na ? -t.r[ra] : t.r[ra]) : ua;
            int b = rb >= 0 ? (nb ? -t.r[rb] : t.r[rb]) : ub;
            long c = rc < 0 ? uc : rc == d.zero ? 0 : Integer.toUnsignedLong(t.r[rc]) | (long) t.r[rc + 1] << 32;
            long p = unsigned ? Integer.toUnsignedLong(a) * Integer.toUnsignedLong(b) : (long) a * b;
            long s = p + c;
            t.r[dst] = (int) s;
            t.r[dst + 1] = (int) (s >>> 32);
        }
    }

    private static void iadd3(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1), rc = reg(d, 2);
        long ua = addend(m, d, 0, w), ub = addend(m, d, 1, w), uc = addend(m, d, 2, w);
        boolean na = d.srcNeg[0], nb = d.srcNeg[1], nc = d.srcNeg[2];
        int dst = d.dst, pd0 = d.pd0, pd1 = d.pd1, ps0 = d.ps0, ps1 = d.ps1;
        boolean ps0n = d.ps0Neg, ps1n = d.ps1Neg, x = d.is(DecodedOp.F_X);
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            long sum = (ra >= 0 ? laneAddend(t.r[ra], na) : ua) + (rb >= 0 ? laneAddend(t.r[rb], nb) : ub)
                    + (rc >= 0 ? laneAddend(t.r[rc], nc) : uc);
            if (x) {
                if (ps0 >= 0 && t.p[ps0] != ps0n) {
                    sum++;
                }
                if (ps1 >= 0 && t.p[ps1] != ps1n) {
                    sum++;
                }
            }
            t.r[dst] = (int) sum;
            if (pd0 >= 0) {
                // two carry-outs each count one (IADD3.X adds both): a carry of 2 sets both
                long carry = sum >>> 32;
                t.p[pd0] = pd1 >= 0 ? carry >= 1 : (carry & 1) != 0;
                if (pd1 >= 0) {
                    t.p[pd1] = carry >= 2;
                }
            }
        }
    }

    private static void lea(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1), rc = reg(d, 2), rs = reg(d, 3);
        int ua = uniform(m, d, 0, w), ub = uniform(m, d, 1, w), uc = uniform(m, d, 2, w), us = uniform(m, d, 3, w);
        boolean na = d.srcNeg[0], nb = d.srcNeg[1], nc = d.srcNeg[2], ns = d.srcNeg[3];
        boolean hi = d.is(DecodedOp.F_HI), sx = d.is(DecodedOp.F_SX32), x = d.is(DecodedOp.F_X);
        int dst = d.dst, pd = d.pd0, ps = d.ps0;
        boolean psn = d.ps0Neg;
        long baseAddend = addend(m, d, 1, w);
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            int a = lane(t, ra, na, ua), b = lane(t, rb, nb, ub), sh = lane(t, rs, ns, us);
            long sum;
            if (hi) {
                int h = sx ? a >> 31 : lane(t, rc, nc, uc);
                long wide = (Integer.toUnsignedLong(a) | (long) h << 32) << (sh & 63);
                // a negated base carries as IADD3's (IntegerOps.lea)
                sum = (rb >= 0 ? laneAddend(t.r[rb], nb) : baseAddend) + ((wide >>> 32) & 0xffffffffL);
            } else if (na) { // -(a << s) enters as ~(a << s) + 1 (IntegerOps.lea): the carry of a subtraction
                sum = (~(Integer.toUnsignedLong(-a) << (sh & 31)) & 0xffffffffL) + 1 + Integer.toUnsignedLong(b);
            } else {
                sum = ((Integer.toUnsignedLong(a) << (sh & 31)) & 0xffffffffL) + Integer.toUnsignedLong(b);
            }
            if (x && t.p[ps] != psn) {
                sum++;
            }
            t.r[dst] = (int) sum;
            if (pd >= 0) {
                t.p[pd] = (sum >>> 32 & 1) != 0;
            }
        }
    }

    private static void lop3Op(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1), rc = reg(d, 2);
        int ua = uniform(m, d, 0, w), ub = uniform(m, d, 1, w), uc = uniform(m, d, 2, w);
        int lut = d.aux, dst = d.dst, pd = d.pd0, ps = d.ps0;
        boolean psn = d.ps0Neg;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            int a = ra >= 0 ? t.r[ra] : ua, b = rb >= 0 ? t.r[rb] : ub, c = rc >= 0 ? t.r[rc] : uc;
            int r = lop3(lut, a, b, c);
            t.r[dst] = r;
            if (pd >= 0) {
                // LOP3.LUT P, R, a, b, c, lut, Pq: the non-zero test ORed with Pq (only the slow path takes .PAND)
                t.p[pd] = r != 0 || ps >= 0 && t.p[ps] != psn;
            }
        }
    }

    private static void shf(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1), rc = reg(d, 2);
        int ua = uniform(m, d, 0, w), ub = uniform(m, d, 1, w), uc = uniform(m, d, 2, w);
        int dst = d.dst, f = d.flags;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            t.r[dst] = FunnelShift.shift(f, ra >= 0 ? t.r[ra] : ua, rb >= 0 ? t.r[rb] : ub, rc >= 0 ? t.r[rc] : uc);
        }
    }

    /**
     * Comparison outcomes a comparison accepts, as bits: 1 less, 2 equal, 4 greater, 8 unordered (a NaN operand),
     * indexed by {@link DecodedOp}'s comparison codes.
     */
    private static final int[] ACCEPTS = new int[16];

    static {
        ACCEPTS[DecodedOp.EQ] = 2;
        ACCEPTS[DecodedOp.NE] = 1 | 4;
        ACCEPTS[DecodedOp.LT] = 1;
        ACCEPTS[DecodedOp.LE] = 1 | 2;
        ACCEPTS[DecodedOp.GT] = 4;
        ACCEPTS[DecodedOp.GE] = 4 | 2;
        ACCEPTS[DecodedOp.EQU] = 2 | 8;
        ACCEPTS[DecodedOp.NEU] = 1 | 4 | 8;
        ACCEPTS[DecodedOp.LTU] = 1 | 8;
        ACCEPTS[DecodedOp.LEU] = 1 | 2 | 8;
        ACCEPTS[DecodedOp.GTU] = 4 | 8;
        ACCEPTS[DecodedOp.GEU] = 4 | 2 | 8;
        ACCEPTS[DecodedOp.NUM] = 1 | 2 | 4;
        ACCEPTS[DecodedOp.NAN] = 8;
        ACCEPTS[DecodedOp.F] = 0;
        ACCEPTS[DecodedOp.T] = 15;
    }

    /** The truth table of ISETP/FSETP's .AND/.OR/.XOR with the chained predicate, bit {@code result << 1 | chained}. */
    private static int combineTable(int flags) {
        return (flags & DecodedOp.F_AND) != 0 ? 0b1000 : (flags & DecodedOp.F_OR) != 0 ? 0b1110 : 0b0110;
    }

    private static void isetp(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1);
        int ua = uniform(m, d, 0, w), ub = uniform(m, d, 1, w);
        int accepts = ACCEPTS[d.aux], table = combineTable(d.flags), pd0 = d.pd0, pd1 = d.pd1, pc = d.ps0, pl = d.ps1;
        boolean pcn = d.ps0Neg, pln = d.ps1Neg, unsigned = d.is(DecodedOp.F_UNSIGNED), ex = d.is(DecodedOp.F_EX);
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            int a = ra >= 0 ? t.r[ra] : ua, b = rb >= 0 ? t.r[rb] : ub;
            int outcome = (unsigned ? Integer.compareUnsigned(a, b) : Integer.compare(a, b)) < 0 ? 0 : a == b ? 1 : 2;
            // .EX (the high half of a wide comparison): equal high halves defer to the low halves' result
            int r = ex && outcome == 1 ? (t.p[pl] != pln ? 1 : 0) : accepts >>> outcome & 1;
            int c = t.p[pc] != pcn ? 1 : 0;
            t.p[pd0] = (table >>> (r << 1 | c) & 1) != 0;
            t.p[pd1] = (table >>> ((r ^ 1) << 1 | c) & 1) != 0;
        }
    }

    private static void fsetp(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1);
        int ua = raw(m, d, 0, w), ub = raw(m, d, 1, w);
        boolean na = d.srcNeg[0], nb = d.srcNeg[1], aa = d.srcAbs[0], ab = d.srcAbs[1];
        int accepts = ACCEPTS[d.aux], table = combineTable(d.flags), pd0 = d.pd0, pd1 = d.pd1, pc = d.ps0;
        boolean pcn = d.ps0Neg, ftz = d.is(DecodedOp.F_FTZ);
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            float a = flt(ra >= 0 ? t.r[ra] : ua, na, aa), b = flt(rb >= 0 ? t.r[rb] : ub, nb, ab);
            if (ftz) {
                a = Ieee.ftz(a);
                b = Ieee.ftz(b);
            }
            int outcome = a < b ? 0 : a == b ? 1 : a > b ? 2 : 3;
            int r = accepts >>> outcome & 1;
            int c = t.p[pc] != pcn ? 1 : 0;
            t.p[pd0] = (table >>> (r << 1 | c) & 1) != 0;
            t.p[pd1] = (table >>> ((r ^ 1) << 1 | c) & 1) != 0;
        }
    }

    private static void floatArith(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1), rc = d.kind == DecodedOp.Kind.FFMA ? reg(d, 2) : -1;
        int ua = raw(m, d, 0, w), ub = raw(m, d, 1, w), uc = d.kind == DecodedOp.Kind.FFMA ? raw(m, d, 2, w) : 0;
        boolean na = d.srcNeg[0], nb = d.srcNeg[1], aa = d.srcAbs[0], ab = d.srcAbs[1];
        boolean nc = d.kind == DecodedOp.Kind.FFMA && d.srcNeg[2], ac = d.kind == DecodedOp.Kind.FFMA && d.srcAbs[2];
        boolean ftz = d.is(DecodedOp.F_FTZ), sat = d.is(DecodedOp.F_SAT);
        DecodedOp.Kind kind = d.kind;
        int dst = d.dst;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            float a = flt(ra >= 0 ? t.r[ra] : ua, na, aa), b = flt(rb >= 0 ? t.r[rb] : ub, nb, ab);
            if (ftz) {
                a = Ieee.ftz(a);
                b = Ieee.ftz(b);
            }
            float r;
            if (kind == DecodedOp.Kind.FADD) {
                r = a + b;
            } else if (kind == DecodedOp.Kind.FMUL) {
                r = a * b;
            } else {
                float c = flt(rc >= 0 ? t.r[rc] : uc, nc, ac);
                if (ftz) {
                    c = Ieee.ftz(c);
                }
                r = Ieee.fma(a, b, c, Rounding.RN);
            }
            if (ftz) {
                r = Ieee.ftz(r);
            }
            if (sat) {
                r = Ieee.saturate(r);
            }
            t.r[dst] = Float.isNaN(r) ? 0x7fffffff : Float.floatToRawIntBits(r);
        }
    }

    private static void doubleArith(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        DecodedOp.Kind kind = d.kind;
        int n = kind == DecodedOp.Kind.DFMA ? 3 : 2;
        int ra = reg(d, 0), rb = reg(d, 1), rc = n == 3 ? reg(d, 2) : -1;
        double ua = uniformDouble(m, d, 0, w), ub = uniformDouble(m, d, 1, w), uc = n == 3 ? uniformDouble(m, d, 2, w) : 0;
        boolean na = d.srcNeg[0], nb = d.srcNeg[1], aa = d.srcAbs[0], ab = d.srcAbs[1];
        boolean nc = n == 3 && d.srcNeg[2], ac = n == 3 && d.srcAbs[2];
        int dst = d.dst;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            double a = ra >= 0 ? dbl(t, ra, na, aa) : ua, b = rb >= 0 ? dbl(t, rb, nb, ab) : ub;
            double r = kind == DecodedOp.Kind.DADD ? a + b : kind == DecodedOp.Kind.DMUL ? a * b
                    : Math.fma(a, b, rc >= 0 ? dbl(t, rc, nc, ac) : uc);
            long bits = Double.isNaN(r) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(r);
            t.r[dst] = (int) bits;
            t.r[dst + 1] = (int) (bits >>> 32);
        }
    }

    private static void sel(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w) {
        int ra = reg(d, 0), rb = reg(d, 1);
        int ua = uniform(m, d, 0, w), ub = uniform(m, d, 1, w);
        int dst = d.dst, ps = d.ps0;
        boolean psn = d.ps0Neg;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            t.r[dst] = t.p[ps] != psn ? (ra >= 0 ? t.r[ra] : ua) : (rb >= 0 ? t.r[rb] : ub);
        }
    }

    /**
     * LDG/LDS ({@code load}) and STG/STS for the lanes {@code act}: the address's uniform part once, its register
     * part per lane; global accesses find their buffer once and again only when a lane leaves it.
     */
    private static void access(SassMachine m, DecodedOp d, Thread[] th, int base, int act, Warp w, boolean load) {
        int size = d.aux, data = d.dst;
        boolean signed = d.is(DecodedOp.F_SIGNED_ACCESS);
        int ar = d.addrReg, scale = d.addrScale;
        boolean pair = d.addrRegPair;
        long uniformPart = uniformAddress(d, w);
        Region r = d.is(DecodedOp.F_SHARED) ? m.sharedRegion() : null;
        GlobalMemory global = r == null ? m.globalMemory() : null;
        for (int k = act; k != 0; k &= k - 1) {
            Thread t = th[base + Integer.numberOfTrailingZeros(k)];
            long a = uniformPart + laneAddress(t, ar, pair, scale);
            if (global == null) {
                a = m.windows.sharedOffset(a); // the block's own cluster rank in the top byte
            }
            if (global != null && (r == null || !r.contains(a, size))) {
                r = global.region(a, size);
            }
            if (size == 4) {
                if (load) {
                    t.r[data] = r.load32(a);
                } else {
                    r.store32(a, t.r[data]);
                }
            } else if (size < 4) {
                if (load) {
                    long v = r.load(a, size);
                    t.r[data] = !signed ? (int) v : size == 1 ? (byte) v : (short) v;
                } else {
                    r.store(a, size, Integer.toUnsignedLong(t.r[data]));
                }
            } else {
                if ((a & (size - 1)) != 0) {
                    throw new MemoryAccessException(r.space(), a, size, "misaligned");
                }
                for (int q = 0; q < size / 4; q++) {
                    if (load) {
                        t.r[data + q] = r.load32(a + 4L * q);
                    } else {
                        r.store32(a + 4L * q, t.r[data + q]);
                    }
                }
            }
        }
    }

    /** BRA: the lanes {@code act} of {@code group} (at {@code pc}) jump to the target, the others fall through. */
    static void branch(DecodedOp d, Thread[] th, int base, int group, int act, int pc) {
        int target = d.aux;
        for (int k = group; k != 0; k &= k - 1) {
            int l = Integer.numberOfTrailingZeros(k);
            th[base + l].pc = (act >>> l & 1) != 0 ? target : pc + 1;
        }
    }

    /** The warp-uniform part of a LOAD/STORE address: offset plus UR (a pair or a zero-extended word). */
    private static long uniformAddress(DecodedOp d, Warp w) {
        long a = d.addrOffset;
        int u = d.addrUreg;
        if (u >= 0) {
            a += d.addrUregPair ? Integer.toUnsignedLong(w.ur[u]) | (long) w.ur[u + 1] << 32 : Integer.toUnsignedLong(w.ur[u]);
        }
        return a;
    }

    /** The per-lane part of a LOAD/STORE address: a register pair or a scaled zero-extended register, or 0. */
    private static long laneAddress(Thread t, int reg, boolean pair, int scale) {
        if (reg < 0) {
            return 0;
        }
        return pair ? Integer.toUnsignedLong(t.r[reg]) | (long) t.r[reg + 1] << 32 : Integer.toUnsignedLong(t.r[reg]) * scale;
    }

    /** A source's integer value for one lane: its register (negated if marked) or the slot's uniform value. */
    private static int lane(Thread t, int reg, boolean neg, int uniform) {
        return reg >= 0 ? (neg ? -t.r[reg] : t.r[reg]) : uniform;
    }

    /** The per-lane register of a slot, or -1 when the slot is warp-uniform. */
    private static int reg(DecodedOp d, int s) {
        return d.srcKind[s] == REG ? d.srcIndex[s] : -1;
    }

    /** A warp-uniform slot's 32-bit value with integer negation applied (0 for per-lane slots). */
    private static int uniform(SassMachine m, DecodedOp d, int s, Warp w) {
        int v = raw(m, d, s, w);
        return d.srcNeg[s] && d.srcKind[s] != CONST && !d.srcAbs[s] && d.srcKind[s] != REG ? -v : v;
    }

    /** A warp-uniform slot's bits without modifiers (float handlers apply |x| and -x themselves). */
    private static int raw(SassMachine m, DecodedOp d, int s, Warp w) {
        return switch (d.srcKind[s]) {
            case CONST -> d.srcConst[s];
            case UREG -> d.srcIndex[s] == 63 ? 0 : w.ur[d.srcIndex[s]];
            case CBANK -> (int) m.operands.constant(d.srcBank[s], 4);
            default -> 0;
        };
    }

    private static long uniform64(SassMachine m, DecodedOp d, int s, Warp w) {
        return switch (d.srcKind[s]) {
            case CONST -> d.srcConst64[s];
            case UREG -> d.srcIndex[s] == 63 ? 0 : Integer.toUnsignedLong(w.ur[d.srcIndex[s]]) | (long) w.ur[d.srcIndex[s] + 1] << 32;
            case CBANK -> m.operands.constant(d.srcBank[s], 8);
            default -> 0;
        };
    }

    /** A warp-uniform f64 slot's value with |x| then -x applied (immediates carry their sign). */
    private static double uniformDouble(SassMachine m, DecodedOp d, int s, Warp w) {
        if (d.srcKind[s] == REG) {
            return 0;
        }
        double v = Double.longBitsToDouble(uniform64(m, d, s, w));
        if (d.srcAbs[s]) {
            v = Math.abs(v);
        }
        return d.srcNeg[s] ? -v : v;
    }

    /** A per-lane f64 register pair with |x| then -x applied. */
    private static double dbl(Thread t, int reg, boolean neg, boolean abs) {
        double v = Double.longBitsToDouble(Integer.toUnsignedLong(t.r[reg]) | (long) t.r[reg + 1] << 32);
        if (abs) {
            v = Math.abs(v);
        }
        return neg ? -v : v;
    }

    /**
     * IADD3's (and LEA.HI's base's) contribution of a warp-uniform slot: {@code -UR} and {@code -c[][]} add
     * {@code ~x + 1} as the hardware does.
     */
    private static long addend(SassMachine m, DecodedOp d, int s, Warp w) {
        if (d.srcKind[s] == REG) {
            return 0;
        }
        int v = raw(m, d, s, w);
        boolean negated = d.srcNeg[s] && (d.srcKind[s] == UREG || d.srcKind[s] == CBANK);
        return negated ? Integer.toUnsignedLong(~v) + 1 : Integer.toUnsignedLong(v);
    }

    private static long laneAddend(int v, boolean neg) {
        return neg ? Integer.toUnsignedLong(~v) + 1 : Integer.toUnsignedLong(v);
    }

    /** A float source: the bits with |x| then -x applied to the value (immediates carry their sign in the bits). */
    private static float flt(int bits, boolean neg, boolean abs) {
        float f = Float.intBitsToFloat(bits);
        if (abs) {
            f = Math.abs(f);
        }
        return neg ? -f : f;
    }

    static int lop3(int lut, int a, int b, int c) {
        int r = 0;
        for (int bits = lut; bits != 0; bits &= bits - 1) {
            int bit = Integer.numberOfTrailingZeros(bits);
            r |= ((bit & 4) != 0 ? a : ~a) & ((bit & 2) != 0 ? b : ~b) & ((bit & 1) != 0 ? c : ~c);
        }
        return r;
    }
}
