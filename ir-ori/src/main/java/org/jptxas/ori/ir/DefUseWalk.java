package org.jptxas.ori.ir;

import java.util.List;

/** The one walk of a body's definitions and uses that the def-use analyses share (see {@link DefUseVisitor}). */
public final class DefUseWalk {
    private DefUseWalk() {}

    /** Visits every instruction of {@code body}, its definitions and then its uses. */
    public static void walk(FunctionBody body, DefUseVisitor visitor) {
        // indexed loops: C1-compiled code (the compile server's) allocates an iterator per for-each loop, here three
        // per instruction, and the analyses walking this way are rebuilt after every pass that changes the body
        List<BasicBlock> blocks = body.blocks();
        for (int bi = 0; bi < blocks.size(); bi++) {
            BasicBlock block = blocks.get(bi);
            List<Instr> instrs = block.instrs();
            for (int i = 0; i < instrs.size(); i++) {
                Instr in = instrs.get(i);
                visitor.instr(block, i, in);
                List<Reg> dsts = in.dsts();
                for (int d = 0; d < dsts.size(); d++) {
                    visitor.def(in, dsts.get(d));
                }
                List<Reg> used = in.usedRegs();
                for (int u = 0; u < used.size(); u++) {
                    visitor.use(in, used.get(u));
                }
            }
        }
    }
}
