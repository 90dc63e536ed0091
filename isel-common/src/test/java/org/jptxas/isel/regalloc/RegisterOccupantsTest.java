package org.jptxas.isel.regalloc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.jptxas.ori.ir.RegFile;
import org.junit.jupiter.api.Test;

/**
 * The occupants' overlap query answers as a walk over every interval ever placed on the unit does: random
 * intervals with holes, placed mostly in start order and sometimes out of it (the second chance moves earlier
 * intervals), some moved away since (stale), over more entries than one chunk.
 */
class RegisterOccupantsTest {
    private static LiveInterval interval(Random random, int key) {
        LiveInterval iv = new LiveInterval(key, RegFile.R, 1 + random.nextInt(2), -1);
        int pos = random.nextInt(4000) + 200;
        int ranges = 1 + random.nextInt(4);
        // built backwards, as IntervalBuilder does
        for (int r = 0; r < ranges && pos > 2; r++) {
            int len = 1 + random.nextInt(r == 0 ? 40 : 400);
            int from = Math.max(0, pos - len);
            iv.addRange(from, pos);
            pos = from - 1 - random.nextInt(200);
        }
        iv.finish();
        return iv;
    }

    private static boolean walk(List<LiveInterval> all, LiveInterval iv, int unit) {
        for (LiveInterval o : all) {
            if (o != iv && o.reg >= 0 && o.reg <= unit && unit < o.reg + o.comps && o.overlapsWhole(iv)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void answersAsTheWholeWalk() {
        for (long seed = 1; seed <= 30; seed++) {
            Random random = new Random(seed);
            RegisterOccupants occupants = new RegisterOccupants();
            List<LiveInterval> placed = new ArrayList<>();
            List<LiveInterval> made = new ArrayList<>();
            for (int k = 0; k < 300; k++) {
                made.add(interval(random, k));
            }
            made.sort(java.util.Comparator.comparingInt(LiveInterval::start));
            int unit = 4;
            int agreedTrue = 0;
            for (int k = 0; k < made.size(); k++) {
                LiveInterval iv = random.nextInt(8) == 0 && k > 0 ? made.get(random.nextInt(k)) : made.get(k);
                iv.reg = unit - random.nextInt(iv.comps);
                occupants.add(iv);
                placed.add(iv);
                if (random.nextInt(10) == 0) {
                    placed.get(random.nextInt(placed.size())).reg = random.nextInt(3) == 0 ? -1 : unit + 3;
                }
                for (int q = 0; q < 5; q++) {
                    LiveInterval probe = random.nextBoolean() ? made.get(random.nextInt(made.size()))
                            : interval(random, 1000 + q);
                    boolean expected = walk(placed, probe, unit);
                    assertEquals(expected, occupants.anyOverlapAt(probe, unit), "seed " + seed + " step " + k);
                    agreedTrue += expected ? 1 : 0;
                }
            }
            // the query must have met both answers for the comparison to mean something
            assertEquals(true, agreedTrue > 0 && agreedTrue < 5 * made.size(), "seed " + seed);
        }
    }
}
