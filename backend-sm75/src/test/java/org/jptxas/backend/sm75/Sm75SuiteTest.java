package org.jptxas.backend.sm75;

import java.util.List;
import org.jptxas.simulator.suite.BackendSuiteTest;

/** The kernel suite compiled by this backend alone and run in the SASS emulator (see {@link BackendSuiteTest}). */
class Sm75SuiteTest extends BackendSuiteTest {
    @Override
    protected List<String> targets() {
        return List.of("sm_75");
    }

    @Override
    protected String figurePrefix() {
        return "backend.sm75.suite.";
    }
}
