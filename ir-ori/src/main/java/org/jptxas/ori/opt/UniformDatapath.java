package org.jptxas.ori.opt;

import org.jptxas.ori.ir.FunctionBody;

/** TODO. */
public final class UniformDatapath implements Pass {
    @Override
    public String name() {
        return "uniform";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        return false;
    }
}
