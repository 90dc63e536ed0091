package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;

/**
 * A small interpreter of integer Ori for one thread, written independently of the passes' folder so differential
 * tests compare two implementations: memory stores are recorded in order (the observable behaviour), loads,
 * constant-bank and special-register reads return values hashed from their address and the run's seed, unless the
 * thread stored there before.
 */
final class OriEvaluator {
    /** One store: space, address, value. */
    record Store(String op, long address, long value) {}

    private final long seed;
    private final Map<String, long[]> regs = new HashMap<>();
    private final Map<String, Boolean> preds = new HashMap<>();
    private final List<Store> stores = new ArrayList<>();
    /** What this thread stored, by space and address: a load after a store reads it back (loads may not pass stores). */
    private final Map<String, Long> memory = new HashMap<>();

    OriEvaluator(long seed) {
        this.seed = seed;
    }

    static List<Store> run(FunctionBody body, long seed) {
        OriEvaluator e = new OriEvaluator(seed);
        e.execute(body);
        return e.stores;
    }

    private long hash(long x) {
        long z = x * 0x9E3779B97F4A7C15L + seed;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return (z ^ (z >>> 31)) & 0xffffffffL;
    }

    private void execute(FunctionBody body) {
        int block = 0;
        int steps = 0;
        outer:
        while (true) {
            BasicBlock b = body.block(block);
            for (Instr in : b.instrs()) {
                if (++steps > 100_000) {
                    throw new IllegalStateException("step limit");
                }
                if (!guard(in.guard())) {
                    continue;
                }
                switch (in.op().name()) {
                    case "EXIT", "RET" -> {
                        return;
                    }
                    case "BRA" -> {
                        block = in.branchTarget().block();
                        continue outer;
                    }
                    default -> step(in);
                }
            }
            block++;
            if (block >= body.blocks().size()) {
                throw new IllegalStateException("fell off the end");
            }
        }
    }

    private boolean guard(Guard g) {
        return g.isAlways() || readPred(g.predicate()) ^ g.negated();
    }

    private static String key(Reg r) {
        return (r.virtual() ? "%" : "$") + r.file() + r.index();
    }

    long read(Reg r) {
        if (r.isZero()) {
            return 0;
        }
        long[] w = regs.get(key(r));
        int part = r.isPart() ? r.part() : 0;
        if (w == null) {
            // never written on this path: PTX leaves the value unspecified, and constant folding gives a
            // definition that only a never-taken path had the value 0 (MOV d, RZ); reading 0 here matches it
            return 0;
        }
        return w[part];
    }

    long read64(Reg r) {
        if (r.isZero()) {
            return 0;
        }
        if (r.comps() == 1 || r.isPart()) {
            return read(r);
        }
        long[] w = regs.get(key(r));
        return w == null ? 0 : (w[0] & 0xffffffffL) | (w[1] << 32);
    }

    private void write(Reg r, long v) {
        if (r.isZero()) {
            return;
        }
        long[] w = regs.computeIfAbsent(key(r), k -> new long[Math.max(r.comps(), 1)]);
        w[r.isPart() ? r.part() : 0] = v & 0xffffffffL;
    }

    private void write64(Reg r, long v) {
        if (r.isZero()) {
            return;
        }
        long[] w = regs.computeIfAbsent(key(r), k -> new long[Math.max(r.comps(), 2)]);
        w[0] = v & 0xffffffffL;
        w[1] = (v >>> 32) & 0xffffffffL;
    }

    private boolean readPred(Reg p) {
        if (p.isZero()) {
            return true;
        }
        return preds.getOrDefault(key(p), false);
    }

    private void writePred(Reg p, boolean v) {
        if (!p.isZero()) {
            preds.put(key(p), v);
        }
    }

    private boolean pred(Src s) {
        return readPred((Reg) s.value()) ^ s.not();
    }

