package org.jptxas.ori.opt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Divergence;
import org.jptxas.ori.analysis.Liveness;
import org.jptxas.ori.analysis.PostDominators;
import org.jptxas.ori.analysis.SingleDefs;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;

/**
 * Warp-uniform arithmetic on the uniform datapath (sm_75+): a value moved into a uniform register by {@code R2UR}
 * whose whole computation is warp-uniform (constants, uniform special registers, other uniform values; never a
 * per-thread value, and no value the divergence analysis calls divergent) is computed with the uniform ALU
 * instead ({@code UIADD3}, {@code ULOP3}, {@code USHF}, {@code USGXT}, {@code ULEA}, {@code UMOV}, {@code S2UR}),
 * each uniform instruction right after the per-thread one it copies, and the {@code R2UR} becomes a {@code UMOV}.
 * The per-thread chain dies when nothing else reads it, so the values stop occupying per-thread registers: ptxas
 * keeps warpgroup-MMA matrix descriptors and shared-memory addresses this way.
 *
 * A 64-bit add (a tensor map's address: a parameter's generic address plus an offset) becomes {@code UIADD3} with
 * a uniform carry-out and {@code UIADD3.X}; a constant-bank operand, which the uniform ALU cannot read, is loaded
 * with {@code ULDC} next to the copy.
 *
 * <p>Narrow by design: only the {@code R2UR}s feeding a warpgroup multiply ({@code HGMMA} and kin), and then those
 * feeding bulk and tensor copies and memory barriers ({@code UTMALDG}, {@code UBLKCP}, {@code SYNCS}), are served;
 * each of the two rewrites is undone when it would leave more than {@link #MAX_UNIFORM_PRESSURE} uniform registers
 * or {@link #MAX_UNIFORM_CARRIES} uniform predicates live at once (neither can be spilled).
 */
public final class UniformArithmetic implements Pass {
    /** Uniform register components that may be live at once after the rewrite (of 63). */
    public static final int MAX_UNIFORM_PRESSURE = 48;
    /** Uniform predicates that may be live at once (of 7; like the uniform registers, they cannot be spilled). */
    public static final int MAX_UNIFORM_CARRIES = 4;

    /** Per-thread opcodes with a uniform twin taking the same operands in the same order. */
    private static final Map<String, String> TWINS = Map.of("IADD3", "UIADD3", "LOP3", "ULOP3", "SHF", "USHF",
            "SGXT", "USGXT", "LEA", "ULEA", "MOV", "UMOV");

    /** Special registers equal in every thread of a warp that S2UR reads. */
    private static final Set<String> UNIFORM_SPECIALS = Set.of("SR_CgaCtaId", "SR_CTAID.X", "SR_CTAID.Y",
            "SR_CTAID.Z");

    @Override
    public String name() {
        return "uniform-alu";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        if (!cx.hasUniformDatapath() || !OpInfo.exists("USGXT") || !OpInfo.exists("S2UR")) {
            return false;
        }
        List<Instr> descriptors = moves(body, UniformArithmetic::warpgroupMultiply);
        List<Instr> addresses = moves(body, UniformArithmetic::asyncCopyOrBarrier);
        if (descriptors.isEmpty() && addresses.isEmpty()) {
            return false;
        }
        Cfg cfg = Cfg.of(body);
        SingleDefs sd = cx.singleDefs(body);
        Divergence div = new Divergence(body, cfg, new PostDominators(cfg));
        // descriptors first: they matter most, and a rewrite of the addresses that overflows the uniform registers
        // is undone alone
        boolean changed = rewrite(body, descriptors, new Rewrite(body, cx, sd, div));
        return rewrite(body, addresses, new Rewrite(body, cx, sd, div)) || changed;
    }

    /** Rewrites {@code roots} with {@code w}; keeps the result when something changed and the uniform registers suffice. */
    private static boolean rewrite(FunctionBody body, List<Instr> roots, Rewrite w) {
        for (Instr r2ur : roots) {
            Reg v = (Reg) r2ur.srcs().get(0).value();
            Long k = w.constant(v, 0);
            if (k != null) {
                w.retarget(r2ur, Src.of(Imm.ofInt((int) (long) k)));
                continue;
            }
            Reg u = w.uniform(v);
            if (u != null) {
                w.retarget(r2ur, u);
            }
        }
        if (w.retargeted.isEmpty()) {
            w.undo();
            return false;
        }
        if (uniformPressure(body, RegFile.UR) > MAX_UNIFORM_PRESSURE
                || !w.carries.isEmpty() && uniformPressure(body, RegFile.UP) > MAX_UNIFORM_CARRIES) {
            w.undo();
            return false;
        }
        return true;
    }

