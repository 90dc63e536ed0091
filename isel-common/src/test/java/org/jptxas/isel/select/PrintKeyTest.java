package org.jptxas.isel.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.junit.jupiter.api.Test;

/** The print memo's key: equal exactly when guard, mnemonic, operands, descriptor and labels are. */
class PrintKeyTest {
    private static PrintKey key(Guard g, String mnemonic, Src... ops) {
        return new PrintKey(g, mnemonic, List.of(ops), -1, List.of());
    }

    private static Src r(int i) {
        return Src.of(Reg.phys(RegFile.R, i, 1));
    }

    @Test
    void equalInstructionsMakeEqualKeys() {
        PrintKey a = key(Guard.ALWAYS, "IADD3", r(1), r(2), Src.of(Imm.ofInt(4)), Src.of(Reg.RZ));
        PrintKey b = key(new Guard(Reg.PT, false), new String("IADD3"), r(1), r(2), Src.of(Imm.ofInt(4)), Src.of(Reg.RZ));
        assertEquals(a, b);
        assertEquals(a.hashCode(), b.hashCode());
        PrintKey c = key(null, "MOV", r(1), Src.of(CBank.of(0, 0x160)));
        assertEquals(c, key(null, "MOV", r(1), Src.of(CBank.of(0, 0x160))));
    }

    @Test
    void anyDifferenceMakesAnotherKey() {
        PrintKey a = key(Guard.ALWAYS, "IADD3", r(1), r(2), Src.of(Imm.ofInt(4)));
        assertNotEquals(a, key(Guard.ALWAYS, "IADD3", r(1), r(3), Src.of(Imm.ofInt(4))));
        assertNotEquals(a, key(Guard.ALWAYS, "IADD3", r(1), r(2), Src.of(Imm.ofInt(5))));
        assertNotEquals(a, key(Guard.ALWAYS, "IADD3", r(1), r(2), Src.of(Imm.ofInt(4)).negated()));
        assertNotEquals(a, key(new Guard(Reg.phys(RegFile.P, 0, 1), false), "IADD3", r(1), r(2), Src.of(Imm.ofInt(4))));
        assertNotEquals(a, key(new Guard(Reg.PT, true), "IADD3", r(1), r(2), Src.of(Imm.ofInt(4))));
        assertNotEquals(a, key(Guard.ALWAYS, "IADD3.X", r(1), r(2), Src.of(Imm.ofInt(4))));
        assertNotEquals(a, key(Guard.ALWAYS, "IADD3", r(1), r(2), Src.of(Reg.phys(RegFile.UR, 4, 1))));
        assertNotEquals(a, new PrintKey(Guard.ALWAYS, "IADD3", List.of(r(1), r(2), Src.of(Imm.ofInt(4))), 1, List.of()));
        assertNotEquals(a, new PrintKey(Guard.ALWAYS, "IADD3", List.of(r(1), r(2), Src.of(Imm.ofInt(4))), -1,
                List.of(".L_x_1")));
        // an immediate whose bits look like a packed register is still an immediate
        PrintKey reg = key(null, "MOV", r(1), Src.of(Reg.phys(RegFile.R, 2, 2)));
        assertNotEquals(reg, key(null, "MOV", r(1), Src.of(Imm.ofInt(2))));
        assertNotEquals(key(null, "MOV", r(1), Src.of(CBank.of(0, 8))), key(null, "MOV", r(1), Src.of(CBank.of(0, 4))));
    }

    @Test
    void registerOnlyKeysSpreadOverTheHashTable() {
        // a hash table of 2^16 buckets, as the printer's memo grows to, sees the low 16 bits of the spread hash
        java.util.Set<Integer> hashes = new java.util.HashSet<>();
        java.util.Set<Integer> buckets = new java.util.HashSet<>();
        for (int a = 0; a < 32; a++) {
            for (int b = 0; b < 32; b++) {
                for (int c = 0; c < 32; c++) {
                    int h = key(Guard.ALWAYS, "FFMA", r(a), r(b), r(c), r(a + b)).hashCode();
                    hashes.add(h);
                    buckets.add((h ^ h >>> 16) & 0xffff);
                }
            }
        }
        assertTrue(hashes.size() > 32_000, hashes.size() + " distinct hashes of 32768 keys");
        assertTrue(buckets.size() > 20_000, buckets.size() + " buckets of 65536 taken by 32768 keys");
    }
}
