package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Every form of every table splits into guard, mnemonic and operands that put together give its text again. */
class SassOperandsTest {
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void operandsRebuildEveryFormsSkeleton(String sm) {
        SassIsa isa = TestTargets.of(sm).isa();
        int checked = 0;
        for (SassForm f : isa.forms()) {
            SassOperands o = f.operands();
            List<String> shapes = new ArrayList<>();
            int slots = o.guardSlot() >= 0 ? 1 : 0;
            for (SassOperands.Operand op : o.operands()) {
                shapes.add(op.shape());
                slots += op.slots().size();
                for (int i = 1; i < op.slots().size(); i++) {
                    assertTrue(op.slots().get(i) > op.slots().get(i - 1), f.toString());
                }
            }
            assertEquals(f.slots().size(), slots, f.toString());
            String guard = o.guardSlot() < 0 ? "" : (o.guardNegated() ? "@!{} " : "@{} ");
            String rebuilt = guard + f.mnemonic() + (shapes.isEmpty() ? "" : " " + String.join(", ", shapes));
            assertEquals(normalize(f.skeleton()), normalize(rebuilt), f.toString());
            checked++;
        }
        assertTrue(checked > 1000, sm + ": " + checked);
    }

    private static String normalize(String s) {
        return s.replaceAll("\\s+", " ").strip();
    }
}
