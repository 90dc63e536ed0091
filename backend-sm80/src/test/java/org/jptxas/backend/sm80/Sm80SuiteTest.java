package org.jptxas.backend.sm80;

import java.util.List;
import org.jptxas.simulator.suite.BackendSuiteTest;

/** The kernel suite compiled by this backend alone and run in the SASS emulator (see {@link BackendSuiteTest}). */
class Sm80SuiteTest extends BackendSuiteTest {
    @Override
    protected List<String> targets() {
        return List.of("sm_80", "sm_86");
    }

    @Override
    protected String figurePrefix() {
        return "backend.sm80.suite.";
    }
}
