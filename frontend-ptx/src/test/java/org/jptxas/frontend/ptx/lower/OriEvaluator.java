package org.jptxas.frontend.ptx.lower;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Runs lowered Ori for one thread with SASS semantics (32-bit registers, FFMA with one rounding, FTZ, the
 * directed-rounding modifiers), over the opcodes the math lowerers emit. MUFU follows the project's SASS emulator
 * (the exact function rounded to f32), optionally off by one unit in the last place to show that Newton-refined
 * results do not depend on the last bit of the approximation. FCHK follows a conservative model of the cases the
 * division fast path cannot do exactly, or flags everything (as the emulator does).
 */
final class OriEvaluator {
    enum FchkMode { MODEL, ALWAYS, NEVER }

    private final TestLoweringContext code;
    private final List<BasicBlock> layout;
    private final org.jptxas.ori.ir.FunctionBody body;
    private final Map<Integer, int[]> r = new HashMap<>();
    private final Map<Integer, Boolean> p = new HashMap<>();
    FchkMode fchk = FchkMode.MODEL;
    /** When set, MUFU RCP/RSQ/RCP64H/RSQ64H results move by -1, 0 or +1 ulp at random. */
    Random mufuNoise;
    long steps;
    boolean trace;

    OriEvaluator(TestLoweringContext code) {
        this(code, code.layout, code.body);
    }

    /** An evaluator of {@code body} (blocks in layout order), a subroutine called from {@code code}. */
    private OriEvaluator(TestLoweringContext code, List<BasicBlock> layout, org.jptxas.ori.ir.FunctionBody body) {
        this.code = code;
        this.layout = layout;
        this.body = body;
    }

    /** Registers by number, physical ones apart from virtual ones (a subroutine reads its arguments from R4...). */
    private static int key(Reg reg) {
        return reg.virtual() ? reg.index() : ~reg.index();
    }

    // ---- register access ----

    void set(Reg reg, int v) {
        if (reg.isZero()) {
            return;
        }
        int[] slot = r.computeIfAbsent(key(reg), k -> new int[reg.comps()]);
        slot[reg.isPart() ? reg.part() : 0] = v;
    }

    void set64(Reg reg, long v) {
        if (reg.isZero()) {
            return;
        }
        int[] slot = r.computeIfAbsent(key(reg), k -> new int[2]);
        slot[0] = (int) v;
        slot[1] = (int) (v >>> 32);
    }

    void setF(Reg reg, float v) {
        set(reg, Float.floatToRawIntBits(v));
    }

    void setD(Reg reg, double v) {
        set64(reg, Double.doubleToRawLongBits(v));
    }

    void setP(Reg reg, boolean v) {
        if (!reg.isZero()) {
            p.put(key(reg), v);
        }
    }

    int get(Reg reg) {
        if (reg.isZero()) {
            return 0;
        }
        int[] slot = r.get(key(reg));
        if (slot == null) {
            throw new IllegalStateException("read of unset " + reg);
        }
        return slot[reg.isPart() ? reg.part() : 0];
    }

    long get64(Reg reg) {
        if (reg.isZero()) {
            return 0;
        }
        int[] slot = r.get(key(reg));
        if (slot == null || slot.length < 2) {
            throw new IllegalStateException("read of unset pair " + reg);
        }
        return Integer.toUnsignedLong(slot[0]) | (long) slot[1] << 32;
    }

    boolean getP(Reg reg) {
        if (reg.isZero()) {
            return true;
        }
        Boolean v = p.get(key(reg));
        if (v == null) {
            throw new IllegalStateException("read of unset " + reg);
        }
        return v;
    }

    // ---- sources ----

    private int s32(Instr i, int k) {
        Src s = i.srcs().get(k);
        int v;
        if (s.value() instanceof Reg reg) {
            v = get(reg);
        } else if (s.value() instanceof Imm imm) {
            v = (int) imm.bits();
        } else {
            throw new IllegalStateException("source " + s + " of " + i);
        }
        if (s.not()) {
            v = ~v;
        }
        if (s.neg()) {
            v = -v;
        }
        return v;
    }

    private long s64(Instr i, int k) {
        Src s = i.srcs().get(k);
        long v;
        if (s.value() instanceof Reg reg) {
            v = reg.isZero() ? 0 : get64(reg);
        } else if (s.value() instanceof Imm imm) {
            v = imm.bits();
        } else {
            throw new IllegalStateException("source " + s + " of " + i);
        }
        return v;
    }

