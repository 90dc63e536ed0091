package org.jptxas.frontend.ptx;

import org.jptxas.spi.TargetDescription;
import org.jptxas.spi.TestTargets;
import org.jptxas.ori.target.Target;

/**
 * Front ends for tests, over the repository's backend descriptions ({@link TestTargets}): one that also lowers for
 * a target with code generation, one that only checks for the others.
 */
public final class TestFrontEnds {
    private TestFrontEnds() {}

    public static PtxFrontEnd of(Target target) {
        TargetDescription d = TestTargets.names().contains(target.name()) ? TestTargets.of(target.name()) : null;
        return d != null && d.codeGeneration() ? new PtxFrontEnd(d.profile(), TestTargets.catalog())
                : new PtxFrontEnd(target, TestTargets.catalog());
    }

    public static PtxFrontEnd of(String target) {
        return of(Target.of(target));
    }
}
