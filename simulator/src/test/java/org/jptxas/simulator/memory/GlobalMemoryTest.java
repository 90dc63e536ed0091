package org.jptxas.simulator.memory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class GlobalMemoryTest {
    @Test
    void allocationsAreAlignedAndSeparatedByUnmappedGuards() {
        GlobalMemory g = new GlobalMemory();
        Region a = g.allocate("a", 100);
        Region b = g.allocate("b", 8);
        assertEquals(0, a.base() % GlobalMemory.ALIGNMENT);
        assertEquals(0, b.base() % GlobalMemory.ALIGNMENT);
        assertTrue(b.base() >= a.end() + GlobalMemory.GUARD);
        g.store(a.base() + 96, 4, 0xdeadbeefL);
        assertEquals(0xdeadbeefL, g.load(a.base() + 96, 4));
        assertEquals(0xefL, g.load(a.base() + 96, 1));
        g.store(b.base(), 8, -2L);
        assertEquals(-2L, g.load(b.base(), 8));
    }

    @Test
    void outOfBoundsAndMisalignedAccessesFaultWithTheAddress() {
        GlobalMemory g = new GlobalMemory();
        Region a = g.allocate("a", 100);
        MemoryAccessException e = assertThrows(MemoryAccessException.class, () -> g.load(a.base() + 100, 4));
        assertEquals(a.base() + 100, e.address());
        assertEquals(AddressSpace.GLOBAL, e.space());
        assertTrue(e.describe().contains("0x" + Long.toHexString(a.base() + 100)), e.describe());
        assertThrows(MemoryAccessException.class, () -> g.load(a.base() + 98, 4)); // straddles the end
        assertThrows(MemoryAccessException.class, () -> g.load(0, 4)); // null
        assertThrows(MemoryAccessException.class, () -> g.store(a.base() + 2, 4, 1)); // misaligned
        assertThrows(MemoryAccessException.class, () -> g.load(a.base() - 8, 8));
    }
}