    private float f32(Instr i, int k, boolean ftz) {
        Src s = i.srcs().get(k);
        float v = s.value() instanceof Reg reg ? Float.intBitsToFloat(get(reg))
                : Float.intBitsToFloat((int) ((Imm) s.value()).bits());
        if (ftz) {
            v = ftz(v);
        }
        if (s.abs()) {
            v = Math.abs(v);
        }
        if (s.neg()) {
            v = -v;
        }
        return v;
    }

    private double f64(Instr i, int k) {
        Src s = i.srcs().get(k);
        double v;
        if (s.value() instanceof Reg reg) {
            v = Double.longBitsToDouble(reg.isZero() ? 0 : get64(reg));
        } else {
            long bits = ((Imm) s.value()).bits();
            // a 32-bit immediate of a double instruction is the high word (as SASS takes f64 immediates)
            v = Double.longBitsToDouble((bits >>> 32) == 0 ? bits << 32 : bits);
        }
        if (s.abs()) {
            v = Math.abs(v);
        }
        if (s.neg()) {
            v = -v;
        }
        return v;
    }

    private boolean pr(Instr i, int k) {
        Src s = i.srcs().get(k);
        boolean v = s.value() instanceof Reg reg ? getP(reg) : ((Imm) s.value()).bits() != 0;
        return s.not() != v;
    }

    static float ftz(float v) {
        return Math.abs(v) < Float.MIN_NORMAL ? Math.copySign(0f, v) : v;
    }

    // ---- execution ----

    /** Runs from the first block until control leaves the last block of the layout. */
    void run() {
        int b = 0;
        outer:
        while (b < layout.size()) {
            BasicBlock block = layout.get(b);
            for (Instr i : block.instrs()) {
                if (++steps > 1_000_000) {
                    throw new IllegalStateException("runaway");
                }
                if (!i.guard().isAlways() && getP(i.guard().predicate()) == i.guard().negated()) {
                    continue;
                }
                if (i.op().name().equals("BRA")) {
                    BlockLabel l = i.branchTarget();
                    b = layout.indexOf(body.block(l.block()));
                    continue outer;
                }
                exec(i);
                if (trace) {
                    StringBuilder sb = new StringBuilder(i.toString()).append("   =>");
                    for (Reg dr : i.dsts()) {
                        if (!dr.isZero()) {
                            sb.append(' ').append(dr.file().isPredicate() ? String.valueOf(p.get(key(dr)))
                                    : "0x" + Integer.toHexString(get(dr)));
                        }
                    }
                    System.out.println(sb);
                }
            }
            b++;
        }
    }

    /** A call of a slow-path subroutine: its body runs in an evaluator of its own, arguments from R4 up, result in R4. */
    private void call(Instr i) {
        String name = ((org.jptxas.ori.ir.Sym) i.srcs().get(0).value()).name();
        org.jptxas.ori.ir.OriFunction f = SlowPathSubroutines.function(name, code.target(), code.profile());
        List<BasicBlock> blocks = f.body().blocks();
        OriEvaluator sub = new OriEvaluator(code, blocks, f.body());
        sub.fchk = fchk;
        sub.mufuNoise = mufuNoise;
        sub.trace = trace;
        for (int k = 1; k < i.srcs().size(); k++) {
            sub.set(Reg.phys(org.jptxas.ori.ir.RegFile.R, EntryAbi.ABI_FIRST_REG + k - 1, 1), s32(i, k));
        }
        sub.run();
        steps += sub.steps;
        set(i.dsts().get(0), sub.get(Reg.phys(org.jptxas.ori.ir.RegFile.R, EntryAbi.ABI_FIRST_REG, 1)));
    }

    private static boolean has(Instr i, String m) {
        return i.mods().contains(m);
    }

    private static Rnd rnd(Instr i) {
        return has(i, "RZ") ? Rnd.RZ : has(i, "RM") ? Rnd.RM : has(i, "RP") ? Rnd.RP : Rnd.RN;
    }

    enum Rnd { RN, RZ, RM, RP }

