package org.jptxas.simulator.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.simulator.memory.GlobalMemory;
import org.jptxas.simulator.memory.Region;
import org.junit.jupiter.api.Test;

/**
 * The tensor map's layout and tile-mode boxes: dense boxes, zeros out of bounds, element strides, rank 3, swizzled
 * shared layouts.
 */
class TensorMapTest {
    /** A 5x3 matrix of u16 whose element (x, y) is 10 y + x, rows 16 bytes apart, and a map of 4x2 boxes. */
    private static GlobalMemory memory(List<Integer> steps, long[] mapAt) {
        GlobalMemory g = new GlobalMemory();
        Region m = g.allocate("matrix", 48);
        for (int y = 0; y < 3; y++) {
            for (int x = 0; x < 5; x++) {
                m.store16(m.base() + 16 * y + 2 * x, 10 * y + x);
            }
        }
        Region map = g.allocateCopy("map", TensorMap.encode(m.base(), 1, List.of(5L, 3L), List.of(16L),
                List.of(4, 2), steps, 0));
        mapAt[0] = map.base();
        return g;
    }

    private static int[] halves(byte[] b) {
        int[] v = new int[b.length / 2];
        for (int i = 0; i < v.length; i++) {
            v[i] = b[2 * i] & 0xff | (b[2 * i + 1] & 0xff) << 8;
        }
        return v;
    }

    @Test
    void aBoxIsDenseWithZerosOutOfBounds() {
        long[] at = new long[1];
        GlobalMemory g = memory(List.of(1, 1), at);
        TensorMap map = TensorMap.read(g, at[0]);
        assertEquals(16, map.boxBytes());
        assertArrayEquals(new int[] {2, 3, 4, 0, 12, 13, 14, 0}, halves(map.load(g, new int[] {2, 0})));
        assertArrayEquals(new int[] {0, 0, 20, 21, 0, 0, 0, 0}, halves(map.load(g, new int[] {-2, 2})));
    }

    @Test
    void elementStridesTakeEveryOtherElement() {
        long[] at = new long[1];
        GlobalMemory g = memory(List.of(2, 1), at);
        TensorMap map = TensorMap.read(g, at[0]);
        assertEquals(8, map.boxBytes());
        assertArrayEquals(new int[] {0, 2, 10, 12}, halves(map.load(g, new int[] {0, 0})));
    }

    @Test
    void aStoreSkipsOutOfBoundsElements() {
        long[] at = new long[1];
        GlobalMemory g = memory(List.of(1, 1), at);
        TensorMap map = TensorMap.read(g, at[0]);
        byte[] box = new byte[16];
        for (int i = 0; i < 8; i++) {
            box[2 * i] = (byte) (100 + i);
        }
        map.store(g, new int[] {3, 2}, box);
        assertArrayEquals(new int[] {20, 21, 22, 100, 101}, halves(load(g, map.address() + 32, 10)));
        assertEquals(10, g.load(map.address() + 16, 2), "row 1 is outside the box");
    }

