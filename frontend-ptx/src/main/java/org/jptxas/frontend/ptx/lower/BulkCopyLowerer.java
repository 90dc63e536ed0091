package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Bulk asynchronous copies (sm_90), as ptxas 13 writes them; every address and size is a uniform register
 * ({@link UniformLoop}):
 * <ul>
 *   <li>{@code cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [s], [g], n, [bar]} (with
 *       {@code .multicast::cluster} and a rank mask: {@code UBLKCP.S.G.MULTICAST}, the mask in the count's high
 *       half):
 *       {@code UBLKCP.S.G [URs:URbar], [URg:URg+1], URn} with {@code URn = n >> 4} (16-bit), one per thread (each
 *       thread's copy completes its own bytes on the barrier).</li>
 *   <li>{@code cp.async.bulk.global.shared::cta.bulk_group [g], [s], n}: {@code UBLKCP.G.S [URg:URg+1], [URs], URn}
 *       (threads with equal operands share one copy: the bytes written are the same).</li>
 *   <li>{@code cp.async.bulk.prefetch.L2.global [g], n}: {@code UBLKPF.L2 [URg:URg+1], URn}.</li>
 *   <li>{@code cp.async.bulk.tensor.1d|2d.shared::cluster.global.mbarrier::complete_tx::bytes [s], [tmap, {c...}],
 *       [bar]}: {@code UTMALDG.nD [URs, URbar, URc...], [URtmap:URtmap+1]}, one per thread (with
 *       {@code .multicast::cluster} and a rank mask: {@code UTMALDG.nD.MULTICAST [...], [...], URmask});
 *       {@code cp.async.bulk.tensor.1d..5d.global.shared::cta.bulk_group [tmap, {c...}], [s]}:
 *       {@code UTMASTG.nD [URs, URc...], [URtmap]}. The operand block is one uniform tuple of up to seven
 *       registers (a 5d load), aligned to eight when it has more than four, as ptxas places it.</li>
 *   <li>{@code cp.async.bulk.prefetch.tensor.1d..5d.L2.global[.tile] [tmap, {c...}]}:
 *       {@code UTMAPF.L2.nD [URc...], [URtmap]} (the block holds only the coordinates);
 *       {@code cp.reduce.async.bulk.tensor.1d..5d.global.shared::cta.OP.tile.bulk_group [tmap, {c...}], [s]}:
 *       {@code UTMAREDG.nD.OP [URs, URc...], [URtmap]} (UTMASTG's operands; the element type is the map's), one per
 *       thread.</li>
 *   <li>{@code cp.reduce.async.bulk.global.shared::cta.bulk_group.OP.TYPE [g], [s], n}:
 *       {@code UBLKRED.G.S.OP[.TYPE] [URg:URg+1], [URs], URn} as UBLKCP.G.S's operands, one per thread (the
 *       floating types with .RN: add.noftz.f16 is .ADD.F16.RN); into another block's shared memory
 *       ({@code .shared::cluster.shared::cta.mbarrier::complete_tx::bytes}, completing on its barrier):
 *       {@code UBLKRED.S.S.OP[.TYPE] [URd:URbar], [URs], URn}.</li>
 *   <li>{@code cp.async.bulk.commit_group}: {@code UTMACMDFLUSH}; {@code cp.async.bulk.wait_group.read N}:
 *       {@code DEPBAR.LE SB0, N}; without {@code .read} also {@code CCTL.IVALL}.</li>
 * </ul>
 */
