package org.jptxas.simulator.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Device global memory: a set of allocations (kernel buffers and module {@code .global} variables) at fixed device
 * addresses, with unmapped guard gaps between them so that running off the end of a buffer faults instead of
 * silently touching its neighbour. Any access outside an allocation is a {@link MemoryAccessException}.
 */
public final class GlobalMemory {
    /** Device addresses start here, well away from 0 so null-pointer dereferences fault. */
    public static final long BASE = 0x7f00_0000_0000L;
    /** Unmapped bytes between allocations. */
    public static final long GUARD = 0x1_0000L;
    /** Every allocation is aligned to this (cudaMalloc's 256-byte guarantee). */
    public static final long ALIGNMENT = 256;

    private final List<Region> regions = new ArrayList<>();
    private long next = BASE;
    private Region last;

    /** Allocates {@code bytes} zeroed bytes (a zero-byte request still gets a distinct address). */
    public Region allocate(String name, long bytes) {
        if (bytes > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException("allocation too large: " + bytes + " bytes");
        }
        Region r = new Region(name, AddressSpace.GLOBAL, next, (int) bytes);
        regions.add(r);
        next = (next + Math.max(bytes, 1) + GUARD + ALIGNMENT - 1) & -ALIGNMENT;
        return r;
    }

    /** Allocates a region holding a copy of {@code contents} (as {@link #allocate} followed by a copy, without zeroing first). */
    public Region allocateCopy(String name, byte[] contents) {
        Region r = new Region(name, AddressSpace.GLOBAL, next, contents.clone());
        regions.add(r);
        next = (next + Math.max(contents.length, 1) + GUARD + ALIGNMENT - 1) & -ALIGNMENT;
        return r;
    }

    /** The allocations in address order (a live, unmodifiable view). */
    public List<Region> regionsView() {
        return java.util.Collections.unmodifiableList(regions);
    }

    public List<Region> regions() {
        return List.copyOf(regions);
    }

    public Optional<Region> find(long address, int size) {
        return Optional.ofNullable(lookup(address, size));
    }

    /** The allocation holding the range, or null. */
    private Region lookup(long address, int size) {
        Region l = last;
        if (l != null && l.contains(address, size)) {
            return l;
        }
        // Regions are sorted by base: binary search for the last region starting at or below the address.
        int lo = 0, hi = regions.size() - 1, found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (regions.get(mid).base() <= address) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found >= 0 && regions.get(found).contains(address, size)) {
            last = regions.get(found);
            return last;
        }
        return null;
    }

    /**
     * The allocation holding {@code [address, address + size)}.
     *
     * @throws MemoryAccessException when no allocation holds it
     */
    public Region region(long address, int size) {
        Region r = lookup(address, size);
        if (r == null) {
            throw new MemoryAccessException(AddressSpace.GLOBAL, address, size, "out of bounds (no allocation there)");
        }
        return r;
    }

    public long load(long address, int size) {
        return region(address, size).load(address, size);
    }

    public void store(long address, int size, long value) {
        region(address, size).store(address, size, value);
    }
}
