package org.jptxas.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Operand-reuse flag combinations ptxas was not seen to write, for the decoder. Bits [125:122] hold one reuse flag
 * per source operand and nvdisasm prints each set flag as {@code .reuse} after its operand ({@code |R4|.reuse} after
 * an absolute value); the learned tables hold only the combinations ptxas happened to emit
 * ({@code IMAD.HI.U32 R10, R11.reuse, R41, RZ} and {@code IMAD.HI.U32 R10, R11, R41.reuse, RZ}, but not both, and
 * none on composed forms such as FFMA.FTZ). A learned form of the dispatch key with exactly one flag is the evidence
 * that ties an operand field to its flag bit; a word whose flags no form explains decodes as the flag-free word's
 * form with {@code .reuse} after each flagged operand, when every set flag has such evidence and its operand is in
 * the form (an operand field no form of the key shows flagged takes the flag the SM's other keys of the same operand
 * layout show for it).
 * Code generation never uses these forms: it keeps to the combinations ptxas was seen to write.
 */
final class ReuseCombinations {
    private static final int FIRST_BIT = 122 - 64;
    static final long REUSE_HI = 0xfL << FIRST_BIT;
    private static final String REUSE = ".reuse";

    /** One flag's evidence: the operand field (its slot's kind and bits) and the flag's bit in the high word. */
    private record Flag(String field, long bit) {}

    /** Per key, the flags its learned forms evidence. */
    private final List<Flag>[] flags;
    /** (form, flag bits) -> the form with those flags, or a form-less marker when it cannot have them. */
    private final Map<List<Object>, SassForm[]> made = new ConcurrentHashMap<>();

    @SuppressWarnings("unchecked")
    ReuseCombinations(SassForm[][] byKey) {
        flags = new List[byKey.length];
        for (int k = 0; k < byKey.length; k++) {
            List<Flag> found = new ArrayList<>();
            for (SassForm f : byKey[k]) {
                Flag flag = evidence(f);
                if (flag != null && !found.contains(flag)) {
                    found.add(flag);
                }
            }
            flags[k] = found.isEmpty() ? List.of() : List.copyOf(found);
        }
        // fields without evidence in their own key take the flag the SM's keys of the same operand layout agree on:
        // bits [11:9] and 91 of the key say which operand is a register, an immediate, a constant or a uniform
        // register, and with it which flag an operand field has (Rc at [71:64] is the third source of FFMA R, R, R, R
        // but the second of FFMA R, R, imm, R). Keys of one layout can still tie a field to different bits (b at
        // [39:32] has bit 123 on IADD3 R, R, R, R and PRMT but bit 124 on FADD R, R, R and DSETP): the forms with
        // the same register fields decide first, the whole layout only where they have no evidence; a field keys
        // tie to different bits is left out
        Map<List<Object>, Map<String, Long>> bySignature = new HashMap<>();
        Map<List<Object>, Map<String, Long>> byLayout = new HashMap<>();
        for (int k = 0; k < byKey.length; k++) {
            for (SassForm f : byKey[k]) {
                Flag flag = evidence(f);
                if (flag != null) {
                    vote(bySignature, List.of(layout(k), registerFields(f)), flag);
                    vote(byLayout, List.of(layout(k)), flag);
                }
            }
        }
        this.sameRegisters = agreed(bySignature);
        this.sameLayout = agreed(byLayout);
    }

    /** Marks a field two keys of one group tie to different bits. */
    private static final long CONFLICT = -1L;

    private static void vote(Map<List<Object>, Map<String, Long>> groups, List<Object> group, Flag flag) {
        groups.computeIfAbsent(group, x -> new TreeMap<>())
                .merge(flag.field(), flag.bit(), (had, now) -> had.equals(now) ? had : CONFLICT);
    }

    private static Map<List<Object>, List<Flag>> agreed(Map<List<Object>, Map<String, Long>> groups) {
        Map<List<Object>, List<Flag>> out = new HashMap<>();
        groups.forEach((group, fields) -> {
            List<Flag> agreed = new ArrayList<>();
            fields.forEach((field, bit) -> {
                if (bit != CONFLICT) {
                    agreed.add(new Flag(field, bit));
                }
            });
            out.put(group, List.copyOf(agreed));
        });
        return Map.copyOf(out);
    }

