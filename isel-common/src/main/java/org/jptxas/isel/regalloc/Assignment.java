package org.jptxas.isel.regalloc;

import java.util.Arrays;
import java.util.BitSet;
import java.util.EnumMap;
import java.util.Map;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * Virtual register to physical register (first component), per file; plus the virtual registers that hold a value
 * on entry to the function (incoming ABI registers), which the verifier treats as defined there.
 */
public final class Assignment {
    private final Map<RegFile, int[]> regs = new EnumMap<>(RegFile.class);
    private final Map<RegFile, BitSet> definedAtEntry = new EnumMap<>(RegFile.class);

    public Assignment() {
        for (RegFile f : RegFile.values()) {
            regs.put(f, new int[0]);
            definedAtEntry.put(f, new BitSet());
        }
    }

    public void assign(Reg virtual, int physical) {
        int[] a = regs.get(virtual.file());
        if (virtual.index() >= a.length) {
            int old = a.length;
            a = Arrays.copyOf(a, Math.max(virtual.index() + 1, old * 2));
            Arrays.fill(a, old, a.length, -1);
            regs.put(virtual.file(), a);
        }
        a[virtual.index()] = physical;
    }

    public void markDefinedAtEntry(Reg virtual) {
        definedAtEntry.get(virtual.file()).set(virtual.index());
    }

    public boolean definedAtEntry(Reg virtual) {
        return definedAtEntry.get(virtual.file()).get(virtual.index());
    }

    /**
     * The physical register of a virtual one (same tuple size; a part is the one physical register of its
     * component), or null if unassigned.
     */
    public Reg physical(Reg virtual) {
        int p = physicalIndex(virtual);
        if (p < 0) {
            return null;
        }
        return virtual.isPart() ? Reg.phys(virtual.file(), p + virtual.part(), 1)
                : Reg.phys(virtual.file(), p, virtual.comps());
    }

    /** The physical index of a virtual register's first component, or -1. */
    public int physicalIndex(Reg virtual) {
        int[] a = regs.get(virtual.file());
        return virtual.index() < a.length ? a[virtual.index()] : -1;
    }
}