    /** A 32-bit source with its modifiers applied. */
    long val(Src s) {
        long v;
        if (s.value() instanceof Reg r) {
            v = read(r);
        } else if (s.value() instanceof Imm i) {
            v = i.bits();
        } else if (s.value() instanceof CBank c) {
            v = hash(0x10000L * c.bank() + c.offset() + (c.index() == null ? 0 : read(c.index())));
        } else if (s.value() instanceof SpecialReg sr) {
            v = hash(sr.name().hashCode());
        } else {
            throw new IllegalArgumentException("not a value: " + s);
        }
        v &= 0xffffffffL;
        if (s.abs()) {
            v = Math.abs((long) (int) v) & 0xffffffffL;
        }
        if (s.neg()) {
            v = (-v) & 0xffffffffL;
        }
        if (s.not()) {
            v = ~v & 0xffffffffL;
        }
        return v;
    }

    private long address(Src s) {
        Addr a = (Addr) s.value();
        long base = a.base().isZero() ? 0 : a.wide() ? read64(a.base()) : read(a.base());
        long ub = a.uniformBase() == null ? 0 : read(a.uniformBase());
        long sum = base + ub + a.offset();
        // Shared and local windows are 32-bit address spaces.
        return a.wide() ? sum : sum & 0xffffffffL;
    }