    private void exec(Instr i) {
        List<Reg> d = i.dsts();
        String op = i.op().name();
        switch (op) {
            case "CALL" -> call(i);
            case "RET" -> { } // the last instruction of a subroutine's last block
            case "MOV" -> set(d.get(0), s32(i, 0));
            case "IMAD" -> imad(i);
            case "IMAD_WIDE" -> imad(new Instr(i.op(), java.util.stream.Stream.concat(java.util.stream.Stream.of("WIDE"),
                    i.mods().stream()).toList(), i.dsts(), i.srcs(), i.guard(), i.line()));
            case "IADD3" -> {
                long sum = 0;
                for (int k = 0; k < 3; k++) {
                    Src s = i.srcs().get(k);
                    int v = s.value() instanceof Reg reg ? get(reg) : (int) ((Imm) s.value()).bits();
                    if (s.not()) {
                        v = ~v;
                    }
                    sum += s.neg() ? Integer.toUnsignedLong(~v) + 1 : Integer.toUnsignedLong(v);
                }
                if (has(i, "X")) {
                    for (int k = 3; k < i.srcs().size(); k++) {
                        sum += pr(i, k) ? 1 : 0;
                    }
                }
                set(d.get(0), (int) sum);
                if (d.size() > 1) {
                    setP(d.get(1), (sum >>> 32 & 1) != 0);
                }
                if (d.size() > 2) {
                    setP(d.get(2), (sum >>> 33 & 1) != 0);
                }
            }
            case "LEA" -> {
                int sh = s32(i, 2) & 31;
                if (has(i, "HI")) {
                    // LEA.HI d, lo, base, hi, shift
                    long wide = (Integer.toUnsignedLong(s32(i, 0)) | (long) s32(i, 2) << 32) << (s32(i, 3) & 63);
                    set(d.get(0), (int) ((wide >>> 32) + s32(i, 1)));
                } else {
                    long sum = Integer.toUnsignedLong(s32(i, 0) << sh) + Integer.toUnsignedLong(s32(i, 1));
                    set(d.get(0), (int) sum);
                    if (d.size() > 1) {
                        setP(d.get(1), (sum >>> 32) != 0);
                    }
                }
            }
            case "LOP3" -> {
                int a = s32(i, 0), b = s32(i, 1), c = s32(i, 2), lut = s32(i, 3);
                int res = 0;
                for (int bit = 0; bit < 8; bit++) {
                    if ((lut >>> bit & 1) != 0) {
                        res |= ((bit & 4) != 0 ? a : ~a) & ((bit & 2) != 0 ? b : ~b) & ((bit & 1) != 0 ? c : ~c);
                    }
                }
                if (d.get(0).file().isPredicate()) {
                    setP(d.get(0), res != 0);
                    set(d.get(1), res);
                } else {
                    set(d.get(0), res);
                }
            }
            case "PLOP3" -> {
                boolean a = pr(i, 0), b = pr(i, 1), c = pr(i, 2);
                int idx = (a ? 4 : 0) | (b ? 2 : 0) | (c ? 1 : 0);
                setP(d.get(0), (s32(i, 3) >>> idx & 1) != 0);
                setP(d.get(1), (s32(i, 4) >>> idx & 1) != 0);
            }
            case "SHF" -> shf(i);
            case "SEL", "FSEL" -> set(d.get(0), pr(i, 2) ? s32(i, 0) : s32(i, 1));
            case "ISETP" -> isetp(i);
            case "FSETP", "DSETP" -> fsetp(i);
            case "FFMA", "FADD", "FMUL" -> ffma(i);
            case "DFMA", "DADD", "DMUL" -> {
                double a = f64(i, 0), b = f64(i, 1);
                Rnd m = rnd(i);
                double res;
                if (op.equals("DADD")) {
                    res = m == Rnd.RN ? a + b : roundD(exactSum(a, b), a + b, m);
                } else if (op.equals("DMUL")) {
                    res = m == Rnd.RN ? a * b : roundD(exactProd(a, b, 0), a * b, m);
                } else {
                    double c = f64(i, 2);
                    res = m == Rnd.RN ? Math.fma(a, b, c) : roundD(exactProd(a, b, c), Math.fma(a, b, c), m);
                }
                set64(d.get(0), Double.isNaN(res) ? 0x7fffffffffffffffL : Double.doubleToRawLongBits(res));
            }
            case "MUFU" -> mufu(i);
            case "FCHK" -> {
                float a = f32(i, 0, false), b = f32(i, 1, false);
                setP(d.get(0), switch (fchk) {
                    case ALWAYS -> true;
                    case NEVER -> false;
                    case MODEL -> fchkModel(a, b);
                });
            }
            case "POPC" -> set(d.get(0), Integer.bitCount(s32(i, 0)));
            case "BREV" -> set(d.get(0), Integer.reverse(s32(i, 0)));
            case "FLO" -> {
                int x = s32(i, 0);
                if (!has(i, "U32") && x < 0) {
                    x = ~x;
                }
                int msb = x == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(x);
                set(d.get(0), has(i, "SH") ? (msb < 0 ? -1 : 31 - msb) : msb);
            }
            case "IABS" -> set(d.get(0), Math.abs(s32(i, 0)));
            case "IMNMX" -> {
                int a = s32(i, 0), b = s32(i, 1);
                int c = has(i, "U32") ? Integer.compareUnsigned(a, b) : Integer.compare(a, b);
                set(d.get(0), pr(i, 2) == (c <= 0) ? a : b);
            }
            case "BMSK" -> {
                int pos = s32(i, 0) & 0xff, len = s32(i, 1) & 0xff;
                long end = Math.min(32, (long) pos + len);
                set(d.get(0), pos >= 32 ? 0 : (int) (((1L << end) - 1) & ~((1L << pos) - 1)));
            }
            case "SGXT" -> {
                int a = s32(i, 0), n = Math.min(s32(i, 1) & 0xff, 32);
                int v = n == 0 ? 0 : n == 32 ? a : a & ((1 << n) - 1);
                if (!has(i, "U32") && n > 0 && n < 32 && (v >>> (n - 1) & 1) != 0) {
                    v |= -(1 << n);
                }
                set(d.get(0), v);
            }
            case "PRMT" -> prmt(i);
            case "IDP" -> idp(i);
            case "VABSDIFF" -> {
                int a = s32(i, 0), b = s32(i, 1), c = s32(i, 2);
                boolean less = has(i, "U32") ? Integer.compareUnsigned(a, b) < 0 : a < b;
                set(d.get(0), (less ? b - a : a - b) + c);
            }
            default -> Conversions.exec(this, i);
        }
    }

