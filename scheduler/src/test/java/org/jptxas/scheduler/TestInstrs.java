package org.jptxas.scheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.scheduler.model.MemKind;
import org.jptxas.scheduler.model.MemSpace;
import org.jptxas.scheduler.model.RegFile;
import org.jptxas.scheduler.model.SimpleInstr;

/** Small builders for hand-made instruction sequences (sm80 classes). */
public final class TestInstrs {
    private TestInstrs() {}

    /** {@code IADD3 Rd, Ra, Rb}. */
    public static SimpleInstr alu(int d, int a, int b) {
        return SimpleInstr.builder("alu").name("alu R" + d + ", R" + a + ", R" + b).def(RegFile.R, d).use(RegFile.R, a)
                .use(RegFile.R, b).reuseSlots(r(a), r(b)).build();
    }

    /** {@code FFMA Rd, Ra, Rb, Rc}. */
    public static SimpleInstr fma(int d, int a, int b, int c) {
        return SimpleInstr.builder("fma").name("fma R" + d).def(RegFile.R, d).use(RegFile.R, a).use(RegFile.R, b)
                .use(RegFile.R, c).reuseSlots(r(a), r(b), r(c)).build();
    }

    /** {@code LDG Rd, [Ra.64]}. */
    public static SimpleInstr ldg(int d, int a) {
        return SimpleInstr.builder("ldg").name("ldg R" + d + ", [R" + a + "]").def(RegFile.R, d).use(RegFile.R, a, 2)
                .mem(MemKind.LOAD, MemSpace.GLOBAL).build();
    }

    /** {@code STG [Ra.64], Rv}. */
    public static SimpleInstr stg(int a, int v) {
        return SimpleInstr.builder("stg").name("stg [R" + a + "], R" + v).use(RegFile.R, a, 2).use(RegFile.R, v)
                .mem(MemKind.STORE, MemSpace.GLOBAL).build();
    }

    /** {@code STS [Ra], Rv}. */
    public static SimpleInstr sts(int a, int v) {
        return SimpleInstr.builder("sts").name("sts").use(RegFile.R, a).use(RegFile.R, v).mem(MemKind.STORE, MemSpace.SHARED).build();
    }

    /** {@code LDS Rd, [Ra]}. */
    public static SimpleInstr lds(int d, int a) {
        return SimpleInstr.builder("lds").name("lds").def(RegFile.R, d).use(RegFile.R, a).mem(MemKind.LOAD, MemSpace.SHARED).build();
    }

    /** {@code S2R Rd, SR_TID.X}. */
    public static SimpleInstr s2r(int d) {
        return SimpleInstr.builder("s2r").name("s2r R" + d).def(RegFile.R, d).build();
    }

    /** {@code ISETP Pd, Ra, Rb}. */
    public static SimpleInstr isetp(int p, int a, int b) {
        return SimpleInstr.builder("alu").name("isetp P" + p).def(RegFile.P, p).use(RegFile.R, a).use(RegFile.R, b).build();
    }

    private static org.jptxas.scheduler.model.RegRange r(int reg) {
        return org.jptxas.scheduler.model.RegRange.of(RegFile.R, reg);
    }

    /** A random straight-line block mixing ALU, FMA, loads, stores and special-register reads over 32 registers. */
    public static List<SimpleInstr> random(long seed, int n) {
        Random rnd = new Random(seed);
        List<SimpleInstr> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int k = rnd.nextInt(10);
            int d = rnd.nextInt(30);
            int a = rnd.nextInt(30);
            int b = rnd.nextInt(30);
            out.add(switch (k) {
                case 0, 1, 2 -> alu(d, a, b);
                case 3, 4 -> fma(d, a, b, rnd.nextInt(30));
                case 5 -> ldg(d, a & ~1);
                case 6 -> stg(a & ~1, b);
                case 7 -> lds(d, a);
                case 8 -> s2r(d);
                default -> sts(a, b);
            });
        }
        return out;
    }
}
