package org.jptxas.scheduler.list;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Comparator;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The ready list keeps the order its documentation states (priority bits, then height, earliest cycle and index; the
 * pressure order by GPR delta first) through any sequence of additions, removals and key changes: checked against
 * sorted sets built from that statement.
 */
class ReadyListTest {
    @Test
    void ordersAsTheStatedComparisonThroughRandomChanges() {
        Random random = new Random(19);
        for (int trial = 0; trial < 200; trial++) {
            int n = 1 + random.nextInt(60);
            ReadyList ready = new ReadyList(n);
            Comparator<Integer> byPriority = (a, b) -> {
                int c = Priority.compareBits(ready.priority[a], ready.priority[b]);
                if (c != 0) {
                    return c;
                }
                c = Integer.compare(ready.height[b], ready.height[a]);
                if (c != 0) {
                    return c;
                }
                c = Integer.compare(ready.earliest[a], ready.earliest[b]);
                return c != 0 ? c : Integer.compare(a, b);
            };
            TreeSet<Integer> expected = new TreeSet<>(byPriority);
            TreeSet<Integer> expectedPressure = new TreeSet<>((a, b) -> {
                int c = Integer.compare(ready.gprDelta[a], ready.gprDelta[b]);
                return c != 0 ? c : byPriority.compare(a, b);
            });
            for (int step = 0; step < 4 * n; step++) {
                int node = random.nextInt(n);
                boolean listed = expected.contains(node);
                switch (random.nextInt(3)) {
                    case 0 -> {
                        if (!listed) {
                            setKeys(ready, node, random);
                            ready.add(node);
                            expected.add(node);
                            expectedPressure.add(node);
                        }
                    }
                    case 1 -> {
                        assertEquals(listed, ready.remove(node));
                        expected.remove(node);
                        expectedPressure.remove(node);
                    }
                    default -> {
                        boolean present = ready.detach(node);
                        assertEquals(listed, present);
                        expected.remove(node);
                        expectedPressure.remove(node);
                        setKeys(ready, node, random);
                        ready.attach(node, present);
                        if (present) {
                            expected.add(node);
                            expectedPressure.add(node);
                        }
                    }
                }
                assertEquals(expected.size(), ready.size());
                assertArrayEquals(expected.stream().mapToInt(Integer::intValue).toArray(), ready.nodes());
                assertEquals(expected.isEmpty(), ready.isEmpty());
                if (!expected.isEmpty()) {
                    assertEquals(expected.first(), ready.best(false));
                    assertEquals(expectedPressure.first(), ready.best(true));
                    assertEquals(expected.first(), ready.node(0));
                }
            }
        }
    }

    @Test
    void aNodeNotListedIsNeitherRemovedNorPutBack() {
        ReadyList ready = new ReadyList(3);
        ready.add(1);
        assertFalse(ready.remove(2));
        boolean present = ready.detach(0);
        assertFalse(present);
        ready.attach(0, present);
        assertEquals(1, ready.size());
        assertTrue(ready.remove(1));
        assertTrue(ready.isEmpty());
    }

    /** Few distinct values, so that ties fall through to the later criteria. */
    private static void setKeys(ReadyList ready, int node, Random random) {
        ready.priority[node] = random.nextInt(256);
        ready.height[node] = random.nextInt(4);
        ready.earliest[node] = random.nextInt(4);
        ready.gprDelta[node] = random.nextInt(5) - 2;
    }
}
