package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Operand-reuse flag combinations ptxas was not seen to write, for the decoder. Bits [125:122] hold one reuse flag
 * per source operand and nvdisasm prints each set flag as {@code .reuse} after its operand ({@code |R4|.reuse} after
 * an absolute value); the learned tables hold only the combinations ptxas happened to emit
 * ({@code IMAD.HI.U32 R10, R11.reuse, R41, RZ} and {@code IMAD.HI.U32 R10, R11, R41.reuse, RZ}, but not both, and
 * none on composed forms such as FFMA.FTZ). A learned form of the dispatch key with exactly one flag is the evidence
 * that ties an operand field to its flag bit; a word whose flags no form explains decodes as the flag-free word's
 * form with {@code .reuse} after each flagged operand, when every set flag has such evidence and its operand is in
 * the form (an operand field no form of the key shows flagged takes the flag the other keys of the SM show for it).
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
        // fields without evidence in their own key take the SM's: the flag of an operand field is that of every key
        // whose forms show it (a field two keys tie to different bits is left out)
        Map<String, Long> bits = new java.util.HashMap<>();
        java.util.Set<String> conflicting = new java.util.HashSet<>();
        for (List<Flag> list : flags) {
            for (Flag f : list) {
                Long had = bits.putIfAbsent(f.field(), f.bit());
                if (had != null && had != f.bit()) {
                    conflicting.add(f.field());
                }
            }
        }
        List<Flag> shared = new ArrayList<>();
        bits.forEach((field, bit) -> {
            if (!conflicting.contains(field)) {
                shared.add(new Flag(field, bit));
            }
        });
        this.shared = List.copyOf(shared);
    }

    /** The flags the SM's keys agree on, for fields a key has no evidence of its own for. */
    private final List<Flag> shared;

    /**
     * {@code plain} (a form that decodes the word without its flags) with {@code .reuse} after each operand whose
     * flag is set in {@code reuse}; null when a set flag has no evidence or its operand is not in the form.
     */
    SassForm with(SassForm plain, long reuse) {
        List<Flag> known = new ArrayList<>(flags[plain.key]);
        for (Flag f : shared) {
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
            // after the operand's closing decorations (|R4|.reuse), before its separator
            int cut = 0;
            while (cut < p[at].length() && p[at].charAt(cut) == '|') {
                cut++;
            }
            if (p[at].startsWith(".", cut)) {
                return null; // a register suffix (.64, .H1): where nvdisasm puts .reuse is unproven
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
