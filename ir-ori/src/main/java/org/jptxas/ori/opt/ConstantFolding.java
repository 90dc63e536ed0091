package org.jptxas.ori.opt;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Constant folding and propagation. Walks the blocks in reverse postorder, so the one definition of an SSA-like
 * register is seen before its reads; instructions whose inputs are all known become {@code MOV d, imm}; known
 * registers are substituted into the slots that take an immediate (swapping commutative operands to get there);
 * known predicates become {@code PT}/{@code !PT}; guards on known predicates disappear (the instruction always runs)
 * or delete the instruction (it never runs), which folds branches. Algebraic identities (x+0, x*1, x*0, SEL on a
 * known predicate, LOP3 tables that reduce to one input or to a constant, also on one half of a 64-bit value) become
 * moves; predicate tables (PLOP3) that reduce to a constant become that constant ({@link PredicateFolding}).
 * f32 arithmetic, compares, MUFU.LG2/EX2 and the int/f32 conversions I2F (to nearest) and F2I (truncating) fold
 * where ptxas's do ({@link FloatFolder}). A predicate with several definitions (the f32 lowerings' range checks in
 * each unrolled copy of a loop) folds the guards that read it later in the block of an unguarded compare of known
 * values.
 */
public final class ConstantFolding implements Pass {
    /** How many constant steps of an address's low word {@link #knownIndex} follows back (an unrolled walk's). */
    private static final int MAX_ADDRESS_STEPS = 512;
    private record Key(RegFile file, int id) {
        static Key of(Reg r) {
            return new Key(r.file(), r.index());
        }
    }

