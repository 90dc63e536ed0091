package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;

/**
 * Random integer Ori programs for differential tests: registers are redefined (not SSA), some instructions are
 * guarded, repeated or fed by constants, temporaries feed single users (combining), addresses are computed by adds
 * (address folding), and with {@code branches} small triangles and diamonds appear (if-conversion, branch folding).
 * Every register and predicate is stored at the end, so any change of value is observable.
 */
final class RandomPrograms {
    private final Random rnd;
    private final FunctionBody body = new FunctionBody();
    private final List<Reg> regs = new ArrayList<>();
    private final List<Reg> preds = new ArrayList<>();
    private final List<Instr> history = new ArrayList<>();
    private BasicBlock cur;

    private RandomPrograms(long seed) {
        this.rnd = new Random(seed);
    }

    static FunctionBody generate(long seed, int length, boolean branches) {
        return new RandomPrograms(seed).build(length, branches, false);
    }

    /** As {@link #generate(long, int, boolean)}, with counted loops among the regions when {@code loops}. */
    static FunctionBody generate(long seed, int length, boolean branches, boolean loops) {
        return new RandomPrograms(seed).build(length, branches, loops);
    }

    private static Instr ins(String op, List<String> mods, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), mods, dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    private void emit(Instr in) {
        if (!in.guard().isAlways()) {
            // A guarded write keeps the old value: give fresh destinations one so no read is undefined.
            for (Reg d : in.dsts()) {
                if (d.file() == RegFile.R && pending.contains(d)) {
                    cur.instrs().add(ins("MOV", List.of(), List.of(d), Src.of(Reg.RZ)));
                }
            }
        }
        cur.instrs().add(in);
        history.add(in);
        for (Reg d : pending) {
            regs.set(rnd.nextInt(regs.size()), d);
        }
        pending.clear();
    }

    private final List<Reg> pending = new ArrayList<>();

    private FunctionBody build(int length, boolean branches, boolean loops) {
        cur = body.addBlock(null);
        for (int i = 0; i < 8; i++) {
            Reg r = body.newVirtual(RegFile.R, 1);
            regs.add(r);
            switch (rnd.nextInt(4)) {
                case 0 -> emit(ins("S2R", List.of(), List.of(r), Src.of(new SpecialReg(i % 2 == 0 ? "SR_TID.X" : "SR_CTAID.X"))));
                case 1 -> emit(ins("MOV", List.of(), List.of(r), Src.of(Imm.ofInt(interesting()))));
                default -> emit(ins("MOV", List.of(), List.of(r), Src.of(CBank.of(0, 0x160 + 4 * i))));
            }
        }
        for (int i = 0; i < 3; i++) {
            Reg p = body.newVirtual(RegFile.P, 1);
            preds.add(p);
            emit(ins("ISETP", List.of(cmp(), "AND"), List.of(p, Reg.PT), Src.of(reg()), operand(), Src.of(Reg.PT)));
        }
        int emitted = 0;
        while (emitted < length) {
            int region = branches ? rnd.nextInt(10) : 0;
            if (region == 1) {
                emitted += triangle();
            } else if (region == 2) {
                emitted += diamond();
            } else if (region == 3 && rnd.nextInt(3) == 0) {
                emitted += earlyExit();
            } else if (region == 4 && rnd.nextBoolean()) {
                emitted += orChain();
            } else if (region == 5 && loops && rnd.nextBoolean()) {
                emitted += loop();
            } else {
                randomInstr();
                emitted++;
            }
        }
        int slot = 0;
        for (Reg r : regs) {
            emit(ins("STS", List.of(), List.of(), Src.of(Addr.of(Reg.RZ, 0x100 + 4L * slot++)), Src.of(r)));
        }
        for (Reg p : preds) {
            Reg t = body.newVirtual(RegFile.R, 1);
            emit(ins("SEL", List.of(), List.of(t), Src.of(Imm.ofInt(1)), Src.of(Reg.RZ), Src.of(p)));
            emit(ins("STS", List.of(), List.of(), Src.of(Addr.of(Reg.RZ, 0x100 + 4L * slot++)), Src.of(t)));
        }
        emit(ins("EXIT", List.of(), List.of()));
        return body;
    }

