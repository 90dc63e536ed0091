package org.jptxas.frontend.ptx;

import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;

/**
 * Entry point of the PTX front end: parse and check a PTX module, then lower it to Ori.
 * Instances are immutable and thread-safe.
 */
public final class PtxFrontEnd {
    private final Target target;

    /** @param target the real target being compiled for, used for target gating of instructions */
    public PtxFrontEnd(Target target) {
        this.target = target;
    }

    /** Parses and checks one PTX file; every error found is reported in the exception. */
    public CheckedModule check(String fileName, String text) throws CompilationException {
        throw new UnsupportedFeatureException(fileName, 1, "PTX parsing is not yet supported");
    }

    /** A PTX module that parsed and passed the semantic checks. */
    public interface CheckedModule {
        /** Lowers the module to Ori for {@code target}. */
        OriModule lower() throws CompilationException;
    }

    public Target target() {
        return target;
    }
}
