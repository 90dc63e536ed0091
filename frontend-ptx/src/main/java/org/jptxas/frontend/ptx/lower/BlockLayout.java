package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.LabelDef;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/** Labels as basic blocks: scoped and redefined labels, placing each block once, and the final block order. */
final class BlockLayout {
    private final FunctionLowerer lowerer;

    BlockLayout(FunctionLowerer lowerer) {
        this.lowerer = lowerer;
    }

    /** Copies the blocks into a body numbered in layout order, dropping unreferenced empty anonymous blocks. */
    FunctionBody relayout() {
        FunctionBody out = new FunctionBody();
        out.copyNamesFrom(lowerer.body);
        for (RegFile f : RegFile.values()) {
            for (int i = lowerer.body.virtualCount(f); i > 0; i--) {
                out.newVirtual(f, 1);
            }
        }
        List<BasicBlock> kept = new ArrayList<>();
        for (int i = 0; i < lowerer.layout.size(); i++) {
            BasicBlock b = lowerer.layout.get(i);
            boolean last = i == lowerer.layout.size() - 1;
            if (i > 0 && b.instrs().isEmpty() && b.label() == null && !lowerer.referenced.contains(b) && !last) {
                continue;
            }
            kept.add(b);
        }
        Map<Integer, Integer> newId = new HashMap<>();
        List<BasicBlock> copies = new ArrayList<>();
        for (BasicBlock b : kept) {
            BasicBlock c = out.addBlock(b.label());
            c.setNoUnroll(b.noUnroll());
            newId.put(b.id(), c.id());
            copies.add(c);
        }
        for (int i = 0; i < kept.size(); i++) {
            for (Instr in : kept.get(i).instrs()) {
                for (int s = 0; s < in.srcs().size(); s++) {
                    Src src = in.srcs().get(s);
                    if (src.value() instanceof BlockLabel l) {
                        Integer id = newId.get(l.block());
                        in.srcs().set(s, new Src(new BlockLabel(id == null ? l.block() : id), src.neg(), src.abs(),
                                src.not()));
                    }
                }
                copies.get(i).instrs().add(in);
            }
        }
        return out;
    }

    BasicBlock label(String name) {
        return lowerer.labels.computeIfAbsent(name, lowerer.body::addBlock);
    }

    /**
     * A label's block by its definition: labels are scoped by { } blocks (inline-asm wrappers repeat a name such as
     * {@code waitLoop} in sibling blocks), so a resolved reference names its own definition.
     */
    BasicBlock label(LabelDef def) {
        return lowerer.scopedLabels.computeIfAbsent(def, d -> isRedefined(def) ? lowerer.body.addBlock(def.name()) : label(def.name()));
    }

    void countLabels(Block block) {
        for (Statement s : block.statements()) {
            if (s instanceof LabelDef l) {
                lowerer.labelNameCounts.merge(l.name(), 1, Integer::sum);
            } else if (s instanceof Block b) {
                countLabels(b);
            }
        }
    }

    /** Whether another label of the function has {@code def}'s name (then the name alone does not identify it). */
    private boolean isRedefined(LabelDef def) {
        return lowerer.labelNameCounts.getOrDefault(def.name(), 0) > 1;
    }

    void placeAndStart(BasicBlock b) {
        if (!lowerer.placedBlocks.add(b)) {
            throw new IllegalStateException(b + " placed twice");
        }
        lowerer.layout.add(lowerer.insertAt, b);
        lowerer.insertAt++;
        lowerer.current = b;
    }
}