    /** A bounds check: {@code @P BRA exit} over the rest, the exit block laid out right after the branch's fall-through. */
    private int earlyExit() {
        Reg p = pickPred();
        int exitId = cur.id() + 2;
        Instr br = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(exitId)));
        br.setGuard(new Guard(p, rnd.nextBoolean()));
        emit(br);
        cur = body.addBlock(null);
        randomInstr();
        emit(ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(exitId + 1))));
        cur = body.addBlock(null);
        if (rnd.nextBoolean()) {
            int slot = 0;
            for (Reg r : regs) {
                emit(ins("STS", List.of(), List.of(), Src.of(Addr.of(Reg.RZ, 0x200 + 4L * slot++)), Src.of(r)));
            }
        }
        emit(ins("EXIT", List.of(), List.of()));
        cur = body.addBlock(null);
        return 1;
    }

    /**
     * A counted loop of one block run one to four times ({@code c = 0; L: ...; c += 1; @(c < n) BRA L}): values its
     * body computes from registers it does not write are loop-invariant (code motion), the others are carried
     * from one iteration to the next.
     */
    private int loop() {
        Reg c = body.newVirtual(RegFile.R, 1);
        emit(ins("MOV", List.of(), List.of(c), Src.of(Reg.RZ)));
        cur = body.addBlock(null);
        int header = cur.id();
        if (rnd.nextBoolean()) {
            // a compare at the loop's top, invariant unless the body writes one of its inputs (Triton's masks)
            Reg p = body.newVirtual(RegFile.P, 1);
            emit(ins("ISETP", List.of(cmp(), "AND"), List.of(p, Reg.PT), Src.of(reg()), operand(), Src.of(Reg.PT)));
            preds.set(rnd.nextInt(preds.size()), p);
        }
        int n = 1 + rnd.nextInt(5);
        for (int i = 0; i < n; i++) {
            randomInstr();
        }
        emit(ins("IADD3", List.of(), List.of(c), Src.of(c), Src.of(Imm.ofInt(1)), Src.of(Reg.RZ)));
        Reg q = body.newVirtual(RegFile.P, 1);
        emit(ins("ISETP", List.of("LT", "AND"), List.of(q, Reg.PT), Src.of(c), Src.of(Imm.ofInt(1 + rnd.nextInt(4))),
                Src.of(Reg.PT)));
        Instr back = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(header)));
        back.setGuard(new Guard(q, false));
        emit(back);
        cur = body.addBlock(null);
        return n;
    }

    private int triangle() {
        Reg p = pickPred();
        int skipTo = cur.id() + 2;
        Instr br = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(skipTo)));
        br.setGuard(new Guard(p, rnd.nextBoolean()));
        emit(br);
        cur = body.addBlock(null);
        int n = 1 + rnd.nextInt(4);
        for (int i = 0; i < n; i++) {
            randomInstr();
        }
        cur = body.addBlock(null);
        return n;
    }

    private int diamond() {
        Reg p = pickPred();
        int elseId = cur.id() + 2;
        int joinId = cur.id() + 3;
        Instr br = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(elseId)));
        br.setGuard(new Guard(p, rnd.nextBoolean()));
        emit(br);
        cur = body.addBlock(null);
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            randomInstr();
        }
        emit(ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(joinId))));
        cur = body.addBlock(null);
        int k = 1 + rnd.nextInt(3);
        for (int i = 0; i < k; i++) {
            randomInstr();
        }
        cur = body.addBlock(null);
        return n + k;
    }

    /**
     * An or-ed guard, {@code if (p || !q) C} as the front end writes it: {@code A: @P BRA C; B: t = ...; q = t cmp x;
     * @Q BRA D; C: ...; D:}, B's temporaries dead past it (speculation) or not (no conversion).
     */
    private int orChain() {
        Reg p = pickPred();
        int cId = cur.id() + 2;
        Instr br = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(cId)));
        br.setGuard(new Guard(p, rnd.nextBoolean()));
        emit(br);
        cur = body.addBlock(null);
        Reg t = rnd.nextInt(4) == 0 ? reg() : body.newVirtual(RegFile.R, 1);
        emit(ins("LOP3", List.of("LUT"), List.of(t), src(), operand(), Src.of(Reg.RZ),
                Src.of(Imm.ofInt(rnd.nextInt(256))), Src.of(Reg.PT).inverted()));
        Reg q = body.newVirtual(RegFile.P, 1);
        emit(ins("ISETP", List.of(cmp(), "AND"), List.of(q, Reg.PT), Src.of(t), operand(), Src.of(Reg.PT)));
        Instr second = ins("BRA", List.of(), List.of(), Src.of(new BlockLabel(cId + 1)));
        second.setGuard(new Guard(q, rnd.nextBoolean()));
        emit(second);
        cur = body.addBlock(null);
        int k = 1 + rnd.nextInt(3);
        for (int i = 0; i < k; i++) {
            randomInstr();
        }
        cur = body.addBlock(null);
        return 2 + k;
    }

    private Reg pickPred() {
        if (rnd.nextInt(4) == 0) {
            // A predicate known at compile time: branch folding.
            Reg p = body.newVirtual(RegFile.P, 1);
            emit(ins("ISETP", List.of(cmp(), "AND"), List.of(p, Reg.PT), Src.of(Imm.ofInt(interesting())),
                    Src.of(Imm.ofInt(interesting())), Src.of(Reg.PT)));
            return p;
        }
        return preds.get(rnd.nextInt(preds.size()));
    }

    private int interesting() {
        int[] special = {0, 1, -1, 2, 4, 8, 0xff, 0x7fffffff, 0x80000000, 16, 3, 0x1f};
        return rnd.nextInt(3) == 0 ? rnd.nextInt() : special[rnd.nextInt(special.length)];
    }

    private String cmp() {
        String[] c = {"LT", "LE", "GT", "GE", "EQ", "NE"};
        return c[rnd.nextInt(c.length)];
    }

    private Reg reg() {
        return regs.get(rnd.nextInt(regs.size()));
    }

    private Src src() {
        int k = rnd.nextInt(20);
        return k == 0 ? Src.of(Reg.RZ) : Src.of(reg());
    }

    /** The slot that takes immediates: a register, an immediate or a constant. */
    private Src operand() {
        int k = rnd.nextInt(10);
        if (k < 3) {
            return Src.of(Imm.ofInt(interesting()));
        }
        if (k == 3) {
            return Src.of(CBank.of(0, 0x160 + 4 * rnd.nextInt(8)));
        }
        return src();
    }

    private Reg dst() {
        // Mostly fresh temporaries (SSA-like, single use), sometimes a redefinition of a live register.
        if (rnd.nextInt(3) == 0) {
            return reg();
        }
        Reg t = body.newVirtual(RegFile.R, 1);
        pending.add(t);
        return t;
    }

    private void randomInstr() {
        if (rnd.nextInt(12) == 0 && !history.isEmpty()) {
            Instr old = history.get(rnd.nextInt(history.size()));
            // pure instructions for CSE, loads for redundant-load elimination (a store may lie between)
            if ((OpInfo.isPure(old) || old.op().name().startsWith("LD")) && old.dsts().size() == 1 && old.dsts().get(0).file() == RegFile.R
                    && old.dsts().get(0).comps() == 1
                    && old.guard().isAlways()) {
                Reg d = dst();
                emit(new Instr(old.op(), old.mods(), List.of(d), old.srcs(), Guard.ALWAYS, 0));
                return;
            }
        }
        Instr in;
        switch (rnd.nextInt(17)) {
            case 0 -> in = ins("MOV", List.of(), List.of(dst()), operand());
            case 1, 2 -> in = ins("IADD3", List.of(), List.of(dst()), neg(src()), neg(operand()), neg(src()));
            case 3 -> in = ins("IMAD", List.of(), List.of(dst()), src(), operand(), src());
            case 4 -> in = ins("IMAD", List.of("HI", "U32"), List.of(dst()), src(), operand(), Src.of(Reg.RZ));
            case 5, 6 -> in = ins("LOP3", List.of("LUT"), List.of(dst()), src(), operand(), src(),
                    Src.of(Imm.ofInt(rnd.nextInt(256))), Src.of(Reg.PT).inverted());
            case 7 -> {
                String[][] kinds = {{"L", "U32"}, {"R", "U32", "HI"}, {"R", "S32", "HI"}, {"L", "U64", "HI"},
                        {"R", "U64"}, {"R", "S64"}, {"L", "U32", "HI"}};
                String[] k = kinds[rnd.nextInt(kinds.length)];
                Src sh = rnd.nextInt(4) == 0 ? src() : Src.of(Imm.ofInt(rnd.nextInt(32)));
                Src lo = k[1].equals("U32") && k[0].equals("R") || k[1].equals("S32") ? Src.of(Reg.RZ) : src();
                in = ins("SHF", List.of(k), List.of(dst()), lo, sh, k[0].equals("L") && k[1].equals("U32")
                        && k.length == 2 ? Src.of(Reg.RZ) : src());
            }
            case 8 -> {
                Reg p = rnd.nextBoolean() ? preds.get(rnd.nextInt(preds.size())) : body.newVirtual(RegFile.P, 1);
                if (!preds.contains(p)) {
                    preds.set(rnd.nextInt(preds.size()), p);
                }
                in = ins("ISETP", List.of(cmp(), rnd.nextBoolean() ? "U32" : "AND", "AND").subList(0, 3).stream()
                        .distinct().toList(), List.of(p, Reg.PT), src(), operand(),
                        rnd.nextBoolean() ? Src.of(Reg.PT) : Src.of(preds.get(rnd.nextInt(preds.size()))));
            }
            case 9 -> in = ins("SEL", List.of(), List.of(dst()), src(), operand(),
                    new Src(preds.get(rnd.nextInt(preds.size())), false, false, rnd.nextBoolean()));
            case 10 -> in = ins("LEA", List.of(), List.of(dst()), src(), operand(), Src.of(Imm.ofInt(rnd.nextInt(8))));
            case 11 -> in = ins("PRMT", List.of(), List.of(dst()), src(),
                    Src.of(Imm.ofInt(rnd.nextInt(0x10000))), src());
            case 12 -> in = ins("IMNMX", List.of(rnd.nextBoolean() ? "U32" : "S32").subList(0, 1).stream()
                    .filter(x -> x.equals("U32")).toList(), List.of(dst()), src(), operand(),
                    rnd.nextBoolean() ? Src.of(Reg.PT) : Src.of(Reg.PT).inverted());
            case 13 -> {
                if (rnd.nextBoolean()) {
                    in = wideAccess();
                    break;
                }
                // A 32-bit address computed by an add, then a load from it: address folding.
                Reg a = body.newVirtual(RegFile.R, 1);
                emit(ins("IADD3", List.of(), List.of(a), src(), Src.of(Imm.ofInt(rnd.nextInt(64) * 4)), Src.of(Reg.RZ)));
                in = ins(rnd.nextBoolean() ? "LDS" : "STS", List.of(), List.of(), Src.of(Addr.of(a, 4L * rnd.nextInt(8))));
                if (in.op().name().equals("LDS")) {
                    in.dsts().add(dst());
                } else {
                    in.srcs().add(src());
                }
            }
            case 14 -> {
                // shift + add, multiply + add, logic chains through single-use temporaries: combining.
                Reg t = body.newVirtual(RegFile.R, 1);
                switch (rnd.nextInt(4)) {
                    case 0 -> {
                        emit(ins("SHF", List.of("L", "U32"), List.of(t), src(), Src.of(Imm.ofInt(rnd.nextInt(8))), Src.of(Reg.RZ)));
                        in = ins("IADD3", List.of(), List.of(dst()), Src.of(t), operand(), Src.of(Reg.RZ));
                    }
                    case 1 -> {
                        emit(ins("IMAD", List.of(), List.of(t), src(), operand(), Src.of(Reg.RZ)));
                        in = ins("IADD3", List.of(), List.of(dst()), src(), neg(Src.of(t)), Src.of(Reg.RZ));
                    }
                    case 2 -> {
                        emit(ins("LOP3", List.of("LUT"), List.of(t), src(), operand(), Src.of(Reg.RZ),
                                Src.of(Imm.ofInt(rnd.nextInt(256))), Src.of(Reg.PT).inverted()));
                        in = ins("LOP3", List.of("LUT"), List.of(dst()), src(), Src.of(t), src(),
                                Src.of(Imm.ofInt(rnd.nextInt(256))), Src.of(Reg.PT).inverted());
                    }
                    default -> {
                        emit(ins("IADD3", List.of(), List.of(t), src(), operand(), Src.of(Reg.RZ)));
                        in = ins("IADD3", List.of(), List.of(dst()), Src.of(t), Src.of(Reg.RZ), src());
                    }
                }
            }
            case 15 -> {
                // A parameter read into a register whose readers take it in the immediate/uniform slot.
                Reg t = body.newVirtual(RegFile.R, 1);
                emit(ins("MOV", List.of(), List.of(t), Src.of(CBank.of(0, 0x160 + 4 * rnd.nextInt(8)))));
                emit(ins("IADD3", List.of(), List.of(dst()), src(), Src.of(t), src()));
                in = ins("ISETP", List.of(cmp(), "AND"), List.of(preds.get(rnd.nextInt(preds.size())), Reg.PT),
                        src(), Src.of(t), Src.of(Reg.PT));
            }
            default -> in = ins("MOV", List.of(), List.of(dst()), src());
        }
        if (rnd.nextInt(8) == 0 && !in.dsts().isEmpty() && in.dsts().get(0).file() == RegFile.R) {
            in.setGuard(new Guard(preds.get(rnd.nextInt(preds.size())), rnd.nextBoolean()));
        }
        emit(in);
        if (in.op().name().startsWith("LD") && rnd.nextInt(4) != 0) {
            // the same load again, sometimes with a store to its address between: redundant-load elimination
            if (rnd.nextInt(3) == 0) {
                emit(ins("ST" + in.op().name().substring(2), List.of(in.mods().toArray(String[]::new)), List.of(),
                        in.srcs().get(0), src()));
            }
            emit(new Instr(in.op(), in.mods(), List.of(dst()), in.srcs(), Guard.ALWAYS, 0));
        }
    }

    /** A 64-bit address x + k built by the IADD3 / IADD3.X carry pair, then a global load or store from it. */
    private Instr wideAccess() {
        Reg x = body.newVirtual(RegFile.R, 2);
        if (rnd.nextInt(3) == 0) {
            // a 32-bit index sign-extended part by part (cvt.s64.s32): its high half may become LEA.HI.X.SX32
            Src v = src();
            emit(ins("MOV", List.of(), List.of(x.component(0)), v));
            emit(ins("SHF", List.of("R", "S32", "HI"), List.of(x.component(1)), Src.of(Reg.RZ),
                    Src.of(Imm.ofInt(31)), v));
        } else {
            emit(ins("IMAD_WIDE", List.of("U32"), List.of(x), src(), Src.of(Imm.ofInt(4)), Src.of(Reg.RZ)));
        }
        Reg t = body.newVirtual(RegFile.R, 2);
        Reg p = body.newVirtual(RegFile.P, 1);
        if (rnd.nextBoolean()) {
            // x + y with y a 64-bit parameter read part by part and copied part by part, as lowering does.
            Reg param = body.newVirtual(RegFile.R, 2);
            int off = 0x160 + 8 * rnd.nextInt(4);
            emit(ins("MOV", List.of(), List.of(param.component(0)), Src.of(CBank.of(0, off))));
            emit(ins("MOV", List.of(), List.of(param.component(1)), Src.of(CBank.of(0, off + 4))));
            Reg y = body.newVirtual(RegFile.R, 2);
            emit(ins("MOV", List.of(), List.of(y.component(0)), Src.of(param.component(0))));
            emit(ins("MOV", List.of(), List.of(y.component(1)), Src.of(param.component(1))));
            emit(ins("IADD3", List.of(), List.of(t.component(0), p, Reg.PT), Src.of(y.component(0)),
                    Src.of(x.component(0)), Src.of(Reg.RZ)));
            emit(ins("IADD3", List.of("X"), List.of(t.component(1), Reg.PT, Reg.PT), Src.of(y.component(1)),
                    Src.of(x.component(1)), Src.of(Reg.RZ), Src.of(p), Src.of(Reg.PT).inverted()));
            if (rnd.nextBoolean()) {
                return ins("LDG", List.of("E"), List.of(dst()), Src.of(Addr.of(t, 4L * rnd.nextInt(4))));
            }
            return ins("STG", List.of("E"), List.of(), Src.of(Addr.of(t, 4L * rnd.nextInt(4))), src());
        }
        boolean negative = rnd.nextBoolean();
        int k = negative ? -4 * (1 + rnd.nextInt(64)) : 4 * rnd.nextInt(64);
        emit(ins("IADD3", List.of(), List.of(t.component(0), p), Src.of(x.component(0)), Src.of(Imm.ofInt(k)),
                Src.of(Reg.RZ)));
        emit(ins("IADD3", List.of("X"), List.of(t.component(1)), Src.of(x.component(1)),
                negative ? Src.of(Imm.ofInt(-1)) : Src.of(Reg.RZ), Src.of(Reg.RZ), Src.of(p), Src.of(Reg.PT).inverted()));
        if (rnd.nextBoolean()) {
            return ins("LDG", List.of("E"), List.of(dst()), Src.of(Addr.of(t, 4L * rnd.nextInt(4))));
        }
        return ins("STG", List.of("E"), List.of(), Src.of(Addr.of(t, 4L * rnd.nextInt(4))), src());
    }

    private Src neg(Src s) {
        return rnd.nextInt(5) == 0 && !(s.value() instanceof CBank) ? s.negated() : s;
    }
}
