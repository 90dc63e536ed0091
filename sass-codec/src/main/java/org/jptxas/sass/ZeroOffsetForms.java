package org.jptxas.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A form that prints an address offset after a register ({@code [R27+0x80]},
 * {@code [R164.64+0x80]}, {@code [R2+UR4+0x10]}) has a twin that fixes the offset at zero and leaves it out
 * ({@code [R27]}), because nvdisasm never prints {@code +0x0} there. The learner made such twins only for the
 * combinations ptxas happened to emit with a zero offset; {@link #withUnprintedZeroOffsets} makes the rest, and
 * likewise the twins of {@code [R+UR]} addresses for RZ, which nvdisasm prints as {@code [UR]}, and of absolute
 * addresses {@code [0x0]} for {@code [RZ]}.
 */
final class ZeroOffsetForms {
    private ZeroOffsetForms() {
    }

    private static String encoding(SassForm f) {
        return f.key + ":" + f.maskHi + ":" + f.maskLo + ":" + f.bitsHi + ":" + f.bitsLo;
    }

    /**
     * {@code forms} and, for each form printing address offsets after a register, its twins with one or more of those
     * offsets fixed at zero and unprinted (those no form already has). A twin is decode-only when its form is.
     */
    static List<SassForm> withUnprintedZeroOffsets(List<SassForm> forms) {
        Set<String> have = new HashSet<>();
        for (SassForm f : forms) {
            have.add(identity(f));
        }
        List<SassForm> out = new ArrayList<>(forms);
        for (SassForm f : forms) {
            SassForm uniformOnly = withoutZeroRegister(f);
            if (uniformOnly != null && have.add(identity(uniformOnly))) {
                out.add(uniformOnly);
            }
        }
        Map<Integer, List<SassForm>> byKey = new HashMap<>();
        for (SassForm f : forms) {
            byKey.computeIfAbsent(f.key, k -> new ArrayList<>()).add(f);
        }
        for (SassForm f : forms) {
            SassForm rz = zeroAddressAsRz(f, byKey.get(f.key));
            if (rz != null && have.add(identity(rz))) {
                out.add(rz);
            }
        }
        for (SassForm f : List.copyOf(out)) {
            List<Integer> offsets = new ArrayList<>();
            for (int i = 1; i < f.slots.length; i++) {
                if (isAddressOffset(f, i)) {
                    offsets.add(i);
                }
            }
            for (int subset = 1; subset < 1 << offsets.size(); subset++) {
                SassForm twin = f;
                // drop from the last so the earlier slot numbers stay valid
                for (int b = offsets.size() - 1; b >= 0 && twin != null; b--) {
                    if ((subset >> b & 1) != 0) {
                        twin = withoutOffset(twin, offsets.get(b));
                    }
                }
                if (twin != null && have.add(identity(twin))) {
                    out.add(twin);
                }
            }
        }
        return out;
    }

    /**
     * {@code f}'s twin for an address {@code [R+UR...]} whose register is RZ, which nvdisasm leaves out
     * ({@code [UR7]}, {@code [UR4+0x10]}); null when {@code f} prints no such address.
     */
    private static SassForm withoutZeroRegister(SassForm f) {
        for (int j = 0; j + 1 < f.slots.length; j++) {
            if (f.slots[j] instanceof SassSlot.Field reg && reg.kind() == SlotKind.GPR && f.repeats[j] < 0
                    && f.pieces[j].endsWith("[") && !f.pieces[j].endsWith("][") && !f.pieces[j].endsWith("c[")
                    && f.pieces[j + 1].equals("+") && f.slots[j + 1] instanceof SassSlot.Field ur
                    && ur.kind() == SlotKind.UGPR) {
                for (int e = 0; e < f.excludeSlots.length; e++) {
                    for (int slot : f.excludeSlots[e]) {
                        if (slot >= j) {
                            return null;
                        }
                    }
                }
                List<String> pieces = new ArrayList<>(List.of(f.pieces));
                pieces.remove(j + 1);
                List<SassSlot> slots = new ArrayList<>(List.of(f.slots));
                slots.remove(j);
                long[] m = reg.field().mask();
                long[] rz = new long[2];
                reg.field().insert(SlotKind.GPR.zeroValue(), rz);
                return new SassForm(f.key, f.mnemonic, pieces, slots, f.maskLo | m[0], f.maskHi | m[1],
                        f.bitsLo | rz[0], f.bitsHi | rz[1], f.exclusions(), f.decodeOnly);
            }
        }
        return null;
    }

    /**
     * {@code f}'s twin for an absolute address {@code [0x0]} whose unprinted register is RZ: nvdisasm prints
     * {@code [RZ]} there. {@code f} prints {@code [off]} with a register field fixed at RZ, the field a sibling of its
     * key prints first in that bracket ({@code [R+off]}); null otherwise.
     */
    private static SassForm zeroAddressAsRz(SassForm f, List<SassForm> siblings) {
        for (int i = 0; i < f.slots.length; i++) {
            if (!(f.slots[i] instanceof SassSlot.Field off) || off.kind() != SlotKind.HEX && off.kind() != SlotKind.SHEX
                    || !f.pieces[i].endsWith("[") || f.pieces[i].endsWith("][") || f.pieces[i].endsWith("c[")
                    || !f.pieces[i + 1].startsWith("]") || f.repeats[i] >= 0) {
                continue;
            }
            for (SassForm g : siblings) {
                // the same operand in a sibling with or without a guard
                int j = i - f.guardSlots() + g.guardSlots();
                if (g == f || !g.mnemonic.equals(f.mnemonic) || j < 0 || j >= g.slots.length
                        || !g.pieces[j].equals(f.pieces[i])
                        || !(g.slots[j] instanceof SassSlot.Field reg) || reg.kind() != SlotKind.GPR) {
                    continue;
                }
                long[] m = reg.field().mask();
                long[] rz = new long[2];
                reg.field().insert(SlotKind.GPR.zeroValue(), rz);
                if ((f.maskLo & m[0]) != m[0] || (f.maskHi & m[1]) != m[1] || (f.bitsLo & m[0]) != rz[0]
                        || (f.bitsHi & m[1]) != rz[1]) {
                    continue;
                }
                for (int[] slots : f.excludeSlots) {
                    for (int slot : slots) {
                        if (slot == i) {
                            return null;
                        }
                    }
                }
                List<SassSlot> slots = new ArrayList<>(List.of(f.slots));
                slots.set(i, new SassSlot.Literal("RZ"));
                long[] o = off.field().mask();
                return new SassForm(f.key, f.mnemonic, List.of(f.pieces), slots, f.maskLo | o[0], f.maskHi | o[1],
                        f.bitsLo, f.bitsHi, f.exclusions(), f.decodeOnly);
            }
        }
        return null;
    }

    /** Slot {@code i} is a signed offset printed right after a register (or its {@code .64}) and before {@code ]}. */
    private static boolean isAddressOffset(SassForm f, int i) {
        return f.slots[i] instanceof SassSlot.Field off && off.kind() == SlotKind.SHEX_PLUS
                && f.slots[i - 1] instanceof SassSlot.Field reg
                && (reg.kind() == SlotKind.GPR || reg.kind() == SlotKind.UGPR)
                && (f.pieces[i].isEmpty() || f.pieces[i].equals(".64")) && f.pieces[i + 1].startsWith("]")
                && f.repeats[i] < 0;
    }

    /** {@code f} with offset slot {@code i} fixed at zero and not printed; null when an exclusion names the slot. */
    private static SassForm withoutOffset(SassForm f, int i) {
        List<String> exclusions = new ArrayList<>();
        for (int e = 0; e < f.excludeSlots.length; e++) {
            StringBuilder sb = new StringBuilder();
            for (int t = 0; t < f.excludeSlots[e].length; t++) {
                int slot = f.excludeSlots[e][t];
                if (slot == i) {
                    return null;
                }
                sb.append(t > 0 ? "&" : "").append(slot > i ? slot - 1 : slot).append("=0x")
                        .append(Long.toHexString(f.excludeValues[e][t]));
            }
            exclusions.add(sb.toString());
        }
        List<String> pieces = new ArrayList<>(List.of(f.pieces));
        pieces.set(i, pieces.get(i) + pieces.remove(i + 1));
        List<SassSlot> slots = new ArrayList<>(List.of(f.slots));
        long[] m = ((SassSlot.Field) slots.remove(i)).field().mask();
        return new SassForm(f.key, f.mnemonic, pieces, slots, f.maskLo | m[0], f.maskHi | m[1], f.bitsLo, f.bitsHi,
                exclusions, f.decodeOnly);
    }

    private static String identity(SassForm f) {
        return encoding(f) + ":" + f.mnemonic + ":" + f.skeleton + ":" + List.of(f.slots);
    }
}
