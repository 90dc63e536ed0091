package org.jptxas.backend.sm89_90;

import java.util.List;
import org.jptxas.simulator.suite.BackendSuiteTest;

/** The kernel suite compiled by this backend alone and run in the SASS emulator (see {@link BackendSuiteTest}). */
class Sm89To90SuiteTest extends BackendSuiteTest {
    @Override
    protected List<String> targets() {
        return List.of("sm_89", "sm_90");
    }

    @Override
    protected String figurePrefix() {
        return "backend.sm89_90.suite.";
    }
}
