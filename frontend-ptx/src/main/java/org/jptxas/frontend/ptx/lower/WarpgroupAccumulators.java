package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * Where a function's {@code wgmma.mma_async} accumulators live. A warpgroup multiply reads and writes its accumulator
 * as one block of consecutive registers, asynchronously: from the multiply to the {@code wgmma.wait_group} that retires
 * it, nothing else may read or write the block, and the register allocator (whose tuples hold at most eight
 * registers) cannot keep 8 to 128 values together. So the PTX registers of each accumulator vector are given fixed
 * physical registers for the whole function, before lowering: precoloured registers, which allocation works around
 * wherever they are live (the multiply and the wait name every register of the block, so they are live throughout).
 *
 * <p>Vectors sharing a register are one block (the same accumulator in a chain of multiplies); every register must
 * then sit at the same position of each vector. Blocks start at {@link #FIRST} and are aligned to {@link #ALIGN}
 * (ptxas's blocks are; nvdisasm reads any base). Blocks never live at the same time ({@link AccumulatorLiveness},
 * over the PTX control flow) may share registers: a warp-specialized kernel's consumer warpgroups each run their
 * own multiplies on their own branch, and only the blocks one branch holds at once must fit.
 */
public final class WarpgroupAccumulators {
    /** The first register of the first block: R0..R7 stay free for the allocator's short-lived values. */
    static final int FIRST = 8;
    static final int ALIGN = 8;
    /** The highest general register a block may use (R255 is RZ). */
    static final int LAST = 254;

    private final Map<String, Integer> fixed;
    private final List<Reg> all;
    private final String problem;
    /** The last multiply lowered since the last {@code wgmma.commit_group} (it closes the group), or null. */
    org.jptxas.ori.ir.Instr uncommitted;

    private final Placement placement;

    private WarpgroupAccumulators(Map<String, Integer> fixed, List<Reg> all, Placement placement, String problem) {
        this.fixed = fixed;
        this.all = all;
        this.placement = placement;
        this.problem = problem;
    }

    static final WarpgroupAccumulators NONE = new WarpgroupAccumulators(Map.of(), List.of(), null, null);

    /** Per register name written by the function: the one constant every write gives it, or {@link #VARIES}. */
    private final Map<String, Long> writes = new java.util.HashMap<>();
    private static final Long VARIES = Long.MIN_VALUE;

    /**
     * Whether predicate {@code name} is a constant: every instruction writing it is {@code mov.pred name, C} with the
     * same C (Triton passes wgmma's scale-d as such a predicate); null when it is not, or not known.
     */
    Boolean constantPredicate(String name) {
        Long v = writes.get(name);
        return v == null || v.equals(VARIES) ? null : v != 0;
    }

    /** The physical register of PTX register {@code name}, or null when it is no accumulator. */
    Integer register(String name) {
        return fixed.get(name);
    }

    /** Every accumulator register of the function, in register order (each once, however many blocks share it). */
    List<Reg> registers() {
        return all;
    }

    /** Why the accumulators could not be placed, or null. */
    String problem() {
        return problem;
    }

    static WarpgroupAccumulators plan(Block body) {
        List<List<String>> vectors = new ArrayList<>();
        collect(body, vectors);
        if (vectors.isEmpty()) {
            return NONE;
        }
        Map<String, Long> writes = new java.util.HashMap<>();
        recordWrites(body, writes);
        WarpgroupAccumulators placed = place(vectors, body, writes);
        placed.writes.putAll(writes);
        return placed;
    }

    private static void recordWrites(Block block, Map<String, Long> writes) {
        for (Statement s : block.statements()) {
            if (s instanceof Block b) {
                recordWrites(b, writes);
            } else if (s instanceof Instruction i && !i.operands().isEmpty()) {
                Operand d = i.operands().get(0);
                List<Operand> dsts = d instanceof Operand.Pair p ? List.of(p.first(), p.second()) : List.of(d);
                Long value = i.opcode().equals("mov") && i.modifiers().contains("pred") && i.guard() == null
                        && i.operands().size() == 2 && literal(i.operands().get(1)) != null
                        ? (Long) (literal(i.operands().get(1)) != 0 ? 1L : 0L) : VARIES;
                for (Operand o : dsts) {
                    if (o instanceof Expr.SymbolRef r) {
                        writes.merge(r.name(), value, (a, b) -> a.equals(b) ? a : VARIES);
                    }
                }
            }
        }
    }

    /** An integer literal, possibly negated ({@code -1}), or null. */
    static Long literal(Operand o) {
        if (o instanceof Expr.IntLit i) {
            return i.value();
        }
        if (o instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NEG && u.operand() instanceof Expr.IntLit i) {
            return -i.value();
        }
        return null;
    }

    private static WarpgroupAccumulators place(List<List<String>> vectors, Block body, Map<String, Long> writes) {
        // blocks: vectors sharing a register merge; each block keeps its registers by position
        List<List<String>> blocks = new ArrayList<>();
        for (List<String> v : vectors) {
            List<String> home = null;
            for (List<String> b : blocks) {
                for (String r : v) {
                    if (r != null && b.contains(r)) {
                        home = b;
                    }
                }
            }
            if (home == null) {
                blocks.add(new ArrayList<>(v));
                continue;
            }
            for (int k = 0; k < v.size(); k++) {
                String r = v.get(k);
                if (r == null) {
                    continue;
                }
                while (home.size() <= k) {
                    home.add(null);
                }
                int at = home.indexOf(r);
                if (at >= 0 && at != k) {
                    return new WarpgroupAccumulators(Map.of(), List.of(), null,
                            "an accumulator register (" + r + ") at two positions of wgmma accumulators");
                }
                if (home.get(k) == null) {
                    home.set(k, r);
                } else if (!home.get(k).equals(r)) {
                    return new WarpgroupAccumulators(Map.of(), List.of(), null,
                            "wgmma accumulators that overlap only in part");
                }
            }
        }
        Map<String, Integer> blockOf = new LinkedHashMap<>();
        for (int b = 0; b < blocks.size(); b++) {
            for (String r : blocks.get(b)) {
                if (r != null && blockOf.putIfAbsent(r, b) != null && blockOf.get(r) != b) {
                    return new WarpgroupAccumulators(Map.of(), List.of(), null,
                            "an accumulator register (" + r + ") in two wgmma accumulators");
                }
            }
        }
        AccumulatorLiveness live = AccumulatorLiveness.analyze(body, blockOf, blocks.size(),
                o -> constantFalse(o, writes));
        // each block at the lowest aligned base no block live at the same time overlaps
        int[] base = new int[blocks.size()];
        for (int b = 0; b < blocks.size(); b++) {
            int size = blocks.get(b).size();
            int at = FIRST;
            for (boolean moved = true; moved; ) {
                moved = false;
                for (int o = 0; o < b; o++) {
                    int end = base[o] + blocks.get(o).size();
                    if (live.interferes[b][o] && at < end && base[o] < at + size) {
                        at = (end + ALIGN - 1) / ALIGN * ALIGN;
                        moved = true;
                    }
                }
            }
            if (at + size - 1 > LAST) {
                return new WarpgroupAccumulators(Map.of(), List.of(), null,
                        "wgmma accumulators of more than " + (LAST - FIRST + 1) + " registers live at once");
            }
            base[b] = at;
        }
        Map<String, Integer> fixed = new LinkedHashMap<>();
        List<List<Reg>> byBlock = new ArrayList<>();
        java.util.TreeSet<Integer> used = new java.util.TreeSet<>();
        for (int b = 0; b < blocks.size(); b++) {
            List<Reg> regs = new ArrayList<>();
            for (int k = 0; k < blocks.get(b).size(); k++) {
                if (blocks.get(b).get(k) != null) {
                    fixed.put(blocks.get(b).get(k), base[b] + k);
                }
                regs.add(Reg.phys(RegFile.R, base[b] + k, 1));
                used.add(base[b] + k);
            }
            byBlock.add(List.copyOf(regs));
        }
        List<Reg> all = used.stream().map(r -> Reg.phys(RegFile.R, r, 1)).toList();
        return new WarpgroupAccumulators(fixed, all, new Placement(byBlock, live.liveAt), null);
    }

    /** Per block its registers, and per fence or wait the blocks live into it. */
    private record Placement(List<List<Reg>> blocks, Map<Instruction, java.util.BitSet> liveAt) {}

    /** Whether a multiply's scale-d operand is a constant false (D = A B: the multiply does not read D). */
    private static boolean constantFalse(Operand o, Map<String, Long> writes) {
        Long v = literal(o);
        if (v != null) {
            return v == 0;
        }
        if (o instanceof Expr.SymbolRef r) {
            Long w = writes.get(r.name());
            return w != null && w == 0L;
        }
        return false;
    }

    /**
     * The accumulator registers {@code wgmma.fence} or {@code wgmma.wait_group} {@code insn} must keep in place: those
     * of the blocks live into it (every accumulator register when the instruction was not seen by the plan).
     */
    List<Reg> registersAt(Instruction insn) {
        java.util.BitSet live = placement == null ? null : placement.liveAt().get(insn);
        if (live == null) {
            return all;
        }
        java.util.TreeSet<Integer> regs = new java.util.TreeSet<>();
        for (int b = live.nextSetBit(0); b >= 0; b = live.nextSetBit(b + 1)) {
            placement.blocks().get(b).forEach(r -> regs.add(r.index()));
        }
        return regs.stream().map(r -> Reg.phys(RegFile.R, r, 1)).toList();
    }

    private static void collect(Block block, List<List<String>> out) {
        for (Statement s : block.statements()) {
            if (s instanceof Block b) {
                collect(b, out);
            } else if (s instanceof Instruction i && i.opcode().equals("wgmma") && i.modifiers().contains("mma_async")
                    && !i.operands().isEmpty() && i.operands().get(0) instanceof Operand.Vector v) {
                List<String> names = new ArrayList<>();
                for (Operand e : v.elements()) {
                    names.add(e instanceof Expr.SymbolRef r && r.component() == null ? r.name() : null);
                }
                out.add(names);
            }
        }
    }
}