    /** A form's register operand fields, in slot order: with the key's layout, which operands the flags count. */
    private static List<String> registerFields(SassForm f) {
        List<String> out = new ArrayList<>();
        for (SassSlot s : f.slots) {
            if (s instanceof SassSlot.Field fd && fd.kind() == SlotKind.GPR) {
                out.add(describe(fd));
            }
        }
        return List.copyOf(out);
    }

    /** The operand layout a dispatch key names: bits [11:9] of the opcode and bit 91. */
    private static int layout(int key) {
        return key >> 9;
    }

    /** Per operand layout and register fields, the flags its forms agree on. */
    private final Map<List<Object>, List<Flag>> sameRegisters;
    /** Per operand layout, the flags its keys agree on, for fields neither the key nor its register fields show. */
    private final Map<List<Object>, List<Flag>> sameLayout;

    /**
     * {@code plain} (a form that decodes the word without its flags) with {@code .reuse} after each operand whose
     * flag is set in {@code reuse}; null when a set flag has no evidence or its operand is not in the form.
     */
    SassForm with(SassForm plain, long reuse) {
        List<Flag> known = new ArrayList<>(flags[plain.key]);
        List<Flag> fallback = new ArrayList<>(
                sameRegisters.getOrDefault(List.of(layout(plain.key), registerFields(plain)), List.of()));
        fallback.addAll(sameLayout.getOrDefault(List.of(layout(plain.key)), List.of()));
        for (Flag f : fallback) {
            if (known.stream().noneMatch(k -> k.field().equals(f.field()))) {
                known.add(f);
            }
        }
        if (known.isEmpty() || (plain.maskHi & REUSE_HI) != REUSE_HI || (plain.bitsHi & REUSE_HI) != 0
                || plain.skeleton.contains(REUSE)) {
            return null;
        }
        return made.computeIfAbsent(List.of(plain, reuse), x -> new SassForm[] {make(plain, reuse, known)})[0];
    }

    private static SassForm make(SassForm f, long reuse, List<Flag> known) {
        String[] p = f.pieces.clone();
        for (long rest = reuse; rest != 0; rest &= rest - 1) {
            long bit = Long.lowestOneBit(rest);
            int at = -1;
            for (Flag flag : known) {
                if (flag.bit() != bit) {
                    continue;
                }
                for (int i = 0; i < f.slots.length && at < 0; i++) {
                    if (f.slots[i] instanceof SassSlot.Field fd && describe(fd).equals(flag.field())) {
                        at = i + 1;
                    }
                }
            }
            if (at < 0) {
                return null;
            }
            // after the operand's closing decorations (|R4|.reuse), before its separator and before a register
            // suffix, as nvdisasm prints HADD2.F32 R24, -RZ, R27.reuse.H1_H1 and IMMA R12, R16.reuse.ROW, R6.COL
            int cut = 0;
            while (cut < p[at].length() && p[at].charAt(cut) == '|') {
                cut++;
            }
            if (p[at].matches("^\\.\\w+\\|.*")) {
                return null; // a suffix inside an absolute value (|R4.H1|): where nvdisasm puts .reuse is unproven
            }
            p[at] = p[at].substring(0, cut) + REUSE + p[at].substring(cut);
        }
        try {
            return new SassForm(f.key, f.mnemonic, List.of(p), List.of(f.slots), f.maskLo, f.maskHi, f.bitsLo,
                    f.bitsHi | reuse, f.exclusions());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** The flag a form learned with exactly one {@code .reuse} (right after a register) and one flag bit shows. */
    private static Flag evidence(SassForm f) {
        long set = f.bitsHi & REUSE_HI;
        if ((f.maskHi & REUSE_HI) != REUSE_HI || Long.bitCount(set) != 1) {
            return null;
        }
        Flag found = null;
        for (int i = 1; i < f.pieces.length; i++) {
            int at = f.pieces[i].indexOf(REUSE);
            if (at < 0) {
                continue;
            }
            if (found != null || at != 0 || f.pieces[i].indexOf(REUSE, at + 1) >= 0
                    || !(f.slots[i - 1] instanceof SassSlot.Field fd) || fd.kind() != SlotKind.GPR) {
                return null;
            }
            found = new Flag(describe(fd), set);
        }
        return found;
    }

    private static String describe(SassSlot.Field fd) {
        return fd.kind() + " " + fd.field() + " " + fd.shift();
    }
}
