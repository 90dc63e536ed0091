package org.jptxas.simulator.ptx;

import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.Region;

/** One activation of a function in one thread: its registers, its parameter space and its local-memory frame. */
final class Frame {
    final CompiledFunction function;
    final long[] regs;
    final Region params;
    final int localBase;
    final Frame caller;
    final int returnPc;
    final Insn.CallSite site;
    final int depth;

    Frame(CompiledFunction function, Region params, int localBase, Frame caller, int returnPc, Insn.CallSite site) {
        this.function = function;
        this.regs = new long[function.registerCount];
        this.params = params != null ? params : new Region("params of " + function.name, AddressSpace.PARAM, 0,
                function.paramAreaSize);
        this.localBase = localBase;
        this.caller = caller;
        this.returnPc = returnPc;
        this.site = site;
        this.depth = caller == null ? 0 : caller.depth + 1;
    }

}
