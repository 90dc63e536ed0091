package org.jptxas.isel.regalloc;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Random structured Ori functions (straight runs, if/else diamonds, counted loops; 32-bit, pair and part values,
 * predicates, guarded writes) for allocator stress and timing. Same seed, same function.
 */
public final class RandomFunctions {
    private final Random rnd;
    private final OriBuilder b = new OriBuilder();
    private final List<Reg> gprs = new ArrayList<>();
    private final List<Reg> pairs = new ArrayList<>();
    private final List<Reg> preds = new ArrayList<>();
    private int budget;
    private final int reachBack;

    private RandomFunctions(long seed, int instructions, int reachBack) {
        this.rnd = new Random(seed);
        this.budget = instructions;
        this.reachBack = reachBack;
    }

    static OriFunction generate(long seed, int instructions) {
        return new RandomFunctions(seed, instructions, 40).build();
    }

    /** {@code reachBack}: one operand in this many comes from anywhere before (a long-lived value). */
    public static OriFunction generate(long seed, int instructions, int reachBack) {
        return new RandomFunctions(seed, instructions, reachBack).build();
    }

    private OriFunction build() {
        pairs.add(b.param64(0));
        gprs.add(b.param(8));
        preds.add(b.setp("GT", gprs.get(0), 0));
        region(0);
        while (budget > 0) {
            region(0);
        }
        b.store(pairs.get(0), pick(gprs));
        b.exit();
        return b.function();
    }

    private Reg pick(List<Reg> from) {
        // Prefer recent values (realistic short lifetimes) but reach back sometimes.
        int n = from.size();
        int i = rnd.nextInt(reachBack) == 0 ? rnd.nextInt(n) : Math.max(0, n - 1 - rnd.nextInt(Math.min(n, 24)));
        return from.get(i);
    }

    private void region(int depth) {
        int kind = depth > 3 ? 0 : rnd.nextInt(4);
        switch (kind) {
            case 1 -> diamond(depth);
            case 2 -> loop(depth);
            default -> straight(3 + rnd.nextInt(20));
        }
    }

    private void straight(int n) {
        for (int i = 0; i < n && budget > 0; i++, budget--) {
            int what = rnd.nextInt(10);
            switch (what) {
                case 0 -> pairs.add(b.wide(pick(gprs), pick(pairs)));
                case 1 -> {
                    Reg p = pick(pairs);
                    b.emit("IADD3", List.of(), List.of(p.component(rnd.nextInt(2))),
                            List.of(Src.of(p.component(0)), Src.of(pick(gprs)), Src.of(Reg.RZ)));
                }
                case 2 -> preds.add(b.setp("LT", pick(gprs), pick(gprs)));
                case 3 -> {
                    Reg d = pick(gprs);
                    Instr in = b.emit("IADD3", List.of(), List.of(d), List.of(Src.of(d), Src.of(pick(gprs)),
                            Src.of(Reg.RZ)));
                    in.setGuard(new Guard(pick(preds), rnd.nextBoolean()));
                }
                case 4 -> b.store(pick(pairs), pick(gprs));
                case 5 -> gprs.add(b.mov(pick(gprs)));
                case 6 -> gprs.add(b.param(4 * rnd.nextInt(16)));
                default -> gprs.add(b.add(pick(gprs), pick(gprs)));
            }
        }
    }

    private void diamond(int depth) {
        Reg p = pick(preds);
        Instr toElse = b.emit("BRA", List.of(), List.of(), List.of());
        toElse.setGuard(new Guard(p, true));
        b.block();
        region(depth + 1);
        Instr toJoin = b.emit("BRA", List.of(), List.of(), List.of());
        BasicBlock elseArm = b.block();
        region(depth + 1);
        BasicBlock join = b.block();
        toElse.srcs().add(Src.of(elseArm.ref()));
        toJoin.srcs().add(Src.of(join.ref()));
    }

    private void loop(int depth) {
        Reg i = b.mov(0);
        BasicBlock head = b.block();
        region(depth + 1);
        b.addInto(i, i, 1);
        Reg p = b.setp("LT", i, pick(gprs));
        b.bra(head, p, false);
        b.block();
        gprs.add(i);
    }
}
