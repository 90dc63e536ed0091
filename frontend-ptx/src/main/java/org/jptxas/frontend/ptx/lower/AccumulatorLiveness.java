package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.Statement;

/**
 * Where a function's wgmma accumulator blocks are live, over its PTX control flow, before lowering: which blocks are
 * live at the same time (and so need disjoint registers), and which are live at each {@code wgmma.fence} and
 * {@code wgmma.wait_group} (the ones those instructions must keep in place). Liveness is per PTX register name;
 * a block is live where any of its names is. Conservative where unsure: an instruction kills its first operand only
 * when it is an unguarded instruction of {@link #WRITES_FIRST} (or a multiply whose scale-d is a constant false);
 * every other mention of a name is a read; an indirect branch may go to any label.
 */
final class AccumulatorLiveness {
    /** Opcodes whose first operand is only written. */
    private static final Set<String> WRITES_FIRST = Set.of("mov", "add", "sub", "mul", "mad", "fma", "div", "rem",
            "abs", "neg", "min", "max", "and", "or", "xor", "not", "shl", "shr", "cvt", "cvta", "ld", "ldu", "selp",
            "set", "setp", "slct", "ex2", "lg2", "rcp", "sqrt", "rsqrt", "sin", "cos", "tanh", "bfe", "bfi", "prmt",
            "shf", "popc", "clz", "brev", "copysign", "testp", "shfl", "mul24", "mad24", "sad", "cnot", "lop3");

    /** Per block, the blocks live at the same time somewhere. */
    final boolean[][] interferes;
    /** Per fence or wait instruction, the blocks live into it. */
    final Map<Instruction, BitSet> liveAt = new IdentityHashMap<>();

    private AccumulatorLiveness(int blocks) {
        interferes = new boolean[blocks][blocks];
    }

    /** A flattened statement: an instruction or a label, with the scope its labels resolve in. */
    private record Node(Statement statement, int scope) {}

