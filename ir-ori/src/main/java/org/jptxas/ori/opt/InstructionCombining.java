package org.jptxas.ori.opt;

import org.jptxas.ori.ir.FunctionBody;

/** TODO. */
public final class InstructionCombining implements Pass {
    @Override
    public String name() {
        return "combine";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        return false;
    }
}