    // package-private accessors for Conversions
    int src32(Instr i, int k) {
        return s32(i, k);
    }

    long src64(Instr i, int k) {
        return s64(i, k);
    }

    float srcF(Instr i, int k, boolean ftz) {
        return f32(i, k, ftz);
    }

    double srcD(Instr i, int k) {
        return f64(i, k);
    }

    /** A 64-bit addend: a whole register pair, or a 32-bit value zero-extended. */
    private long addend64(Instr i, int k) {
        Src s = i.srcs().get(k);
        if (s.value() instanceof Reg reg && !reg.isZero() && reg.comps() == 2 && !reg.isPart()) {
            return get64(reg);
        }
        return Integer.toUnsignedLong(s32(i, k));
    }

    private void imad(Instr i) {
        Reg d = i.dsts().get(0);
        boolean signed = !has(i, "U32");
        Reg carryOut = i.dsts().size() > 1 && !i.dsts().get(1).isZero() ? i.dsts().get(1) : null;
        if (has(i, "WIDE") || has(i, "HI")) {
            long a = signed ? s32(i, 0) : Integer.toUnsignedLong(s32(i, 0));
            long b = signed ? s32(i, 1) : Integer.toUnsignedLong(s32(i, 1));
            java.math.BigInteger prod = java.math.BigInteger.valueOf(a).multiply(java.math.BigInteger.valueOf(b));
            java.math.BigInteger mask64 = java.math.BigInteger.ONE.shiftLeft(64).subtract(java.math.BigInteger.ONE);
            if (!signed) {
                prod = prod.and(mask64);
            }
            java.math.BigInteger c = java.math.BigInteger.valueOf(addend64(i, 2)).and(mask64);
            java.math.BigInteger sum = prod.and(mask64).add(c);
            if (has(i, "X")) {
                sum = sum.add(java.math.BigInteger.valueOf(pr(i, 3) ? 1 : 0));
            }
            if (has(i, "WIDE")) {
                set64(d, sum.longValue());
            } else {
                // high word of the 64-bit product plus the 64-bit addend
                java.math.BigInteger full = signed ? java.math.BigInteger.valueOf(a * b).add(c) : sum;
                set(d, full.shiftRight(32).intValue());
            }
            if (carryOut != null) {
                setP(carryOut, sum.testBit(64));
            }
            return;
        }
        int r = s32(i, 0) * s32(i, 1) + s32(i, 2);
        if (has(i, "X")) {
            r += pr(i, 3) ? 1 : 0;
        }
        set(d, r);
    }