    private void step(Instr in) {
        List<Src> s = in.srcs();
        List<String> m = in.mods();
        List<Reg> d = in.dsts();
        switch (in.op().name()) {
            case "MOV" -> write(d.get(0), val(s.get(0)));
            case "ULDC", "LDC" -> {
                if (m.contains("64")) {
                    CBank c = (CBank) s.get(0).value();
                    write64(d.get(0), val(s.get(0)) | val(Src.of(new CBank(c.bank(), c.offset() + 4, c.index()))) << 32);
                } else {
                    write(d.get(0), val(s.get(0)));
                }
            }
            case "S2R" -> write(d.get(0), val(s.get(0)));
            case "IADD3" -> {
                long sum = val(s.get(0)) + val(s.get(1)) + val(s.get(2));
                if (m.contains("X")) {
                    sum += (pred(s.get(3)) ? 1 : 0) + (s.size() > 4 && pred(s.get(4)) ? 1 : 0);
                }
                write(d.get(0), sum);
                if (d.size() > 1) {
                    writePred(d.get(1), (sum >>> 32 & 1) != 0);
                }
            }
            case "IMAD" -> {
                long a = val(s.get(0));
                long b = val(s.get(1));
                long c = val(s.get(2));
                if (m.contains("HI")) {
                    long hi = m.contains("U32") ? (a * b) >>> 32 : ((long) (int) a * (long) (int) b) >> 32;
                    write(d.get(0), hi + c);
                } else if (m.contains("X")) {
                    throw new UnsupportedOperationException("IMAD.X");
                } else {
                    write(d.get(0), a * b + c);
                }
            }
            case "IMAD_WIDE" -> {
                long a = val(s.get(0));
                long b = val(s.get(1));
                long c;
                if (s.get(2).value() instanceof Reg r && r.comps() == 2 && !r.isPart()) {
                    c = read64(r);
                } else if (s.get(2).value() instanceof Reg r2 && r2.isZero()) {
                    c = 0;
                } else if (s.get(2).value() instanceof CBank cb) {
                    c = val(s.get(2)) | val(Src.of(new CBank(cb.bank(), cb.offset() + 4, cb.index()))) << 32;
                } else {
                    throw new UnsupportedOperationException("IMAD.WIDE addend " + s.get(2));
                }
                long p = m.contains("U32") ? a * b : (long) (int) a * (long) (int) b;
                write64(d.get(0), p + c);
            }
            case "LOP3" -> {
                long a = val(s.get(0));
                long b = val(s.get(1));
                long c = val(s.get(2));
                int lut = (int) ((Imm) s.get(3).value()).bits();
                long r = 0;
                for (int bit = 0; bit < 32; bit++) {
                    int idx = (int) ((a >> bit & 1) << 2 | (b >> bit & 1) << 1 | (c >> bit & 1));
                    r |= (long) (lut >> idx & 1) << bit;
                }
                Reg rd = d.get(d.size() - 1);
                if (rd.file().isPredicate()) {
                    throw new UnsupportedOperationException("LOP3 predicate destination");
                }
                write(rd, r);
            }
            case "SHF" -> {
                long lo = val(s.get(0));
                long n = val(s.get(1));
                long hi = val(s.get(2));
                boolean wide = m.contains("U64") || m.contains("S64");
                n = Math.min(n, wide ? 64 : 32);
                long r;
                if (m.contains("L")) {
                    // high or low word of the 64-bit funnel shifted left
                    java.math.BigInteger v = java.math.BigInteger.valueOf(hi).shiftLeft(32).or(java.math.BigInteger.valueOf(lo));
                    java.math.BigInteger sh = v.shiftLeft((int) n);
                    r = (m.contains("HI") ? sh.shiftRight(32) : sh).longValue() & 0xffffffffL;
                } else {
                    boolean signed = m.contains("S32") || m.contains("S64");
                    long hiExt = signed ? (long) (int) hi : hi;
                    java.math.BigInteger v = java.math.BigInteger.valueOf(hiExt).shiftLeft(32).or(java.math.BigInteger.valueOf(lo));
                    java.math.BigInteger sh = v.shiftRight((int) n);
                    r = (m.contains("HI") ? sh.shiftRight(32) : sh).longValue() & 0xffffffffL;
                }
                write(d.get(0), r);
            }
            case "ISETP" -> {
                long a = val(s.get(0));
                long b = val(s.get(1));
                boolean u = m.contains("U32");
                int c = u ? Long.compare(a, b) : Integer.compare((int) a, (int) b);
                boolean cmp = m.contains("LT") ? c < 0 : m.contains("LE") ? c <= 0 : m.contains("GT") ? c > 0
                        : m.contains("GE") ? c >= 0 : m.contains("EQ") ? c == 0 : m.contains("NE") ? c != 0
                        : illegal(in);
                boolean pin = pred(s.get(2));
                boolean r = m.contains("AND") ? cmp && pin : m.contains("OR") ? cmp || pin : cmp ^ pin;
                boolean q = m.contains("AND") ? !cmp && pin : m.contains("OR") ? !cmp || pin : !cmp ^ pin;
                writePred(d.get(0), r);
                if (d.size() > 1) {
                    writePred(d.get(1), q);
                }
            }
            case "PLOP3" -> {
                boolean a = pred(s.get(0));
                boolean b = pred(s.get(1));
                boolean c = pred(s.get(2));
                int lut = (int) ((Imm) s.get(3).value()).bits();
                int idx = (a ? 4 : 0) | (b ? 2 : 0) | (c ? 1 : 0);
                writePred(d.get(0), (lut >> idx & 1) != 0);
            }
            case "SEL" -> write(d.get(0), pred(s.get(2)) ? val(s.get(0)) : val(s.get(1)));
            case "LEA" -> {
                if (m.equals(List.of("HI", "SX32"))) {
                    // the high word of the sign-extended a shifted left, plus b
                    long hi = ((long) (int) val(s.get(0)) << val(s.get(2))) >> 32;
                    write(d.get(0), (hi + val(s.get(1))) & 0xffffffffL);
                } else if (m.equals(List.of("HI", "X", "SX32"))) {
                    // the same plus the carry in: the high half of a 64-bit add of the sign-extended a
                    long hi = ((long) (int) val(s.get(0)) << val(s.get(2))) >> 32;
                    write(d.get(0), (hi + val(s.get(1)) + (pred(s.get(3)) ? 1 : 0)) & 0xffffffffL);
                } else if (!m.isEmpty()) {
                    throw new UnsupportedOperationException("LEA." + m);
                } else {
                    write(d.get(0), (val(s.get(0)) << val(s.get(2))) + val(s.get(1)));
                }
            }
            case "PRMT" -> {
                long a = val(s.get(0));
                long sel = val(s.get(1));
                long b = val(s.get(2));
                long r = 0;
                for (int i = 0; i < 4; i++) {
                    int nib = (int) (sel >> (4 * i) & 0xf);
                    int idx = nib & 7;
                    long byt = ((idx < 4 ? a : b) >> (8 * (idx & 3))) & 0xff;
                    if ((nib & 8) != 0) {
                        byt = (byt & 0x80) != 0 ? 0xff : 0;
                    }
                    r |= byt << (8 * i);
                }
                write(d.get(0), r);
            }
            case "IMNMX" -> {
                long a = val(s.get(0));
                long b = val(s.get(1));
                boolean min = pred(s.get(2));
                int c = m.contains("U32") ? Long.compare(a, b) : Integer.compare((int) a, (int) b);
                write(d.get(0), min ? (c <= 0 ? a : b) : (c >= 0 ? a : b));
            }
            case "LDS", "LDG", "LDL" -> {
                long addr = address(s.get(0));
                Long stored = memory.get(in.op().name().substring(2) + addr);
                write(d.get(0), stored != null ? stored : hash(addr * 31 + 7));
            }
            case "STS", "STG", "STL" -> {
                stores.add(new Store(in.op().name(), address(s.get(0)), val(s.get(1))));
                memory.put(in.op().name().substring(2) + address(s.get(0)), val(s.get(1)));
            }
            case "BAR" -> {
                // one thread: a barrier orders nothing
            }
            case "I2F" -> {
                if (!m.stream().allMatch(x -> List.of("S32", "U32", "RN").contains(x))) {
                    illegal(in);
                }
                long x = val(s.get(0));
                write(d.get(0), Float.floatToRawIntBits(m.contains("U32") ? (float) x : (float) (int) x) & 0xffffffffL);
            }
            case "F2I" -> {
                if (!m.stream().allMatch(x -> List.of("S32", "TRUNC", "NTZ").contains(x)) || !m.contains("TRUNC")) {
                    illegal(in);
                }
                write(d.get(0), (int) fval(s.get(0)) & 0xffffffffL);
            }
            case "FADD", "FMUL" -> {
                if (!m.isEmpty()) {
                    illegal(in);
                }
                float a = fval(s.get(0));
                float b = fval(s.get(1));
                write(d.get(0), Float.floatToRawIntBits(in.op().name().equals("FADD") ? a + b : a * b) & 0xffffffffL);
            }
            case "MUFU" -> {
                float x = fval(s.get(0));
                double r = m.equals(List.of("LG2")) ? Math.log(x) / Math.log(2.0)
                        : m.equals(List.of("EX2")) ? Math.pow(2.0, x) : (double) (illegal(in) ? 0 : 0);
                write(d.get(0), Float.floatToRawIntBits((float) r) & 0xffffffffL);
            }
            case "FSETP" -> {
                float a = fval(s.get(0));
                float b = fval(s.get(1));
                boolean nan = Float.isNaN(a) || Float.isNaN(b);
                boolean cmp = m.contains("LT") ? a < b : m.contains("LE") ? a <= b : m.contains("GT") ? a > b
                        : m.contains("GE") ? a >= b : m.contains("GEU") ? nan || a >= b : m.contains("EQ") ? a == b
                        : m.contains("NE") ? !nan && a != b : illegal(in);
                if (!m.contains("AND")) {
                    illegal(in);
                }
                writePred(d.get(0), cmp && pred(s.get(2)));
            }
            default -> throw new UnsupportedOperationException(in.op().name());
        }
    }

    /** An f32 source: its bits, then |x| and -x on the sign bit. */
    private float fval(Src s) {
        long bits = val(Src.of(s.value()));
        if (s.abs()) {
            bits &= 0x7fffffffL;
        }
        if (s.neg()) {
            bits ^= 0x80000000L;
        }
        return Float.intBitsToFloat((int) bits);
    }

    private static boolean illegal(Instr in) {
        throw new UnsupportedOperationException(in.toString());
    }
}
