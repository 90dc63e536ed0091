package org.jptxas.ori.opt;

import org.jptxas.ori.ir.FunctionBody;

/** TODO. */
public final class AddressModeFolding implements Pass {
    @Override
    public String name() {
        return "addrfold";
    }

    @Override
    public boolean run(FunctionBody body, OptContext cx) {
        return false;
    }
}