    private void shf(Instr i) {
        long lo = Integer.toUnsignedLong(s32(i, 0));
        int shRaw = s32(i, 1);
        long hi = Integer.toUnsignedLong(s32(i, 2));
        boolean left = has(i, "L");
        boolean hiOut = has(i, "HI");
        boolean is64 = has(i, "U64") || has(i, "S64");
        boolean signed = has(i, "S32") || has(i, "S64");
        int sh = has(i, "W") ? shRaw & (is64 ? 63 : 31) : (int) Math.min(Integer.toUnsignedLong(shRaw), is64 ? 64 : 32);
        long v = hi << 32 | lo;
        long res;
        if (left) {
            long s = sh >= 64 ? 0 : v << sh;
            res = hiOut ? s >>> 32 : s;
        } else if (signed) {
            long x = is64 ? v : (long) (int) hi << 32 | lo;
            long s = x >> Math.min(sh, 63);
            res = hiOut ? s >> 32 : s;
        } else {
            long s = sh >= 64 ? 0 : v >>> sh;
            res = hiOut ? s >>> 32 : s;
        }
        set(i.dsts().get(0), (int) res);
    }

    private void isetp(Instr i) {
        List<String> m = i.mods();
        String cmp = m.get(0);
        String bool = has(i, "AND") ? "AND" : has(i, "OR") ? "OR" : "XOR";
        int a = s32(i, 0), b = s32(i, 1);
        boolean c = pr(i, 2);
        int ca = has(i, "U32") ? Integer.compareUnsigned(a, b) : Integer.compare(a, b);
        boolean res;
        if (has(i, "EX")) {
            boolean low = pr(i, 3);
            res = switch (cmp) {
                case "EQ" -> ca == 0 && low;
                case "NE" -> ca != 0 || low;
                case "LT", "LE" -> ca < 0 || (ca == 0 && low);
                case "GT", "GE" -> ca > 0 || (ca == 0 && low);
                default -> throw new IllegalStateException(cmp);
            };
        } else {
            res = switch (cmp) {
                case "EQ" -> ca == 0;
                case "NE" -> ca != 0;
                case "LT" -> ca < 0;
                case "LE" -> ca <= 0;
                case "GT" -> ca > 0;
                case "GE" -> ca >= 0;
                default -> throw new IllegalStateException(cmp);
            };
        }
        setP(i.dsts().get(0), combine(bool, res, c));
        setP(i.dsts().get(1), combine(bool, !res, c));
    }

    private static boolean combine(String bool, boolean a, boolean b) {
        return switch (bool) {
            case "AND" -> a && b;
            case "OR" -> a || b;
            default -> a ^ b;
        };
    }

    private void fsetp(Instr i) {
        String cmp = i.mods().get(0);
        boolean dbl = i.op().name().equals("DSETP");
        boolean ftz = has(i, "FTZ");
        double a = dbl ? f64(i, 0) : f32(i, 0, ftz), b = dbl ? f64(i, 1) : f32(i, 1, ftz);
        boolean nan = Double.isNaN(a) || Double.isNaN(b);
        boolean res = switch (cmp) {
            case "EQ" -> a == b;
            case "NE" -> a != b && !nan;
            case "LT" -> a < b;
            case "LE" -> a <= b;
            case "GT" -> a > b;
            case "GE" -> a >= b;
            case "EQU" -> a == b || nan;
            case "NEU" -> a != b;
            case "LTU" -> !(a >= b);
            case "LEU" -> !(a > b);
            case "GTU" -> !(a <= b);
            case "GEU" -> !(a < b);
            case "NUM" -> !nan;
            case "NAN" -> nan;
            default -> throw new IllegalStateException(cmp);
        };
        String bool = has(i, "AND") ? "AND" : has(i, "OR") ? "OR" : "XOR";
        boolean c = pr(i, 2);
        setP(i.dsts().get(0), combine(bool, res, c));
        setP(i.dsts().get(1), combine(bool, !res, c));
    }

