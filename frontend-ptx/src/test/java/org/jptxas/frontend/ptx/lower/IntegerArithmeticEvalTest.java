package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.Random;
import java.util.function.LongBinaryOperator;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.junit.jupiter.api.Test;

/** 64-bit integer arithmetic, comparisons and shifts lowered to Ori and run by the Ori evaluator, against Java. */
class IntegerArithmeticEvalTest {
    static final long[] EDGES = {0, 1, 2, 3, -1, -2, Long.MIN_VALUE, Long.MAX_VALUE, 0xffffffffL, 0x100000000L,
        0x80000000L, 0x7fffffffL, -0x80000000L, 0x123456789abcdefL, 0xfedcba9876543210L, 63, 64, 31, 32, 33};

    static void check(InstructionLowerer l, String ptx, PtxType t, PtxType bt, LongBinaryOperator ref) {
        Harness h = new Harness().reg("%a", t).reg("%b", bt).reg("%d", t).lower(l, ptx);
        Random rnd = new Random(ptx.hashCode());
        for (long a : EDGES) {
            for (long b : EDGES) {
                run(h, ptx, bt, ref, a, b);
            }
        }
        for (int k = 0; k < 2000; k++) {
            long a = rnd.nextLong() >> rnd.nextInt(64);
            long b = rnd.nextLong() >> rnd.nextInt(64);
            run(h, ptx, bt, ref, a, b);
        }
    }

    static void run(Harness h, String ptx, PtxType bt, LongBinaryOperator ref, long a, long b) {
        OriEvaluator ev = h.eval();
        ev.set64(h.r("%a"), a);
        if (bt.sizeBytes() == 8) {
            ev.set64(h.r("%b"), b);
        } else {
            ev.set(h.r("%b"), (int) b);
            b &= 0xffffffffL;
        }
        ev.run();
        assertEquals(ref.applyAsLong(a, b), ev.get64(h.r("%d")), ptx + " " + Long.toHexString(a) + ", " + Long.toHexString(b));
    }

    static final InstructionLowerer ARITH = new ArithmeticLowerer();
    static final InstructionLowerer SHIFT = new ShiftLowerer();

    @Test
    void addSubMul64() {
        check(ARITH, "add.s64 %d, %a, %b", PtxType.S64, PtxType.S64, Long::sum);
        check(ARITH, "sub.s64 %d, %a, %b", PtxType.S64, PtxType.S64, (a, b) -> a - b);
        check(ARITH, "mul.lo.u64 %d, %a, %b", PtxType.U64, PtxType.U64, (a, b) -> a * b);
        check(ARITH, "mul.hi.u64 %d, %a, %b", PtxType.U64, PtxType.U64, (a, b) -> new BigInteger(Long.toUnsignedString(a)).multiply(new BigInteger(Long.toUnsignedString(b)))
                        .shiftRight(64).longValue());
        check(ARITH, "mul.hi.s64 %d, %a, %b", PtxType.S64, PtxType.S64, Math::multiplyHigh);
        check(ARITH, "sub.s64 %d, %a, 5", PtxType.S64, PtxType.S64, (a, b) -> a - 5);
    }

    @Test
    void saturatingAddSub32() {
        int[] edges = {0, 1, -1, 2, -2, Integer.MAX_VALUE, Integer.MIN_VALUE, Integer.MAX_VALUE - 1,
            Integer.MIN_VALUE + 1, 0x40000000, -0x40000000, 0x12345678};
        for (boolean subtract : new boolean[] {false, true}) {
            String ptx = (subtract ? "sub" : "add") + ".sat.s32 %d, %a, %b";
            Harness h = new Harness().reg("%a", PtxType.S32).reg("%b", PtxType.S32).reg("%d", PtxType.S32)
                    .lower(ARITH, ptx);
            Random rnd = new Random(ptx.hashCode());
            for (int k = 0; k < edges.length * edges.length + 2000; k++) {
                int a = k < edges.length * edges.length ? edges[k / edges.length] : rnd.nextInt();
                int b = k < edges.length * edges.length ? edges[k % edges.length] : rnd.nextInt();
                long exact = subtract ? (long) a - b : (long) a + b;
                int want = (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, exact));
                OriEvaluator ev = h.eval();
                ev.set(h.r("%a"), a);
                ev.set(h.r("%b"), b);
                ev.run();
                assertEquals(want, ev.get(h.r("%d")), ptx + " " + a + ", " + b);
            }
        }
    }

    @Test
    void minMaxNegAbs64() {
        check(ARITH, "min.s64 %d, %a, %b", PtxType.S64, PtxType.S64, Math::min);
        check(ARITH, "max.u64 %d, %a, %b", PtxType.U64, PtxType.U64, (a, b) -> Long.compareUnsigned(a, b) >= 0 ? a : b);
        check(ARITH, "neg.s64 %d, %a", PtxType.S64, PtxType.S64, (a, b) -> -a);
        check(ARITH, "abs.s64 %d, %a", PtxType.S64, PtxType.S64, (a, b) -> Math.abs(a));
    }

    @Test
    void shifts64() {
        check(SHIFT, "shl.b64 %d, %a, %b", PtxType.B64, PtxType.U32, (a, b) -> b >= 64 ? 0 : a << b);
        check(SHIFT, "shr.u64 %d, %a, %b", PtxType.U64, PtxType.U32, (a, b) -> b >= 64 ? 0 : a >>> b);
        check(SHIFT, "shr.s64 %d, %a, %b", PtxType.S64, PtxType.U32, (a, b) -> a >> Math.min(b, 63));
        for (int n : new int[] {0, 1, 7, 31, 32, 33, 40, 63, 64}) {
            check(SHIFT, "shl.b64 %d, %a, " + n, PtxType.B64, PtxType.U32, (a, b) -> n >= 64 ? 0 : a << n);
            check(SHIFT, "shr.u64 %d, %a, " + n, PtxType.U64, PtxType.U32, (a, b) -> n >= 64 ? 0 : a >>> n);
            check(SHIFT, "shr.s64 %d, %a, " + n, PtxType.S64, PtxType.U32, (a, b) -> a >> Math.min(n, 63));
        }
    }

    @Test
    void compare64() {
        String[] ops = {"eq", "ne", "lt", "le", "gt", "ge"};
        for (String op : ops) {
            for (PtxType t : new PtxType[] {PtxType.S64, PtxType.U64}) {
                Harness h = new Harness().reg("%a", t).reg("%b", t).reg("%p", PtxType.PRED)
                        .lower(new Compare(), "setp." + op + "." + t.ptxName() + " %p, %a, %b");
                for (long a : EDGES) {
                    for (long b : EDGES) {
                        OriEvaluator ev = h.eval();
                        ev.set64(h.r("%a"), a);
                        ev.set64(h.r("%b"), b);
                        ev.run();
                        int c = t == PtxType.S64 ? Long.compare(a, b) : Long.compareUnsigned(a, b);
                        boolean want = switch (op) {
                            case "eq" -> c == 0;
                            case "ne" -> c != 0;
                            case "lt" -> c < 0;
                            case "le" -> c <= 0;
                            case "gt" -> c > 0;
                            default -> c >= 0;
                        };
                        assertEquals(want, ev.getP(h.r("%p")), op + "." + t + " " + a + ", " + b);
                    }
                }
            }
        }
    }
}
