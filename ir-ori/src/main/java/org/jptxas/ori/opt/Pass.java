package org.jptxas.ori.opt;

import org.jptxas.ori.ir.FunctionBody;

/**
 * One mid-level optimization over a function's virtual-register Ori. A pass rewrites the body in place, keeps
 * {@link org.jptxas.ori.analysis.IrVerifier} happy, and builds whatever analyses it needs itself (the body changes
 * between passes, so none is shared). Passes are stateless and thread-safe: many functions compile in parallel.
 */
public interface Pass {
    /** The name {@code --dump-ir=NAME} and diagnostics use, e.g. {@code constfold}. */
    String name();

    /** Rewrites {@code body}; returns whether anything changed. */
    boolean run(FunctionBody body, OptContext cx);
}
