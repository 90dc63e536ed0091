package org.jptxas.scheduler.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.jptxas.scheduler.model.RegFile;
import org.junit.jupiter.api.Test;

class IssueStateTest {
    private static final int R = RegFile.R.ordinal();
    private static final int SB = 1;
    private static final boolean[] IN_ORDER = {true, true};

    /** {@code count} producers on SB1 (an in-order pipe), the i-th issued at cycle 10 + i and writing R(1 + i). */
    private static IssueState producers(int count) {
        IssueState st = new IssueState(2);
        for (int i = 0; i < count; i++) {
            long t = 10 + i;
            st.recordSet(SB, t);
            st.sbPipe[SB] = 0;
            st.writeTime[R][1 + i] = t;
            st.setWriteSb(R, 1 + i, 1 << SB);
        }
        return st;
    }

    private static int pendingWrites(IssueState st, int count) {
        int n = 0;
        for (int i = 0; i < count; i++) {
            n += st.writeSb[R][1 + i] != 0 ? 1 : 0;
        }
        return n;
    }

    @Test
    void aPartialDrainCompletesTheOlderProducersOfAnInOrderPipe() {
        IssueState st = producers(3);
        st.drainTo(SB, 1, IN_ORDER);
        assertEquals(0, st.writeSb[R][1]);
        assertEquals(0, st.writeSb[R][2]);
        assertEquals(1 << SB, st.writeSb[R][3], "the newest producer may still be pending");
    }

    @Test
    void theHistoryHoldsAsManyProducersAsTheCountFieldThroughCopies() {
        // 64 producers: the history grows to its full length; a copy keeps every entry
        IssueState st = producers(64).copy();
        st.drainTo(SB, 60, IN_ORDER);
        assertEquals(60, pendingWrites(st, 64));
        assertEquals(0, st.writeSb[R][4], "the fourth oldest is complete");
        assertEquals(1 << SB, st.writeSb[R][5]);
    }

    @Test
    void aCopiedHistoryGrowsOnItsOwn() {
        IssueState a = producers(2);
        IssueState b = a.copy();
        b.recordSet(SB, 50);
        b.sbPipe[SB] = 0;
        b.writeTime[R][3] = 50;
        b.setWriteSb(R, 3, 1 << SB);
        a.drainTo(SB, 1, IN_ORDER);
        assertEquals(1, pendingWrites(a, 2), "the original's history is its own two producers");
        b.drainTo(SB, 1, IN_ORDER);
        assertEquals(1, pendingWrites(b, 3));
        assertEquals(1 << SB, b.writeSb[R][3]);
    }
}