@AutoService(InstructionLowerer.class)
public final class BulkCopyLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("cp.async.bulk", "cp.async.bulk.prefetch", "cp.async.bulk.tensor", "cp.async.bulk.commit_group",
                "cp.async.bulk.wait_group", "cp.async.bulk.prefetch.tensor", "cp.reduce.async.bulk",
                "cp.reduce.async.bulk.tensor");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        var split = cx.resolved().opcodeOf(insn).orElseThrow(() -> cx.unsupported("bulk copy form"));
        List<String> mods = split.modifiers();
        List<Operand> ops = insn.operands();
        switch (split.opcode()) {
            case "cp.async.bulk.commit_group" -> {
                BasicBlock done = insn.guard() != null ? cx.branchAroundGuard() : null; // no guarded form
                cx.emit("UTMACMDFLUSH", List.of(), List.of(), List.of());
                if (done != null) {
                    cx.startBlock(done);
                }
            }
            case "cp.async.bulk.wait_group" -> {
                if (!(cx.src(ops.get(0), PtxType.U32).value() instanceof Imm n) || n.bits() < 0 || n.bits() > 63) {
                    throw cx.unsupported("wait_group count");
                }
                cx.emit("DEPBAR", List.of("LE"), List.of(), List.of(Src.of(AsyncCopyLowerer.GROUPS),
                        Ptx.imm(n.bits())));
                if (!mods.contains("read")) {
                    cx.emit("CCTL", List.of("IVALL"), List.of(), List.of());
                }
            }
            case "cp.async.bulk" -> copy(cx, insn, mods, ops);
            case "cp.async.bulk.prefetch" -> {
                only(cx, mods, Set.of("L2", "global"));
                List<Src> g = global(cx, (Operand.Address) ops.get(0));
                Src n = size(cx, ops.get(1));
                Reg ug = cx.newReg(RegFile.UR, 2);
                Reg un = cx.newReg(RegFile.UR, 1);
                uniform(cx, List.of(g.get(0), g.get(1), n), List.of(ug.component(0), ug.component(1), un), false,
                        () -> cx.emitUnguarded("UBLKPF", List.of("L2"), List.of(),
                                List.of(Src.of(Addr.of(ug, 0)), Src.of(un))));
            }
            case "cp.async.bulk.tensor" -> tensor(cx, mods, ops, mods.contains("mbarrier::complete_tx::bytes")
                    ? TensorOp.LOAD : TensorOp.STORE);
            case "cp.async.bulk.prefetch.tensor" -> tensor(cx, mods, ops, TensorOp.PREFETCH);
            case "cp.reduce.async.bulk.tensor" -> tensor(cx, mods, ops, TensorOp.REDUCE);
            case "cp.reduce.async.bulk" -> reduce(cx, mods, ops);
            default -> throw cx.unsupported(split.opcode());
        }
    }

    private static void copy(LoweringContext cx, Instruction insn, List<String> mods, List<Operand> ops)
            throws CompilationException {
        if (mods.contains("shared::cluster") && mods.contains("global")
                && mods.contains("mbarrier::complete_tx::bytes") && mods.indexOf("shared::cluster") == 0) {
            only(cx, mods, Set.of("shared::cluster", "global", "mbarrier::complete_tx::bytes", "multicast::cluster"));
            boolean multicast = mods.contains("multicast::cluster");
            if (multicast != (ops.size() == 5)) {
                throw cx.unsupported("cp.async.bulk operands");
            }
            Src s = shared(cx, (Operand.Address) ops.get(0));
            List<Src> g = global(cx, (Operand.Address) ops.get(1));
            Src n = multicast ? withRanks(cx, size(cx, ops.get(2)), cx.src(ops.get(4), PtxType.B16)) : size(cx, ops.get(2));
            Src bar = shared(cx, (Operand.Address) ops.get(3));
            Reg pair = cx.newReg(RegFile.UR, 2);
            Reg ug = cx.newReg(RegFile.UR, 2);
            Reg un = cx.newReg(RegFile.UR, 1);
            uniform(cx, List.of(s, bar, g.get(0), g.get(1), n),
                    List.of(pair.component(0), pair.component(1), ug.component(0), ug.component(1), un), true,
                    () -> cx.emitUnguarded("UBLKCP", multicast ? List.of("S", "G", "MULTICAST") : List.of("S", "G"),
                            List.of(), List.of(Src.of(Addr.of(pair, 0)), Src.of(Addr.of(ug, 0)), Src.of(un))));
        } else if (mods.indexOf("global") == 0 && mods.contains("shared::cta") && mods.contains("bulk_group")) {
            only(cx, mods, Set.of("global", "shared::cta", "bulk_group"));
            // threads with equal operands share one copy: the bytes written are the same
            globalFromShared(cx, ops, "UBLKCP", List.of("G", "S"), false);
        } else {
            throw cx.unsupported("cp.async.bulk direction or completion " + mods);
        }
    }

    /** What a tensor instruction does with its box. */
    private enum TensorOp {
        LOAD, STORE, REDUCE, PREFETCH
    }

    private static final List<String> REDUCTIONS = List.of("add", "min", "max", "inc", "dec", "and", "or", "xor");

    private static void tensor(LoweringContext cx, List<String> mods, List<Operand> ops, TensorOp kind)
            throws CompilationException {
        int rank = mods.contains("1d") ? 1 : mods.contains("2d") ? 2 : mods.contains("3d") ? 3
                : mods.contains("4d") ? 4 : mods.contains("5d") ? 5 : 0;
        boolean load = kind == TensorOp.LOAD;
        String dims = rank + "d";
        boolean multicast = mods.contains("multicast::cluster");
        String reduction = null;
        switch (kind) {
            case LOAD -> {
                only(cx, mods, Set.of(dims, "shared::cluster", "shared::cta", "global", "tile",
                        "mbarrier::complete_tx::bytes", "multicast::cluster"));
                if (ops.size() != (multicast ? 4 : 3)) {
                    throw cx.unsupported("cp.async.bulk.tensor operands");
                }
                if (!mods.contains("global") || mods.indexOf("global") != 2 && mods.indexOf("global") != 3) {
                    throw cx.unsupported("cp.async.bulk.tensor direction");
                }
            }
            case STORE, REDUCE -> {
                reduction = kind == TensorOp.REDUCE ? mods.stream().filter(REDUCTIONS::contains).findFirst()
                        .orElseThrow(() -> cx.unsupported("cp.reduce.async.bulk.tensor without an operation")) : null;
                Set<String> allowed = new HashSet<>(Set.of(dims, "shared::cta", "global", "tile",
                        "bulk_group"));
                if (reduction != null) {
                    allowed.add(reduction);
                }
                only(cx, mods, allowed);
                if (!mods.contains("bulk_group")) {
                    throw cx.unsupported("cp.async.bulk.tensor completion");
                }
                if (ops.size() != 2) {
                    throw cx.unsupported("tensor operands");
                }
            }
            case PREFETCH -> {
                only(cx, mods, Set.of(dims, "L2", "global", "tile"));
                if (ops.size() != 1) {
                    throw cx.unsupported("cp.async.bulk.prefetch.tensor operands");
                }
            }
        }
        if (rank == 0) {
            throw cx.unsupported("cp.async.bulk.tensor without a rank");
        }
        Operand.Address map = (Operand.Address) ops.get(load ? 1 : 0);
        Src shared = kind == TensorOp.PREFETCH ? null : shared(cx, (Operand.Address) ops.get(load ? 0 : 1));
        if (map.parts().size() != 2 || !(map.parts().get(1) instanceof Operand.Vector coords)
                || coords.elements().size() != rank) {
            throw cx.unsupported("tensor coordinates");
        }
        Src tmap = cx.src(map.parts().get(0), PtxType.B64);
        if (!(tmap.value() instanceof Reg t) || t.comps() != 2) {
            throw cx.unsupported("tensor map address other than a 64-bit register");
        }
        // the uniform operand block: [shared address, (barrier,)] coordinates; a prefetch has only the coordinates
        List<Src> values = new ArrayList<>(List.of(Src.of(t.component(0)), Src.of(t.component(1))));
        if (shared != null) {
            values.add(shared);
        }
        if (load) {
            values.add(shared(cx, (Operand.Address) ops.get(2)));
        }
        for (Operand c : coords.elements()) {
            values.add(cx.src(c, PtxType.S32));
        }
        int tuple = values.size() - 2;
        Reg um = cx.newReg(RegFile.UR, 2);
        Reg block = cx.newReg(RegFile.UR, tuple);
        List<Reg> into = new ArrayList<>(List.of(um.component(0), um.component(1)));
        for (int k = 0; k < tuple; k++) {
            into.add(block.component(k));
        }
        List<String> m = switch (kind) {
            case LOAD -> multicast ? List.of(dims.toUpperCase(), "MULTICAST") : List.of(dims.toUpperCase());
            case STORE -> List.of(dims.toUpperCase());
            case REDUCE -> List.of(dims.toUpperCase(), reduction.toUpperCase());
            case PREFETCH -> List.of("L2", dims.toUpperCase());
        };
        List<Src> operands = new ArrayList<>(List.of(Src.of(Addr.of(block, 0)), Src.of(Addr.of(um, 0))));
        if (multicast) { // the receiving ranks' mask, a third uniform operand
            Reg mask = cx.newReg(RegFile.UR, 1);
            values.add(withRanks(cx, Ptx.imm(0), cx.src(ops.get(3), PtxType.B16))); // the high half, as ptxas
            into.add(mask);
            operands.add(Src.of(mask));
        }
        String opcode = switch (kind) {
            case LOAD -> "UTMALDG";
            case STORE -> "UTMASTG";
            case REDUCE -> "UTMAREDG";
            case PREFETCH -> "UTMAPF";
        };
        // a load completes its own bytes and each thread's reduction counts: one trip per thread, as ptxas loops
        uniform(cx, values, into, load || kind == TensorOp.REDUCE, () -> cx.emitUnguarded(opcode, m, List.of(),
                operands));
    }

    /** SASS type modifiers of UBLKRED by PTX type (none for u32/b32; b64 is .U64). */
    private static final Map<String, List<String>> REDUCE_TYPES = Map.of("u32", List.of(),
            "b32", List.of(), "s32", List.of("S32"), "u64", List.of("U64"), "b64", List.of("U64"), "s64",
            List.of("S64"), "f32", List.of("F32", "RN"), "f64", List.of("F64", "RN"), "f16", List.of("F16", "RN"),
            "bf16", List.of("BF16", "RN"));

    /**
     * {@code cp.reduce.async.bulk.global.shared::cta.bulk_group.OP.TYPE [g], [s], n}:
     * {@code UBLKRED.G.S.OP[.TYPE] [URg:URg+1], [URs], URn} (URn = n >> 4), one per thread: every thread's reduction
     * counts, even of equal operands.
     */
    private static void reduce(LoweringContext cx, List<String> mods, List<Operand> ops) throws CompilationException {
        String op = mods.stream().filter(REDUCTIONS::contains).findFirst()
                .orElseThrow(() -> cx.unsupported("cp.reduce.async.bulk without an operation"));
        String type = mods.stream().filter(REDUCE_TYPES::containsKey).findFirst().orElse(null);
        if (type == null) {
            throw cx.unsupported("cp.reduce.async.bulk element type");
        }
        if (mods.contains("shared::cluster")) {
            cluster(cx, mods, ops, op, type);
            return;
        }
        only(cx, mods, Set.of("global", "shared::cta", "bulk_group", op, type, "noftz"));
        if (mods.indexOf("global") != 0 || !mods.contains("shared::cta") || !mods.contains("bulk_group")
                || ops.size() != 3) {
            throw cx.unsupported("cp.reduce.async.bulk direction or completion " + mods);
        }
        List<String> m = new ArrayList<>(List.of("G", "S", op.toUpperCase()));
        m.addAll(REDUCE_TYPES.get(type));
        // one per thread, as ptxas issues them: equal operands reduce as many times as threads issue them
        globalFromShared(cx, ops, "UBLKRED", m, true);
    }

    /**
     * {@code [g], [s], n} from shared::cta into global memory: {@code OPCODE.mods [URg:URg+1], [URs], URn} in the
     * uniform loop, once per thread ({@code perLane}) or once per distinct operand set.
     */
    private static void globalFromShared(LoweringContext cx, List<Operand> ops, String opcode, List<String> mods,
                                         boolean perLane) {
        List<Src> g = global(cx, (Operand.Address) ops.get(0));
        Src s = shared(cx, (Operand.Address) ops.get(1));
        Src n = size(cx, ops.get(2));
        Reg ug = cx.newReg(RegFile.UR, 2);
        Reg us = cx.newReg(RegFile.UR, 1);
        Reg un = cx.newReg(RegFile.UR, 1);
        uniform(cx, List.of(g.get(0), g.get(1), s, n), List.of(ug.component(0), ug.component(1), us, un), perLane,
                () -> cx.emitUnguarded(opcode, mods, List.of(),
                        List.of(Src.of(Addr.of(ug, 0)), Src.of(Addr.of(us, 0)), Src.of(un))));
    }

    /** The PTX types of the shared::cluster reductions ptxas's words show, and their SASS type modifiers. */
    private static final Map<String, List<String>> CLUSTER_TYPES = Map.of("u32", List.of(), "b32", List.of(), "s32",
            List.of("S32"), "u64", List.of("U64"));

    /**
     * {@code cp.reduce.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes.OP.TYPE [d], [s], n, [bar]}:
     * {@code UBLKRED.S.S.OP[.TYPE] [URd:URbar], [URs], URn} (UBLKCP.S.G's pair: the destination and the barrier,
     * both shared::cluster addresses), one per thread. Only add on u64 (the b64 bitwise forms and min/max.u64 are
     * refused by name).
     */
    private static void cluster(LoweringContext cx, List<String> mods, List<Operand> ops, String op, String type)
            throws CompilationException {
        if (!CLUSTER_TYPES.containsKey(type) || type.equals("u64") && !op.equals("add")) {
            throw cx.unsupported("cp.reduce.async.bulk." + op + "." + type + " into shared::cluster");
        }
        only(cx, mods, Set.of("shared::cluster", "shared::cta", "mbarrier::complete_tx::bytes", op, type));
        if (mods.indexOf("shared::cluster") != 0 || !mods.contains("shared::cta")
                || !mods.contains("mbarrier::complete_tx::bytes") || ops.size() != 4) {
            throw cx.unsupported("cp.reduce.async.bulk direction or completion " + mods);
        }
        List<String> m = new ArrayList<>(List.of("S", "S", op.toUpperCase()));
        m.addAll(CLUSTER_TYPES.get(type));
        Src d = shared(cx, (Operand.Address) ops.get(0));
        Src s = shared(cx, (Operand.Address) ops.get(1));
        Src n = size(cx, ops.get(2));
        Src bar = shared(cx, (Operand.Address) ops.get(3));
        Reg pair = cx.newReg(RegFile.UR, 2);
        Reg us = cx.newReg(RegFile.UR, 1);
        Reg un = cx.newReg(RegFile.UR, 1);
        uniform(cx, List.of(d, bar, s, n), List.of(pair.component(0), pair.component(1), us, un), true,
                () -> cx.emitUnguarded("UBLKRED", m, List.of(),
                        List.of(Src.of(Addr.of(pair, 0)), Src.of(Addr.of(us, 0)), Src.of(un))));
    }

    /** The loop around a uniform-operand instruction, the PTX guard branched around first. */
    private static void uniform(LoweringContext cx, List<Src> values, List<Reg> into, boolean perLane, Runnable body) {
        BasicBlock done = cx.instruction().guard() != null ? cx.branchAroundGuard() : null;
        UniformLoop.forEach(cx, values, into, perLane, body);
        if (done != null) {
            cx.startBlock(done);
        }
    }

    private static void only(LoweringContext cx, List<String> mods, Set<String> allowed) throws CompilationException {
        for (String m : mods) {
            if (!allowed.contains(m)) {
                throw cx.unsupported("qualifier ." + m);
            }
        }
    }

    /** A shared-window address as one 32-bit value. */
    private static Src shared(LoweringContext cx, Operand.Address o) {
        Addr a = cx.address(o, StateSpace.SHARED);
        if (a.offset() == 0) {
            return Src.of(a.base());
        }
        Reg r = Ptx.r32(cx);
        cx.emit("IADD3", List.of(), List.of(r, Reg.PT, Reg.PT), List.of(Src.of(a.base()),
                Ptx.imm(a.offset() & 0xffffffffL), Ptx.rz()));
        return Src.of(r);
    }

    /** A global address as its two 32-bit halves. */
    private static List<Src> global(LoweringContext cx, Operand.Address o) {
        Addr a = cx.address(o, StateSpace.GLOBAL);
        Reg base = Ptx.plus64(cx, a.base(), a.offset(), true);
        return List.of(Src.of(base.component(0)), Src.of(base.component(1)));
    }

    /**
     * UBLKCP.MULTICAST's count operand: the size in 16-byte units in the low half, the mask of the cluster's ranks
     * that receive the copy in the high half (ptxas: {@code UPRMT n, n, 0x5410, mask}).
     */
    private static Src withRanks(LoweringContext cx, Src units, Src mask) {
        if (units.value() instanceof Imm u && mask.value() instanceof Imm m) {
            return Ptx.imm((m.bits() & 0xffff) << 16 | u.bits() & 0xffff);
        }
        Reg r = Ptx.r32(cx);
        cx.emit("PRMT", List.of(), List.of(r), List.of(inRegister(cx, units), Ptx.imm(0x5410), inRegister(cx, mask)));
        return Src.of(r);
    }

    private static Src inRegister(LoweringContext cx, Src s) {
        if (s.value() instanceof Reg) {
            return s;
        }
        Reg r = Ptx.r32(cx);
        cx.emit("MOV", List.of(), List.of(r), List.of(s));
        return Src.of(r);
    }

    /** The copy size in 16-byte units, 16 bits wide, as UBLKCP takes it. */
    private static Src size(LoweringContext cx, Operand o) {
        Src n = cx.src(o, PtxType.U32);
        if (n.value() instanceof Imm i) {
            return Ptx.imm((i.bits() >>> 4) & 0xffff);
        }
        Reg shifted = Ptx.r32(cx);
        cx.emit("SHF", List.of("R", "U32", "HI"), List.of(shifted), List.of(Ptx.rz(), Ptx.imm(4), n));
        Reg r = Ptx.r32(cx);
        cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, r),
                List.of(Src.of(shifted), Ptx.imm(0xffff), Ptx.rz(), Ptx.imm(0xc0), Ptx.notPt()));
        return Src.of(r);
    }
}
