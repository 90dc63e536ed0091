package org.jptxas.isel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The two-generation memo: what is in use survives a turn, what is not is dropped, and the size stays bounded. */
class RecentMemoTest {
    @Test
    void aWorkingSetUpToTheBoundIsNeverRecomputed() {
        RecentMemo<Integer, String> memo = new RecentMemo<>(100);
        AtomicInteger computed = new AtomicInteger();
        for (int k = 0; k < 150; k++) {
            memo.put(-1 - k, "earlier"); // a generation and a half of other entries first: the memo turns meanwhile
        }
        // 90 keys cycled: after the first pass, every lookup hits
        for (int pass = 0; pass < 5; pass++) {
            for (int k = 0; k < 90; k++) {
                memo.computeIfAbsent(k, key -> {
                    computed.incrementAndGet();
                    return "v" + key;
                });
            }
        }
        assertEquals(90, computed.get());
    }

    @Test
    void emptyingWhenFullWouldRecomputeWhatTheGenerationsKeep() {
        RecentMemo<Integer, String> memo = new RecentMemo<>(64);
        AtomicInteger computed = new AtomicInteger();
        for (int pass = 0; pass < 4; pass++) {
            for (int k = 0; k < 100; k++) {
                memo.computeIfAbsent(k, key -> {
                    computed.incrementAndGet();
                    return "v" + key;
                });
            }
        }
        // a memo emptied at 64 entries would compute all 400; the generations keep most of each pass for the next
        assertTrue(computed.get() < 300, "computed " + computed.get());
        assertTrue(memo.size() <= 2 * 64, "size " + memo.size());
    }

    @Test
    void entriesNotAskedForInAWholeGenerationAreDropped() {
        RecentMemo<Integer, String> memo = new RecentMemo<>(10);
        memo.put(-1, "first");
        for (int k = 0; k < 25; k++) {
            memo.put(k, "v" + k);
        }
        assertNull(memo.get(-1));
        assertTrue(memo.size() <= 20, "size " + memo.size());
    }

    @Test
    void anEntryAskedForMovesIntoTheYoungGeneration() {
        RecentMemo<Integer, String> memo = new RecentMemo<>(10);
        memo.put(-1, "kept");
        for (int k = 0; k < 25; k++) {
            memo.put(k, "v" + k);
            assertEquals("kept", memo.get(-1));
        }
    }

    @Test
    void theFirstAnswerStays() {
        RecentMemo<String, String> memo = new RecentMemo<>(4);
        String first = new String("answer");
        assertSame(first, memo.put("k", first));
        assertSame(first, memo.put("k", new String("answer")));
        assertNull(memo.computeIfAbsent("none", key -> null));
        assertNull(memo.get("none"));
        assertThrows(IllegalArgumentException.class, () -> new RecentMemo<String, String>(0));
    }
}