    private static boolean warpgroupMultiply(Instr in) {
        return in.op().name().endsWith("GMMA");
    }

    /** Bulk and tensor copies and the memory barriers they signal: their addresses live in uniform registers. */
    private static boolean asyncCopyOrBarrier(Instr in) {
        String op = in.op().name();
        return op.startsWith("UTMA") || op.startsWith("UBLK") || op.startsWith("SYNCS");
    }

    /** Unguarded {@code R2UR ur, r} (r a virtual R value) whose destination an instruction {@code reader} accepts reads. */
    private static List<Instr> moves(FunctionBody body, java.util.function.Predicate<Instr> reader) {
        List<Reg> read = new ArrayList<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (reader.test(in)) {
                    for (Reg r : in.usedRegs()) { // addresses too
                        if (r.file() == RegFile.UR && r.virtual()) {
                            read.add(r);
                        }
                    }
                }
            }
        }
        List<Instr> out = new ArrayList<>();
        if (read.isEmpty()) {
            return out;
        }
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                if (OpInfo.is(in, "R2UR") && in.guard().isAlways() && in.mods().isEmpty() && in.dsts().size() == 1
                        && in.srcs().size() == 1 && !in.srcs().get(0).hasModifiers()
                        && in.srcs().get(0).value() instanceof Reg v && v.virtual() && v.file() == RegFile.R
                        && readByAny(in.dsts().get(0), read)) {
                    out.add(in);
                }
            }
        }
        return out;
    }

    private static boolean readByAny(Reg d, List<Reg> read) {
        for (Reg r : read) {
            if (r.sameRegister(d)) {
                return true;
            }
        }
        return false;
    }

    private static int uniformPressure(FunctionBody body, RegFile file) {
        Cfg cfg = Cfg.of(body);
        Liveness live = new Liveness(body, cfg);
        Map<Integer, Integer> comps = new HashMap<>();
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.dsts()) {
                    if (r.virtual()) {
                        comps.merge(live.key(r), r.comps(), Math::max);
                    }
                }
            }
        }
        int max = 0;
        for (BasicBlock b : body.blocks()) {
            max = Math.max(max, live.maxPressure(b, file, comps));
        }
        return max;
    }

    /** The uniform copies made so far, and how to take them back. */
    private static final class Rewrite {
        private final FunctionBody body;
        private final OptContext cx;
        private final SingleDefs sd;
        private final Divergence div;
        /** Per-thread value (whole register or part) to the uniform register holding it; null: cannot. */
        private final Map<Reg, Reg> made = new HashMap<>();
        /** Carry-out predicate of a copied per-thread addition to its uniform twin. */
        private final Map<Reg, Reg> carries = new HashMap<>();
        private final Map<Instr, BasicBlock> inserted = new IdentityHashMap<>();
        /** R2URs turned into UMOVs, with their original source. */
        final Map<Instr, Src> retargeted = new IdentityHashMap<>();

        Rewrite(FunctionBody body, OptContext cx, SingleDefs sd, Divergence div) {
            this.body = body;
            this.cx = cx;
            this.sd = sd;
            this.div = div;
        }

        void retarget(Instr r2ur, Reg u) {
            retarget(r2ur, Src.of(u));
        }

        /** {@code R2UR ur, r} becomes {@code UMOV ur, value}. */
        void retarget(Instr r2ur, Src value) {
            retargeted.put(r2ur, r2ur.srcs().get(0));
            r2ur.setOp(OpInfo.op("UMOV"));
            r2ur.srcs().set(0, value);
        }

        /**
         * The 32-bit constant per-thread value {@code v} always holds (moves, adds and logic on constants: a
         * descriptor's high word), or null. A constant is moved where it is needed instead of kept in a register.
         */
        Long constant(Reg v, int depth) {
            if (v.isZero()) {
                return 0L;
            }
            if (depth > 8 || !v.virtual() || v.file() != RegFile.R) {
                return null;
            }
            Instr def = soleWriter(v);
            if (def == null || !def.guard().isAlways()) {
                return null;
            }
            List<Src> s = def.srcs();
            if (OpInfo.is(def, "MOV") && s.size() == 1) {
                return operand(s.get(0), depth);
            }
            if (OpInfo.is(def, "IADD3") && def.mods().isEmpty() && s.size() == 3) {
                long sum = 0;
                for (Src x : s) {
                    Long k = operand(x, depth);
                    if (k == null) {
                        return null;
                    }
                    sum += k;
                }
                return sum & 0xffffffffL;
            }
            if (OpInfo.is(def, "LOP3") && def.mods().equals(List.of("LUT")) && s.size() == 5
                    && Boolean.FALSE.equals(OpInfo.constPred(s.get(4)))) {
                Long a = operand(s.get(0), depth);
                Long b = operand(s.get(1), depth);
                Long c = operand(s.get(2), depth);
                Long lut = OpInfo.imm(s.get(3));
                if (a == null || b == null || c == null || lut == null) {
                    return null;
                }
                long r = 0;
                for (int i = 0; i < 8; i++) {
                    if ((lut >> i & 1) != 0) {
                        r |= ((i & 4) != 0 ? a : ~a) & ((i & 2) != 0 ? b : ~b) & ((i & 1) != 0 ? c : ~c);
                    }
                }
                return r & 0xffffffffL;
            }
            return null;
        }

        private Long operand(Src s, int depth) {
            Long k = OpInfo.const32(s);
            if (k != null || !(s.value() instanceof Reg r) || s.abs()) {
                return k;
            }
            Long v = constant(r, depth + 1);
            if (v == null) {
                return null;
            }
            long x = s.neg() ? -v : v;
            return (s.not() ? ~x : x) & 0xffffffffL;
        }

        void undo() {
            for (Map.Entry<Instr, Src> e : retargeted.entrySet()) {
                e.getKey().setOp(OpInfo.op("R2UR"));
                e.getKey().srcs().set(0, e.getValue());
            }
            for (Map.Entry<Instr, BasicBlock> e : inserted.entrySet()) {
                e.getValue().instrs().removeIf(in -> in == e.getKey());
            }
            retargeted.clear();
            inserted.clear();
        }

        /** The uniform register holding per-thread value {@code v}, made on first request; null when it cannot be. */
        Reg uniform(Reg v) {
            if (v.isZero()) {
                return Reg.URZ;
            }
            if (made.containsKey(v)) {
                return made.get(v);
            }
            made.put(v, null); // a cycle (a loop-carried value) cannot be served
            Reg u = build(v);
            made.put(v, u);
            return u;
        }

        private Reg build(Reg v) {
            if (!v.virtual() || v.file() != RegFile.R || div.isDivergent(v)) {
                return null;
            }
            Instr def = soleWriter(v);
            if (def == null || !def.guard().isAlways() || def.dsts().isEmpty()) {
                return null;
            }
            String op = def.op().name();
            if (op.equals("S2R")) {
                return special(def);
            }
            String twin = TWINS.get(op);
            if (twin == null || !OpInfo.exists(twin)) {
                return null;
            }
            List<Reg> dsts = new ArrayList<>();
            Reg u = null;
            Map.Entry<Reg, Reg> carry = null;
            for (Reg d : def.dsts()) {
                if (d.equals(Reg.PT)) {
                    dsts.add(Reg.UPT);
                } else if (d.equals(v) && u == null) {
                    u = body.newVirtual(RegFile.UR, 1);
                    dsts.add(u);
                } else if (op.equals("IADD3") && d.file() == RegFile.P && d.virtual() && !d.isPart()) {
                    Reg up = body.newVirtual(RegFile.UP, 1);
                    carry = Map.entry(d, up); // the low half's carry-out, which the high half's IADD3.X reads
                    dsts.add(up);
                } else {
                    return null; // a predicate of another kind, or a wider result
                }
            }
            if (u == null) {
                return null;
            }
            List<Src> srcs = new ArrayList<>();
            List<Instr> moves = new ArrayList<>();
            for (Src s : def.srcs()) {
                Src t = uniformSource(s, def, moves);
                if (t == null) {
                    return null;
                }
                srcs.add(t);
            }
            Instr copy = new Instr(OpInfo.op(twin), def.mods(), dsts, srcs, def.guard(), def.line());
            if (!cx.canEncode(copy).orElse(true)) {
                return null;
            }
            insertAfter(def, copy);
            for (Instr m : moves) {
                insertAfter(def, m); // each before the copy, reading the value the definition read
            }
            if (carry != null) {
                carries.put(carry.getKey(), carry.getValue());
            }
            return u;
        }

        /**
         * {@code s} as the uniform copy of {@code def} reads it. A warp-uniform register with more than one
         * writer (a loop-carried counter) is moved in with its own {@code R2UR} (added to {@code moves}), placed
         * between {@code def} and the copy, where it holds what {@code def} read.
         */
        private Src uniformSource(Src s, Instr def, List<Instr> moves) {
            if (s.value() instanceof Reg r && r.virtual() && r.file() == RegFile.R && !r.isZero()) {
                Src direct = uniformSource(s);
                if (direct != null || div.isDivergent(r) || r.isPart() || r.comps() != 1 || Rewrites.writes(def, r)) {
                    return direct;
                }
                Reg u = body.newVirtual(RegFile.UR, 1);
                moves.add(new Instr(OpInfo.op("R2UR"), List.of(), new ArrayList<>(List.of(u)),
                        new ArrayList<>(List.of(Src.of(r))), def.guard(), def.line()));
                return new Src(u, s.neg(), s.abs(), s.not());
            }
            return loadedOrCarry(s, def, moves);
        }

        /** {@code s} read uniformly: a parameter loaded with {@code ULDC}, a carry from its uniform twin. */
        private Src loadedOrCarry(Src s, Instr def, List<Instr> moves) {
            if (s.value() instanceof CBank c && c.index() == null) {
                // the uniform ALU reads no constant bank: the parameter is loaded once more, into a uniform register
                Reg u = body.newVirtual(RegFile.UR, 1);
                moves.add(new Instr(OpInfo.op("ULDC"), List.of(), new ArrayList<>(List.of(u)),
                        new ArrayList<>(List.of(Src.of(c))), def.guard(), def.line()));
                return new Src(u, s.neg(), s.abs(), s.not());
            }
            if (s.value() instanceof Reg r && r.file() == RegFile.P && r.virtual() && !r.isPart()) {
                Reg up = carry(r);
                return up == null ? null : new Src(up, s.neg(), s.abs(), s.not());
            }
            return uniformSource(s);
        }

        /** The uniform twin of carry {@code p} of a warp-uniform addition, building the addition's copy; or null. */
        private Reg carry(Reg p) {
            if (!carries.containsKey(p) && !div.isDivergent(p)) {
                Instr def = sd.soleDef(p);
                if (def != null && OpInfo.is(def, "IADD3") && def.dsts().get(0).file() == RegFile.R) {
                    uniform(def.dsts().get(0));
                }
            }
            return carries.get(p);
        }

        private Src uniformSource(Src s) {
            if (s.value() instanceof Imm) {
                return s;
            }
            if (s.value() instanceof Reg r) {
                if (r.equals(Reg.PT)) {
                    return new Src(Reg.UPT, s.neg(), s.abs(), s.not());
                }
                if (r.file() == RegFile.UR || r.file() == RegFile.UP) {
                    return s;
                }
                if (r.file() == RegFile.R) {
                    Reg u = uniform(r);
                    return u == null ? null : new Src(u, s.neg(), s.abs(), s.not());
                }
            }
            return null;
        }

        private Reg special(Instr def) {
            if (def.dsts().size() != 1 || def.srcs().size() != 1
                    || !(def.srcs().get(0).value() instanceof SpecialReg sr) || !UNIFORM_SPECIALS.contains(sr.name())) {
                return null;
            }
            Reg u = body.newVirtual(RegFile.UR, 1);
            Instr copy = new Instr(OpInfo.op("S2UR"), def.mods(), new ArrayList<>(List.of(u)),
                    new ArrayList<>(def.srcs()), def.guard(), def.line());
            if (!cx.canEncode(copy).orElse(true)) {
                return null;
            }
            insertAfter(def, copy);
            return u;
        }

        /** The one instruction writing {@code v} (a whole 32-bit register or one part of a pair), or null. */
        private Instr soleWriter(Reg v) {
            if (!v.isPart()) {
                return v.comps() == 1 ? sd.soleDef(v) : null;
            }
            Reg whole = v.whole();
            if (!sd.stable(whole)) {
                return null;
            }
            Instr found = null;
            for (Instr d : sd.defs(whole)) {
                for (Reg r : d.dsts()) {
                    if (r.sameRegister(whole) && (!r.isPart() || r.part() == v.part())) {
                        if (found != null || !r.isPart()) {
                            return null;
                        }
                        found = d;
                    }
                }
            }
            return found;
        }

        private void insertAfter(Instr def, Instr copy) {
            SingleDefs.Position p = sd.position(def);
            BasicBlock b = body.block(p.block());
            List<Instr> ins = b.instrs();
            int at = indexOf(ins, def);
            ins.add(at + 1, copy);
            inserted.put(copy, b);
        }

        private static int indexOf(List<Instr> ins, Instr x) {
            for (int i = 0; i < ins.size(); i++) {
                if (ins.get(i) == x) {
                    return i;
                }
            }
            throw new IllegalStateException("definition not in its block");
        }
    }
}