    private void ffma(Instr i) {
        boolean ftz = has(i, "FTZ");
        Rnd m = rnd(i);
        float a = f32(i, 0, ftz), b = f32(i, 1, ftz);
        float res;
        switch (i.op().name()) {
            case "FADD" -> res = m == Rnd.RN ? a + b : roundF(exactSum(a, b), a + b, m);
            case "FMUL" -> res = m == Rnd.RN ? a * b : roundF(exactProd(a, b, 0), a * b, m);
            default -> {
                float c = f32(i, 2, ftz);
                res = m == Rnd.RN ? Math.fma(a, b, c) : roundF(exactProd(a, b, c), Math.fma(a, b, c), m);
            }
        }
        if (ftz) {
            res = ftz(res);
        }
        if (has(i, "SAT")) {
            res = Float.isNaN(res) ? 0f : Math.max(0f, Math.min(1f, res));
        }
        setF(i.dsts().get(0), Float.isNaN(res) ? Float.intBitsToFloat(0x7fffffff) : res);
    }

    private void mufu(Instr i) {
        String fn = i.mods().get(0);
        Reg d = i.dsts().get(0);
        if (fn.equals("RCP64H") || fn.equals("RSQ64H")) {
            double x = Double.longBitsToDouble((long) s32(i, 0) << 32);
            double res = fn.equals("RCP64H") ? 1.0 / x : 1.0 / Math.sqrt(x);
            int hi = (int) (Double.doubleToRawLongBits(res) >>> 32);
            if (mufuNoise != null && Double.isFinite(res) && res != 0) {
                hi += mufuNoise.nextInt(3) - 1;
            }
            set(d, hi);
            return;
        }
        float x = f32(i, 0, true);
        double res = switch (fn) {
            case "RCP" -> 1.0 / x;
            case "RSQ" -> 1.0 / Math.sqrt(x);
            case "SQRT" -> Math.sqrt(x);
            case "EX2" -> Math.pow(2.0, x);
            case "LG2" -> Math.log(x) / Math.log(2.0);
            case "SIN" -> Math.sin(2 * Math.PI * x);
            case "COS" -> Math.cos(2 * Math.PI * x);
            case "TANH" -> Math.tanh(x);
            default -> throw new IllegalStateException(fn);
        };
        float f = ftz((float) res);
        int bits = Float.isNaN(f) ? 0x7fffffff : Float.floatToRawIntBits(f);
        if (mufuNoise != null && (fn.equals("RCP") || fn.equals("RSQ")) && Float.isFinite(f) && f != 0) {
            bits += mufuNoise.nextInt(3) - 1;
        }
        set(d, bits);
    }

    /**
     * The division fast path (RCP estimate, two FFMA Newton steps) is exact unless an operand is zero, denormal,
     * infinite or NaN, the divisor's reciprocal is near the denormal range, or the quotient or the remainder falls
     * near the limits of the exponent range. This model flags those cases (with margins).
     */
    static boolean fchkModel(float a, float b) {
        int ea = Float.floatToRawIntBits(a) >>> 23 & 0xff, eb = Float.floatToRawIntBits(b) >>> 23 & 0xff;
        if (ea == 0 || ea == 0xff || eb == 0 || eb == 0xff) {
            return true;
        }
        if (eb >= 0xfd || ea <= 24) {
            return true;
        }
        int diff = ea - eb;
        return diff >= 126 || diff <= -125;
    }

    private void prmt(Instr i) {
        int a = s32(i, 0), sel = s32(i, 1), b = s32(i, 2);
        String mode = i.mods().isEmpty() ? "" : i.mods().get(0);
        long pool = Integer.toUnsignedLong(b) << 32 | Integer.toUnsignedLong(a);
        int[] idx = new int[4];
        boolean sign = mode.isEmpty();
        int s = sel;
        switch (mode) {
            case "" -> {
                for (int k = 0; k < 4; k++) {
                    idx[k] = sel >>> 4 * k & 0xf;
                }
            }
            case "F4E" -> {
                for (int k = 0; k < 4; k++) {
                    idx[k] = (s + k) & 7;
                }
            }
            case "B4E" -> {
                for (int k = 0; k < 4; k++) {
                    idx[k] = (s - k) & 7;
                }
            }
            case "RC8" -> {
                for (int k = 0; k < 4; k++) {
                    idx[k] = s & 3;
                }
            }
            case "ECL" -> {
                s &= 3;
                idx = new int[] {s, s >= 1 ? 1 : 0, s >= 2 ? 2 : 0, 3};
                idx = new int[] {s, Math.max(s, 1), Math.max(s, 2), 3};
            }
            case "ECR" -> {
                s &= 3;
                idx = new int[] {0, Math.min(s, 1), Math.min(s, 2), s};
            }
            case "RC16" -> {
                s &= 1;
                idx = new int[] {2 * s, 2 * s + 1, 2 * s, 2 * s + 1};
            }
            default -> throw new IllegalStateException(mode);
        }
        int res = 0;
        for (int k = 0; k < 4; k++) {
            int v = (int) (pool >>> (8 * (idx[k] & 7))) & 0xff;
            if (sign && (idx[k] & 8) != 0) {
                v = (v & 0x80) != 0 ? 0xff : 0;
            }
            res |= v << (8 * k);
        }
        set(i.dsts().get(0), res);
    }