    @Override
    public String name() {
        return "constfold";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        SingleDefs sd = cx.singleDefs(body);
        Map<Key, Long> consts = new HashMap<>();
        Map<Key, Boolean> preds = new HashMap<>();
        boolean changed = false;
        for (int bid : sd.cfg().reversePostorder()) {
            BasicBlock b = body.block(bid);
            List<Instr> instrs = b.instrs();
            // registers with more than one definition whose latest one in this block moved a constant (the f32
            // lowerings' "mov x; @!p scale x" operand copies); read by the f32 folding only
            Map<Key, Long> local = new HashMap<>();
            // predicates with more than one definition whose latest one in this block is an unguarded compare of
            // known values (the f32 lowerings' range checks, once per unrolled copy): read by the guards only
            Map<Key, Boolean> localPreds = new HashMap<>();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                Guard g = in.guard();
                if (!g.isAlways()) {
                    Src gs = new Src(g.predicate(), false, false, g.negated());
                    Boolean gv = predValue(gs, preds);
                    if (gv == null && localPreds.containsKey(Key.of(g.predicate()))) {
                        gv = localPreds.get(Key.of(g.predicate())) ^ g.negated();
                    }
                    if (gv != null) {
                        if (!gv) {
                            if (onlyDefinitionOfUsedRegister(in, sd)) {
                                // Its readers read an undefined value; keep a definition for the verifier.
                                Reg d = OpInfo.soleRDst(in);
                                if (d != null && !in.isTerminator()) {
                                    OpInfo.makeMov(in, d, Reg.RZ);
                                    in.setGuard(Guard.ALWAYS);
                                    changed = true;
                                }
                                continue;
                            }
                            instrs.remove(i--);
                            if (in.isTerminator() && OpInfo.is(in, "BRA")) {
                                // ptxas keeps a folded branch's line for a BSSY it may place where it stood
                                b.setFoldedBranchLine(in.line());
                            }
                            changed = true;
                            continue;
                        }
                        if (!in.isTerminator() || i == instrs.size() - 1) {
                            in.setGuard(Guard.ALWAYS);
                            changed = true;
                        }
                    }
                }
                changed |= constantIndices(in, sd, consts);
                changed |= substitute(in, consts, preds);
                changed |= fold(in, sd, consts, preds, local);
                trackLocalPredicates(in, consts, preds, local, localPreds);
                trackLocal(in, local);
            }
        }
        changed |= removeJumpsToNext(body);
        return changed;
    }

    private static boolean onlyDefinitionOfUsedRegister(Instr in, SingleDefs sd) {
        for (Reg d : in.dsts()) {
            if (d.virtual() && sd.defs(d).size() == 1 && !sd.uses(d).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static Long value(Src s, Map<Key, Long> consts) {
        Long v = OpInfo.const32(s);
        if (v != null) {
            return v;
        }
        if (s.value() instanceof Reg r && r.virtual() && r.file() == RegFile.R && r.comps() == 1 && !s.abs()) {
            Long c = consts.get(Key.of(r));
            if (c == null) {
                return null;
            }
            long x = s.neg() ? -c : c;
            return (s.not() ? ~x : x) & 0xffffffffL;
        }
        return null;
    }

    /**
     * The 32 bits a source of {@code in} reads when its register is known: the f32 instructions negate on the sign
     * bit (FADD R, R, -R' with R' = 0x41193308 reads 0xc1193308, not its two's complement), the integer ones negate
     * and invert as integers. An absolute value is not substituted.
     */
    private static Long slotValue(Instr in, Src s, Map<Key, Long> consts) {
        Long raw = value(Src.of(s.value()), consts);
        return raw == null ? null : OpInfo.read(in, s, raw);
    }

    private static Boolean predValue(Src s, Map<Key, Boolean> preds) {
        Boolean v = OpInfo.constPred(s);
        if (v != null) {
            return v;
        }
        if (s.value() instanceof Reg r && r.virtual() && r.file() == RegFile.P) {
            Boolean c = preds.get(Key.of(r));
            return c == null ? null : c ^ s.not();
        }
        return null;
    }

    /**
     * SHFL's lane (5 bits) and clamp/segment mask (13 bits) each have an immediate field of their own, so both
     * constants go in, as ptxas writes {@code SHFL.BFLY PT, R5, R2, 0x10, 0x1f} for a shuffle whose PTX passes
     * them in registers; the shuffle then waits for no move.
     */
    private static boolean shuffleImmediates(Instr in, Map<Key, Long> consts) {
        boolean changed = false;
        List<Src> srcs = in.srcs();
        for (int i = 1; i <= 2 && i < srcs.size(); i++) {
            Src s = srcs.get(i);
            Long v = s.value() instanceof Reg && !s.hasModifiers() ? value(s, consts) : null;
            if (v != null && v >= 0 && v < (i == 1 ? 32 : 0x2000)) {
                srcs.set(i, Src.of(Imm.ofInt((int) (long) v)));
                changed = true;
            }
        }
        return changed;
    }

    /**
     * A barrier whose id and thread count are known takes both as immediates, as ptxas writes {@code BAR.ARV 0x9,
     * 0x100} for a PTX {@code bar.arrive %r1, %r2} of moved constants: the id is then known, so the function counts
     * the barriers up to it rather than all 16. Both in one register (the count in bits 16..27, the id below, as the
     * lowering packs them) or the id alone in a register.
     */
    private static boolean barrierImmediates(Instr in, Map<Key, Long> consts) {
        List<Src> srcs = in.srcs();
        if (!(in.mods().contains("SYNC") || in.mods().contains("ARV")) || srcs.isEmpty() || srcs.size() > 2
                || !(srcs.get(0).value() instanceof Reg id) || srcs.get(0).hasModifiers()) {
            return false;
        }
        Long v = value(srcs.get(0), consts);
        if (v == null) {
            return false;
        }
        if (srcs.size() == 2 && srcs.get(1).value() instanceof Reg other) {
            long count = (v >>> 16) & 0xfff;
            if (!other.equals(id) || srcs.get(1).hasModifiers() || (v & 0xffff) > 15 || count == 0 || count % 32 != 0) {
                return false;
            }
            srcs.set(0, Src.of(Imm.ofInt((int) (v & 0xffff))));
            srcs.set(1, Src.of(Imm.ofInt((int) count)));
            return true;
        }
        if (v > 15) {
            return false;
        }
        srcs.set(0, Src.of(Imm.ofInt((int) (long) v)));
        return true;
    }

    /**
     * A constant-bank operand whose index register holds a known value reads a fixed word: {@code c[b][R + off]}
     * becomes {@code c[b][value + off]}, a plain constant operand the moves' folding puts into the readers (ptxas's
     * {@code ld.param [%rd + off]} through a copied parameter address has no instruction of its own).
     */
    private static boolean constantIndices(Instr in, SingleDefs sd, Map<Key, Long> consts) {
        boolean changed = false;
        List<Src> srcs = in.srcs();
        if (OpInfo.is(in, "LDC") && !(in.mods().isEmpty() && in.dsts().size() == 1 && in.dsts().get(0).comps() == 1)) {
            return false; // a fixed LDC.64 is not encodable everywhere (sm_80); the pair's moves are not made here
        }
        for (int i = 0; i < srcs.size(); i++) {
            Src s = srcs.get(i);
            if (!(s.value() instanceof org.jptxas.ori.ir.CBank c) || c.index() == null) {
                continue;
            }
            Long v = knownIndex(c.index(), sd, consts, 4);
            if (v == null || v + c.offset() > 0xffff) {
                continue;
            }
            srcs.set(i, new Src(org.jptxas.ori.ir.CBank.of(c.bank(), (int) (v + c.offset())), s.neg(), s.abs(), s.not()));
            changed = true;
        }
        if (changed && OpInfo.is(in, "LDC") && in.mods().isEmpty() && in.dsts().size() == 1
                && in.dsts().get(0).comps() == 1) {
            // LDC encodes only an indexed read; a fixed word is a move's operand
            OpInfo.makeMov(in, in.dsts().get(0), srcs.get(0));
        }
        return changed;
    }

    /** The value of a 32-bit register or one part of a pair, when moves of an immediate give it one; else null. */
    private static Long knownIndex(Reg r, SingleDefs sd, Map<Key, Long> consts, int depth) {
        if (r.isZero()) {
            return 0L; // mov.u64 %rd, table: the table at the bank's start is RZ
        }
        if (!r.virtual() || r.file() != RegFile.R) {
            return null;
        }
        if (!r.isPart()) {
            return r.comps() == 1 ? consts.get(Key.of(r)) : null;
        }
        if (depth == 0 || !sd.stable(r.whole())) {
            return null;
        }
        // the low word of a 64-bit address stepped by constants (the carry goes to the high word only): an unrolled
        // pointer walk over a constant table (ld.const [%rd]; add.s64 %rd, %rd, 4), followed back to its start
        long stepped = 0;
        Instr d = sd.soleWrite(r);
        Long step;
        for (int steps = 0; steps < MAX_ADDRESS_STEPS && (step = lowWordStep(d, r)) != null; steps++) {
            stepped += step;
            r = (Reg) d.srcs().get(0).value();
            if (!sd.stable(r.whole())) {
                return null;
            }
            d = sd.soleWrite(r);
        }
        if (d == null || d.dsts().size() != 1 || !OpInfo.is(d, "MOV") || d.srcs().size() != 1
                || d.srcs().get(0).hasModifiers()) {
            return null;
        }
        Src v = d.srcs().get(0);
        Long base = null;
        if (v.value() instanceof Imm imm) {
            base = imm.bits() & 0xffffffffL;
        } else if (v.value() instanceof Reg from) {
            base = knownIndex(from, sd, consts, depth - 1);
        }
        return base == null ? null : (base + stepped) & 0xffffffffL;
    }

    /** The constant {@code d} adds to a register's part to give {@code r} (an IADD3 carrying out only), or null. */
    private static Long lowWordStep(Instr d, Reg r) {
        if (d != null && OpInfo.is(d, "IADD3") && d.mods().isEmpty() && d.guard().isAlways()
                && d.dsts().get(0).equals(r) && d.srcs().size() == 3 && d.srcs().get(1).value() instanceof Imm step
                && !d.srcs().get(0).hasModifiers() && !d.srcs().get(1).hasModifiers()
                && d.srcs().get(0).value() instanceof Reg from && from.virtual() && from.isPart()
                && OpInfo.isRZ(d.srcs().get(2))) {
            return step.bits();
        }
        return null;
    }

    /** Puts known values into the slots that can hold them; known predicates everywhere. */
    private static boolean substitute(Instr in, Map<Key, Long> consts, Map<Key, Boolean> preds) {
        boolean changed = false;
        List<Src> srcs = in.srcs();
        for (int i = 0; i < srcs.size(); i++) {
            Src s = srcs.get(i);
            if (s.value() instanceof Reg r && r.virtual() && r.file() == RegFile.P) {
                Boolean v = predValue(s, preds);
                if (v != null) {
                    srcs.set(i, OpInfo.pt(v));
                    changed = true;
                }
            }
        }
        if (OpInfo.is(in, "SHFL")) {
            return shuffleImmediates(in, consts) || changed;
        }
        if (OpInfo.is(in, "BAR")) {
            return barrierImmediates(in, consts) || changed;
        }
        int[] slots = OpInfo.nonRegisterSlots(in);
        if (slots.length == 0 || OpInfo.nonRegisterCount(in) > 0) {
            return changed;
        }
        // Move a known operand of a commutative instruction into the slot that takes immediates.
        String op = in.op().name();
        int known = -1;
        for (int i = 0; i < srcs.size() && i < 3; i++) {
            Src s = srcs.get(i);
            if (s.value() instanceof Reg && !OpInfo.isRZ(s) && slotValue(in, s, consts) != null) {
                known = i;
                break;
            }
        }
        if (known < 0) {
            return changed;
        }
        for (int slot : slots) {
            if (slot == known) {
                srcs.set(slot, Src.of(Imm.ofInt((int) (long) slotValue(in, srcs.get(slot), consts))));
                return true;
            }
        }
        int slot = slots[0];
        if (slot != 1 || srcs.size() < 2 || OpInfo.isRZ(srcs.get(1))) {
            return changed;
        }
        if (op.equals("IADD3") || op.equals("IMNMX") || (op.equals("IMAD") || op.equals("IMAD_WIDE")) && known == 0) {
            Src k = srcs.get(known);
            srcs.set(known, srcs.get(1));
            srcs.set(1, Src.of(Imm.ofInt((int) (long) value(k, consts))));
            return true;
        }
        if (op.equals("LOP3") && srcs.size() >= 4 && OpInfo.imm(srcs.get(3)) != null && known != 1) {
            int lut = (int) (long) OpInfo.imm(srcs.get(3));
            Src k = srcs.get(known);
            srcs.set(known, srcs.get(1));
            srcs.set(1, Src.of(Imm.ofInt((int) (long) value(k, consts))));
            srcs.set(3, Src.of(Imm.ofInt(Lut.swap(lut, known, 1))));
            return true;
        }
        if (op.equals("ISETP") && known == 0 && !in.mods().contains("EX")) {
            List<String> swapped = swapCompare(in.mods());
            if (swapped != null) {
                Src k = srcs.get(0);
                srcs.set(0, srcs.get(1));
                srcs.set(1, Src.of(Imm.ofInt((int) (long) value(k, consts))));
                in.setMods(swapped);
                return true;
            }
        }
        if (op.equals("SEL") && known == 0 && srcs.size() == 3) {
            Src k = srcs.get(0);
            srcs.set(0, srcs.get(1));
            srcs.set(1, Src.of(Imm.ofInt((int) (long) value(k, consts))));
            srcs.set(2, srcs.get(2).inverted());
            return true;
        }
        return changed;
    }

    private static List<String> swapCompare(List<String> mods) {
        String[][] pairs = {{"LT", "GT"}, {"GT", "LT"}, {"LE", "GE"}, {"GE", "LE"}, {"EQ", "EQ"}, {"NE", "NE"}};
        for (int i = 0; i < mods.size(); i++) {
            for (String[] p : pairs) {
                if (mods.get(i).equals(p[0])) {
                    java.util.ArrayList<String> out = new java.util.ArrayList<>(mods);
                    out.set(i, p[1]);
                    return out;
                }
            }
        }
        return null;
    }

    /** Updates the block's latest constant moves with {@code in}'s definitions. */
    private static void trackLocal(Instr in, Map<Key, Long> local) {
        Long imm = in.guard().isAlways() && OpInfo.movSource(in) != null ? OpInfo.imm(in.srcs().get(0)) : null;
        for (Reg d : in.dsts()) {
            if (d.virtual()) {
                if (imm != null && d.file() == RegFile.R && d.comps() == 1) {
                    local.put(Key.of(d), imm & 0xffffffffL);
                } else {
                    local.remove(Key.of(d));
                }
            }
        }
    }

    /** Updates the block's known compare results with {@code in}'s predicate definitions. */
    private static void trackLocalPredicates(Instr in, Map<Key, Long> consts, Map<Key, Boolean> preds,
                                             Map<Key, Long> local, Map<Key, Boolean> localPreds) {
        Boolean r = null;
        if (in.guard().isAlways() && (OpInfo.is(in, "ISETP") || OpInfo.is(in, "FSETP")) && !in.dsts().isEmpty()
                && in.dsts().get(0).virtual() && in.dsts().get(0).file() == RegFile.P && OpInfo.extraDstsAreSinks(in)) {
            r = OpInfo.is(in, "ISETP") ? IntFolder.foldIsetp(in, s -> value(s, consts), s -> predValue(s, preds))
                    : FloatFolder.foldFsetp(in, s -> floatValue(s, consts, local), s -> predValue(s, preds));
        }
        for (Reg d : in.dsts()) {
            if (d.virtual() && d.file() == RegFile.P) {
                localPreds.remove(Key.of(d));
            }
        }
        if (r != null) {
            localPreds.put(Key.of(in.dsts().get(0)), r);
        }
    }

    /** A source's value for the f32 folding: a single-definition constant or the block's latest constant move. */
    private static Long floatValue(Src s, Map<Key, Long> consts, Map<Key, Long> local) {
        Long v = value(s, consts);
        if (v == null && !s.hasModifiers() && s.value() instanceof Reg r && r.virtual() && r.file() == RegFile.R
                && r.comps() == 1) {
            v = local.get(Key.of(r));
        }
        return v;
    }

    private static boolean fold(Instr in, SingleDefs sd, Map<Key, Long> consts, Map<Key, Boolean> preds,
                                Map<Key, Long> local) {
        if (OpInfo.is(in, "ISETP") || OpInfo.is(in, "FSETP")) {
            Boolean r = OpInfo.is(in, "ISETP") ? IntFolder.foldIsetp(in, s -> value(s, consts), s -> predValue(s, preds))
                    : FloatFolder.foldFsetp(in, s -> floatValue(s, consts, local), s -> predValue(s, preds));
            if (r != null && in.dsts().size() >= 1 && in.dsts().get(0).virtual() && sd.soleDef(in.dsts().get(0)) == in
                    && OpInfo.extraDstsAreSinks(in)) {
                preds.put(Key.of(in.dsts().get(0)), r);
            }
            return false;
        }
        Boolean pv = PredicateFolding.value(in, s -> predValue(s, preds));
        if (pv != null) {
            Reg pd = in.dsts().get(0);
            if (pd.virtual() && sd.soleDef(pd) == in) {
                preds.put(Key.of(pd), pv);
            }
            return PredicateFolding.makeConstant(in, pv);
        }
        if (PredicateFolding.dropFalseInputs(in)) {
            return true;
        }
        Reg d = OpInfo.soleRDst(in);
        if (d == null || d.file() != RegFile.R || !d.virtual()) {
            return false;
        }
        if (d.isPart()) {
            return foldPart(in, d, consts, preds);
        }
        if (d.comps() != 1) {
            return false;
        }
        Long v = IntFolder.fold(in, s -> value(s, consts), s -> predValue(s, preds));
        if (v == null) {
            v = FloatFolder.fold(in, s -> floatValue(s, consts, local));
        }
        if (v == null) {
            v = constantTable(in, consts);
        }
        if (v != null) {
            boolean already = OpInfo.movSource(in) != null && OpInfo.imm(in.srcs().get(0)) != null
                    && OpInfo.imm(in.srcs().get(0)) == (long) v && in.srcs().size() == 1;
            if (in.guard().isAlways() && sd.soleDef(d) == in) {
                consts.put(Key.of(d), v);
            }
            if (!already) {
                OpInfo.makeMov(in, d, Imm.ofInt((int) (long) v));
                return true;
            }
            return false;
        }
        Src copy = identity(in, consts, preds);
        if (copy != null) {
            OpInfo.makeMov(in, d, copy);
            return true;
        }
        return false;
    }

    /**
     * One half of a 64-bit value (a PTX {@code and.b64 %rd, %rd, 0xffffffff} is lowered per half): a half that
     * reduces to one source or to a constant becomes a move, which copy propagation takes into the half's reads
     * (ptxas compares the zero-extended value's low word and RZ: {@code ISETP.GE.U32.AND.EX P0, PT, RZ, RZ, PT, P0}).
     */
    private static boolean foldPart(Instr in, Reg d, Map<Key, Long> consts, Map<Key, Boolean> preds) {
        if (OpInfo.movSource(in) != null) {
            return false;
        }
        Src copy = identity(in, consts, preds);
        if (copy == null) {
            Long v = constantTable(in, consts);
            if (v == null) {
                return false;
            }
            copy = v == 0 ? Src.of(Reg.RZ) : Src.of(Imm.ofInt((int) (long) v));
        }
        OpInfo.makeMov(in, d, copy);
        return true;
    }

    /** A LOP3's table with its inputs known to be all zeros or all ones fixed to those values. */
    private static int fixedTable(List<Src> s, Map<Key, Long> consts) {
        int lut = (int) (long) OpInfo.imm(s.get(3));
        for (int i = 0; i < 3; i++) {
            Long v = value(s.get(i), consts);
            if (v != null && (v == 0 || v == 0xffffffffL)) {
                lut = Lut.fix(lut, i, v != 0);
            }
        }
        return lut;
    }

    /**
     * The value of a LOP3 whose table, once its known all-zeros or all-ones inputs are fixed, no longer depends on the
     * others ({@code x & 0}, {@code x | 0xffffffff}), or null.
     */
    private static Long constantTable(Instr in, Map<Key, Long> consts) {
        List<Src> s = in.srcs();
        if (!OpInfo.is(in, "LOP3") || s.size() < 4 || !in.mods().contains("LUT") || OpInfo.imm(s.get(3)) == null) {
            return null;
        }
        return switch (fixedTable(s, consts) & 0xff) {
            case 0x00 -> 0L;
            case 0xff -> 0xffffffffL;
            default -> null;
        };
    }

    /** The one source an instruction reduces to (x+0, x*1, SEL on a known predicate, ...), or null. */
    private static Src identity(Instr in, Map<Key, Long> consts, Map<Key, Boolean> preds) {
        List<Src> s = in.srcs();
        List<String> m = in.mods();
        switch (in.op().name()) {
            case "IADD3": {
                if (s.size() != 3 || m.contains("X")) {
                    return null;
                }
                Src only = null;
                for (Src x : s) {
                    Long v = value(x, consts);
                    if (v != null && v == 0) {
                        continue;
                    }
                    if (only != null) {
                        return null;
                    }
                    only = x;
                }
                return only != null && !only.hasModifiers() ? only : null;
            }
            case "IMAD": {
                if (s.size() != 3 || m.contains("X") || m.contains("HI") || m.contains("WIDE")) {
                    return null;
                }
                Long a = value(s.get(0), consts);
                Long b = value(s.get(1), consts);
                Long c = value(s.get(2), consts);
                if ((a != null && a == 0 || b != null && b == 0) && !s.get(2).hasModifiers()) {
                    return s.get(2);
                }
                if (c != null && c == 0) {
                    if (a != null && a == 1 && !s.get(1).hasModifiers()) {
                        return s.get(1);
                    }
                    if (b != null && b == 1 && !s.get(0).hasModifiers()) {
                        return s.get(0);
                    }
                }
                return null;
            }
            case "SEL": {
                if (s.size() != 3) {
                    return null;
                }
                Boolean p = predValue(s.get(2), preds);
                if (p == null) {
                    return null;
                }
                Src chosen = s.get(p ? 0 : 1);
                return chosen.hasModifiers() ? null : chosen;
            }
            case "LOP3": {
                if (s.size() < 4 || !m.contains("LUT") || OpInfo.imm(s.get(3)) == null) {
                    return null;
                }
                int lut = fixedTable(s, consts);
                for (int i = 0; i < 3; i++) {
                    if (Lut.isIdentity(lut, i) && !s.get(i).hasModifiers()) {
                        return s.get(i);
                    }
                }
                return null;
            }
            default:
                return null;
        }
    }

    /**
     * Deletes unconditional branches to the block that follows in layout, or that follows after empty blocks only
     * (the ones a folded branch skipped, emptied but kept so that block numbers stay): control falls through them to
     * the target, as ptxas's code continues straight into the join.
     */
    static boolean removeJumpsToNext(FunctionBody body) {
        boolean changed = false;
        List<BasicBlock> blocks = body.blocks();
        for (BasicBlock b : blocks) {
            Instr last = b.last();
            if (last != null && OpInfo.is(last, "BRA") && last.guard().isAlways() && last.mods().isEmpty()
                    && last.branchTarget() != null && last.srcs().size() == 1
                    && onlyEmptyBetween(blocks, b.id(), last.branchTarget().block())) {
                b.instrs().remove(b.instrs().size() - 1);
                changed = true;
            }
        }
        return changed;
    }

    /** Whether {@code to} comes after {@code from} in layout with only empty blocks between them. */
    private static boolean onlyEmptyBetween(List<BasicBlock> blocks, int from, int to) {
        if (to <= from) {
            return false;
        }
        for (int id = from + 1; id < to; id++) {
            if (!blocks.get(id).instrs().isEmpty()) {
                return false;
            }
        }
        return true;
    }
}