    private static byte[] load(GlobalMemory g, long at, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) g.load(at + i, 1);
        }
        return b;
    }

    @Test
    void unmodelledModesAndBadFieldsAreRefusedByName() {
        long[] at = new long[1];
        GlobalMemory g = memory(List.of(1, 1), at);
        g.store(at[0] + 0x6b, 1, 2);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> TensorMap.read(g, at[0]));
        assertTrue(e.getMessage().contains("swizzle"), e.getMessage());
        g.store(at[0] + 0x6b, 1, 0);
        g.store(at[0] + 0x6a, 1, 1);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TensorMap.read(g, at[0])).getMessage()
                .contains("interleave"));
        g.store(at[0] + 0x6a, 1, 0);
        g.store(at[0] + 0x6d, 1, 1); // NaN fill of u16 elements: the driver takes it for floating types only
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TensorMap.read(g, at[0])).getMessage()
                .contains("integer data type"));
        g.store(at[0] + 0x6d, 1, 0);
        g.store(at[0] + 0x68, 1, 6);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> TensorMap.read(g, at[0])).getMessage()
                .contains("rank 6"));
    }

    /** NaN fill: the out-of-bounds elements of an f16 box load as 0x7fff, the ones inside as they are. */
    @Test
    void nanFillGivesOutOfBoundsElementsTheCanonicalNan() {
        long[] at = new long[1];
        GlobalMemory g = memory(List.of(1, 1), at);
        g.store(at[0] + 0x69, 1, 6);
        g.store(at[0] + 0x6d, 1, 1);
        TensorMap map = TensorMap.read(g, at[0]);
        assertArrayEquals(new int[] {2, 3, 4, 0x7fff, 12, 13, 14, 0x7fff}, halves(map.load(g, new int[] {2, 0})));
    }

    @Test
    void rankThreeBoxesWalkTheOuterDimensionLast() {
        GlobalMemory g = new GlobalMemory();
        Region m = g.allocate("cube", 2 * 2 * 16);
        for (int z = 0; z < 2; z++) {
            for (int y = 0; y < 2; y++) {
                for (int x = 0; x < 4; x++) {
                    m.store32(m.base() + 32 * z + 16 * y + 4 * x, 100 * z + 10 * y + x);
                }
            }
        }
        Region map = g.allocateCopy("map", TensorMap.encode(m.base(), 3, List.of(4L, 2L, 2L), List.of(16L, 32L),
                List.of(1, 2, 2), List.of(1, 1, 1), 0));
        byte[] box = TensorMap.read(g, map.base()).load(g, new int[] {3, 0, 0});
        int[] v = new int[4];
        for (int i = 0; i < 4; i++) {
            v[i] = box[4 * i] & 0xff;
        }
        assertArrayEquals(new int[] {3, 13, 103, 113}, v);
    }

    /**
     * 128-byte swizzle: a box of 8 rows of 64 u16 (128 bytes each) at a 1024-byte aligned shared address puts row r's
     * 16-byte chunk c at chunk c ^ r of its row; 64-byte swizzle (rows of 32 u16) chunk c of row r at c ^ (r / 2 % 4)
     * (the pattern XORs the chunk bits [5:4] with the address bits [8:7]); storing undoes it.
     */
    @Test
    void swizzledBoxesMoveSixteenByteChunksAsTheAddressBitsSay() {
        GlobalMemory g = new GlobalMemory();
        Region m = g.allocate("matrix", 8 * 128);
        for (int i = 0; i < 8 * 64; i++) {
            m.store16(m.base() + 2 * i, i);
        }
        for (int swizzle : new int[] {3, 2}) {
            int rowElems = swizzle == 3 ? 64 : 32;
            int rows = 8 * 64 / rowElems;
            Region map = g.allocateCopy("map" + swizzle, TensorMap.encode(m.base(), 1, List.of((long) rowElems,
                    (long) rows), List.of(2L * rowElems), List.of(rowElems, rows), List.of(1, 1), swizzle));
            TensorMap t = TensorMap.read(g, map.base());
            byte[] dense = t.load(g, new int[] {0, 0});
            int[] shared = halves(t.toShared(dense, 2048));
            for (int i = 0; i < 8 * 64; i++) {
                int at = 2 * i; // byte offset in the dense box; the pattern's row is bits [9:7] of the address
                int chunk = at >> 4 & (swizzle == 3 ? 7 : 3);
                int moved = at & ~(swizzle == 3 ? 0x70 : 0x30) | (chunk ^ (at >> 7 & (swizzle == 3 ? 7 : 3))) << 4;
                assertEquals(i, shared[moved / 2], "swizzle " + swizzle + ", element " + i);
            }
            assertArrayEquals(dense, t.fromShared(t.toShared(dense, 2048), 2048));
            assertTrue(assertThrows(IllegalArgumentException.class, () -> t.toShared(dense, 2048 + 64)).getMessage()
                    .contains("128-byte aligned"));
        }
    }
}
