package org.jptxas.scheduler.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.scheduler.control.ControlWord;
import org.jptxas.scheduler.hazard.Hazard;
import org.jptxas.scheduler.latency.LatencyModel;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/** Hopper's IMAD.WIDE: early low result half, late read of the addend's high half (ptxas's sm_90 code relies on both). */
class WideSplitHazardTest {
    private static List<SassLine> listing(Object... textAndStall) {
        List<SassLine> out = new ArrayList<>();
        for (int i = 0; i < textAndStall.length; i += 2) {
            ControlWord cw = new ControlWord((Integer) textAndStall[i + 1], false, 7, 7, 0, 0);
            out.add(new SassLine("k", out.size() * 16, (String) textAndStall[i], 0, (long) cw.pack() << 41, null));
        }
        out.add(new SassLine("k", out.size() * 16, "EXIT", 0, (long) new ControlWord(5, false, 7, 7, 0, 0).pack() << 41, null));
        return out;
    }

    private static List<String> hazards(String sm, List<SassLine> lines) {
        LatencyModel model = LatencyModel.of(TestTargets.of(sm));
        return ControlAgreement.checkHazards(lines, model, Integer.parseInt(sm.substring(3)) < 90).stream()
                .filter(Hazard::isError).map(Hazard::detail).toList();
    }

    @Test
    void lowHalfOfTheResultIsReadableEarlyOnHopperOnly() {
        List<SassLine> low = listing("IMAD.WIDE R4, R3, R2, R4", 3, "ISETP.GT.U32.AND P0, PT, R4, 0x24bff, PT", 5);
        assertEquals(List.of(), hazards("sm_90", low));
        assertEquals(1, hazards("sm_80", low).size());
        List<SassLine> high = listing("IMAD.WIDE R4, R3, R2, R4", 3, "ISETP.GT.U32.AND P0, PT, R5, 0x24bff, PT", 5);
        assertEquals(1, hazards("sm_90", high).size(), "the high half keeps the full latency");
    }

    @Test
    void highHalfOfTheAddendIsReadLateOnHopperOnly() {
        List<SassLine> hi = listing("SHF.R.S32.HI R5, RZ, 0x1f, R4", 3, "IMAD.WIDE R4, R3, R2, R4", 5);
        assertEquals(List.of(), hazards("sm_90", hi));
        assertEquals(1, hazards("sm_80", hi).size());
        List<SassLine> lo = listing("SHF.R.S32.HI R4, RZ, 0x1f, R4", 3, "IMAD.WIDE R4, R3, R2, R4", 5);
        assertEquals(1, hazards("sm_90", lo).size(), "the low half is read at issue");
    }
}
