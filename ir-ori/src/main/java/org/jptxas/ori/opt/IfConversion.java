package org.jptxas.ori.opt;

import org.jptxas.ori.ir.FunctionBody;

/** TODO. */
public final class IfConversion implements Pass {
    @Override
    public String name() {
        return "ifconv";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        return false;
    }
}