    private void idp(Instr i) {
        int a = s32(i, 0), b = s32(i, 1), acc = s32(i, 2);
        List<String> m = i.mods();
        boolean aSigned = m.get(m.size() - 2).startsWith("S");
        boolean bSigned = m.get(m.size() - 1).startsWith("S");
        if (has(i, "4A")) {
            for (int k = 0; k < 4; k++) {
                int x = aSigned ? (byte) (a >> 8 * k) : a >>> 8 * k & 0xff;
                int y = bSigned ? (byte) (b >> 8 * k) : b >>> 8 * k & 0xff;
                acc += x * y;
            }
        } else {
            int hiOff = has(i, "HI") ? 2 : 0;
            for (int k = 0; k < 2; k++) {
                int x = aSigned ? (short) (a >> 16 * k) : a >>> 16 * k & 0xffff;
                int y = bSigned ? (byte) (b >> 8 * (k + hiOff)) : b >>> 8 * (k + hiOff) & 0xff;
                acc += x * y;
            }
        }
        set(i.dsts().get(0), acc);
    }

    // ---- exact arithmetic for the directed roundings ----

    private static BigDecimal big(double v) {
        return new BigDecimal(v);
    }

    static BigDecimal exactProd(double a, double b, double c) {
        return big(a).multiply(big(b)).add(big(c));
    }

    static BigDecimal exactSum(double a, double b) {
        return big(a).add(big(b));
    }

    /** Rounds {@code exact} to f32 in mode {@code m}; {@code rn} is the nearest result (inf/nan inputs pass through). */
    static float roundF(BigDecimal exact, float rn, Rnd m) {
        if (Float.isNaN(rn)) {
            return rn;
        }
        if (Float.isInfinite(rn)) {
            // overflow (finite operands assumed: infinities in directed modes are not used by the sequences)
            boolean pos = rn > 0;
            boolean toMax = m == Rnd.RZ || (m == Rnd.RM && pos) || (m == Rnd.RP && !pos);
            return toMax ? (pos ? Float.MAX_VALUE : -Float.MAX_VALUE) : rn;
        }
        int c = big(rn).compareTo(exact);
        if (c == 0) {
            return rn;
        }
        boolean above = c > 0;
        return switch (m) {
            case RN -> rn;
            case RZ -> (rn > 0) == above || rn == 0 ? (rn == 0 ? rn : (above ? Math.nextDown(rn) : Math.nextUp(rn))) : rn;
            case RM -> above ? Math.nextDown(rn) : rn;
            case RP -> above ? rn : Math.nextUp(rn);
        };
    }

    static double roundD(BigDecimal exact, double rn, Rnd m) {
        if (Double.isNaN(rn)) {
            return rn;
        }
        if (Double.isInfinite(rn)) {
            boolean pos = rn > 0;
            boolean toMax = m == Rnd.RZ || (m == Rnd.RM && pos) || (m == Rnd.RP && !pos);
            return toMax ? (pos ? Double.MAX_VALUE : -Double.MAX_VALUE) : rn;
        }
        int c = big(rn).compareTo(exact);
        if (c == 0) {
            return rn;
        }
        boolean above = c > 0;
        return switch (m) {
            case RN -> rn;
            case RZ -> rn == 0 ? rn : (rn > 0) == above ? (above ? Math.nextDown(rn) : Math.nextUp(rn)) : rn;
            case RM -> above ? Math.nextDown(rn) : rn;
            case RP -> above ? rn : Math.nextUp(rn);
        };
    }
}
