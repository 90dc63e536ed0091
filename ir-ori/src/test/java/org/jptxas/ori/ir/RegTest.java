package org.jptxas.ori.ir;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RegTest {
    @Test
    void sameRegisterIgnoresPartAndTupleSizeButNotFileKindOrNumber() {
        Reg wide = Reg.virt(RegFile.R, 5, 2);
        assertTrue(wide.sameRegister(wide.component(1)), "%r5.hi is part of %r5");
        assertTrue(wide.component(0).sameRegister(wide.component(1)));
        assertFalse(wide.sameRegister(Reg.virt(RegFile.R, 6, 2)), "another number");
        assertFalse(wide.sameRegister(Reg.phys(RegFile.R, 5, 2)), "physical R5 is not virtual %r5");
        assertFalse(Reg.virt(RegFile.P, 5, 1).sameRegister(Reg.virt(RegFile.R, 5, 1)), "another file");
        assertTrue(Reg.phys(RegFile.R, 4, 2).sameRegister(Reg.phys(RegFile.R, 4, 1)));
    }
}