    /**
     * @param blockOf per accumulator register name, its block's index
     * @param blocks  the number of blocks
     * @param isConstantFalse whether a multiply's scale-d operand is a constant false
     */
    static AccumulatorLiveness analyze(Block body, Map<String, Integer> blockOf, int blocks,
            java.util.function.Predicate<Operand> isConstantFalse) {
        AccumulatorLiveness a = new AccumulatorLiveness(blocks);
        List<Node> nodes = new ArrayList<>();
        List<Integer> parents = new ArrayList<>();
        Map<String, Integer> labels = new HashMap<>();
        flatten(body, -1, nodes, parents, labels);
        Map<String, Integer> nameIndex = new HashMap<>();
        List<Integer> nameBlock = new ArrayList<>();
        blockOf.forEach((n, b) -> {
            nameIndex.put(n, nameIndex.size());
            nameBlock.add(b);
        });
        int n = nodes.size();
        BitSet[] use = new BitSet[n];
        BitSet[] def = new BitSet[n];
        int[][] succ = new int[n][];
        List<Integer> allLabels = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (nodes.get(i).statement() instanceof LabelDef) {
                allLabels.add(i);
            }
        }
        for (int i = 0; i < n; i++) {
            use[i] = new BitSet();
            def[i] = new BitSet();
            Node node = nodes.get(i);
            if (!(node.statement() instanceof Instruction insn)) {
                succ[i] = i + 1 < n ? new int[] {i + 1} : new int[0];
                continue;
            }
            List<Operand> ops = insn.operands();
            boolean multiply = insn.opcode().equals("wgmma") && insn.modifiers().contains("mma_async");
            boolean writesFirst = insn.guard() == null && !ops.isEmpty()
                    && (WRITES_FIRST.contains(insn.opcode()) || multiply);
            for (int k = 0; k < ops.size(); k++) {
                BitSet into = k == 0 && writesFirst ? def[i] : use[i];
                names(ops.get(k), nameIndex, into);
            }
            if (multiply && ops.size() > 3 && !isConstantFalse.test(ops.get(3))) {
                names(ops.get(0), nameIndex, use[i]); // D = A B + D reads D
            }
            succ[i] = successors(insn, i, n, node.scope(), parents, labels, allLabels);
        }
        BitSet[] in = new BitSet[n];
        BitSet[] out = new BitSet[n];
        for (int i = 0; i < n; i++) {
            in[i] = new BitSet();
            out[i] = new BitSet();
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int i = n - 1; i >= 0; i--) {
                BitSet o = new BitSet();
                for (int s : succ[i]) {
                    o.or(in[s]);
                }
                BitSet x = (BitSet) o.clone();
                x.andNot(def[i]);
                x.or(use[i]);
                if (!x.equals(in[i]) || !o.equals(out[i])) {
                    in[i] = x;
                    out[i] = o;
                    changed = true;
                }
            }
        }
        for (int i = 0; i < n; i++) {
            BitSet together = toBlocks(out[i], nameBlock);
            together.or(toBlocks(def[i], nameBlock));
            BitSet liveIn = toBlocks(in[i], nameBlock);
            for (BitSet set : List.of(together, liveIn)) {
                for (int x = set.nextSetBit(0); x >= 0; x = set.nextSetBit(x + 1)) {
                    for (int y = set.nextSetBit(0); y >= 0; y = set.nextSetBit(y + 1)) {
                        a.interferes[x][y] |= x != y;
                    }
                }
            }
            if (nodes.get(i).statement() instanceof Instruction insn && insn.opcode().equals("wgmma")
                    && (insn.modifiers().contains("fence") || insn.modifiers().contains("wait_group"))) {
                a.liveAt.put(insn, liveIn);
            }
        }
        return a;
    }

    private static BitSet toBlocks(BitSet names, List<Integer> nameBlock) {
        BitSet b = new BitSet();
        for (int k = names.nextSetBit(0); k >= 0; k = names.nextSetBit(k + 1)) {
            b.set(nameBlock.get(k));
        }
        return b;
    }

    private static int[] successors(Instruction insn, int i, int n, int scope, List<Integer> parents,
            Map<String, Integer> labels, List<Integer> allLabels) {
        List<Integer> s = new ArrayList<>();
        String op = insn.opcode();
        boolean guarded = insn.guard() != null;
        if (op.equals("bra") && !insn.operands().isEmpty() && insn.operands().get(0) instanceof Expr.SymbolRef t) {
            Integer target = resolve(t.name(), scope, parents, labels);
            if (target == null) {
                s.addAll(allLabels);
            } else {
                s.add(target);
            }
            if (guarded && i + 1 < n) {
                s.add(i + 1);
            }
        } else if (op.equals("brx") || op.equals("bra")) {
            s.addAll(allLabels);
            if (i + 1 < n) {
                s.add(i + 1);
            }
        } else if ((op.equals("ret") || op.equals("exit") || op.equals("trap")) && !guarded) {
            // ends
        } else if (i + 1 < n) {
            s.add(i + 1);
        }
        return s.stream().mapToInt(Integer::intValue).toArray();
    }

    private static Integer resolve(String name, int scope, List<Integer> parents, Map<String, Integer> labels) {
        for (int sc = scope; sc >= 0; sc = parents.get(sc)) {
            Integer at = labels.get(sc + ":" + name);
            if (at != null) {
                return at;
            }
        }
        return null;
    }

    private static void flatten(Block block, int parent, List<Node> nodes, List<Integer> parents,
            Map<String, Integer> labels) {
        int scope = parents.size();
        parents.add(parent);
        for (Statement s : block.statements()) {
            if (s instanceof Block b) {
                flatten(b, scope, nodes, parents, labels);
            } else if (s instanceof LabelDef l) {
                labels.putIfAbsent(scope + ":" + l.name(), nodes.size());
                nodes.add(new Node(s, scope));
            } else if (s instanceof Instruction) {
                nodes.add(new Node(s, scope));
            }
        }
    }

    /** Adds the accumulator names {@code o} mentions to {@code into}. */
    private static void names(Operand o, Map<String, Integer> nameIndex, BitSet into) {
        if (o instanceof Expr.SymbolRef r) {
            Integer k = nameIndex.get(r.name());
            if (k != null) {
                into.set(k);
            }
        } else if (o instanceof Operand.Vector v) {
            v.elements().forEach(e -> names(e, nameIndex, into));
        } else if (o instanceof Operand.Address a) {
            a.parts().forEach(e -> names(e, nameIndex, into));
        } else if (o instanceof Operand.ParenList p) {
            p.elements().forEach(e -> names(e, nameIndex, into));
        } else if (o instanceof Operand.Pair p) {
            names(p.first(), nameIndex, into);
            names(p.second(), nameIndex, into);
        } else if (o instanceof Expr.Unary u) {
            names(u.operand(), nameIndex, into);
        } else if (o instanceof Expr.Binary b) {
            names(b.left(), nameIndex, into);
            names(b.right(), nameIndex, into);
        }
    }
}
