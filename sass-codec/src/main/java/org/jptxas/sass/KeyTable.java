package org.jptxas.sass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The forms of one key grouped by mask: masks are tried most specific first (then by value), and for each mask one
 * hash probe finds the forms whose fixed bits equal the instruction's bits under it. Allocation-free.
 */
final class KeyTable {
    final long[] masksLo, masksHi;
    private final long[] keysLo, keysHi;
    private final int[] keysMask;
    private final Candidate[][] slots;
    private final int cap;

    /**
     * A form and its equally specific rivals (usually none): if a rival also applies, the decode is ambiguous.
     * {@code hideable}: predicate slots that nvdisasm was seen to omit (a sibling form lacks them) - printing
     * {@code PT} there is unproven (nvdisasm omits a PT carry-out of IADD3), so such a decode is refused. For the
     * same reason a rival that would print a hidden PT is no reading of the word and makes no ambiguity
     * ({@code rivalsHideable[r]} are rival r's hideable slots).
     */
    record Candidate(SassForm form, SassForm[] rivals, int[] hideable, int[][] rivalsHideable) {
        /** Whether some rival reads this word without printing a PT nvdisasm hides. */
        boolean rivalApplies(long lo, long hi) {
            for (int r = 0; r < rivals.length; r++) {
                if (rivals[r].appliesTo(lo, hi) && !printsHiddenPt(rivals[r], rivalsHideable[r], lo, hi)) {
                    return true;
                }
            }
            return false;
        }
    }

    /** Whether one of {@code f}'s {@code hideable} predicate slots holds PT in this word. */
    static boolean printsHiddenPt(SassForm f, int[] hideable, long lo, long hi) {
        for (int h : hideable) {
            if (((SassSlot.Field) f.slots[h]).field().extract(lo, hi) == 7) {
                return true;
            }
        }
        return false;
    }

    KeyTable(SassForm[] forms) {
        Map<List<Long>, List<SassForm>> byMask = new HashMap<>();
        for (SassForm f : forms) {
            byMask.computeIfAbsent(List.of(f.maskLo, f.maskHi), k -> new ArrayList<>()).add(f);
        }
        List<List<Long>> masks = new ArrayList<>(byMask.keySet());
        masks.sort(Comparator.comparingInt((List<Long> m) -> -(Long.bitCount(m.get(0)) + Long.bitCount(m.get(1))))
                .thenComparing(m -> m.get(1), Long::compareUnsigned)
                .thenComparing(m -> m.get(0), Long::compareUnsigned));
        masksLo = new long[masks.size()];
        masksHi = new long[masks.size()];
        Map<List<Long>, List<SassForm>> groups = new LinkedHashMap<>();
        for (int k = 0; k < masks.size(); k++) {
            masksLo[k] = masks.get(k).get(0);
            masksHi[k] = masks.get(k).get(1);
            for (SassForm f : byMask.get(masks.get(k))) {
                groups.computeIfAbsent(List.of((long) k, f.bitsLo, f.bitsHi), x -> new ArrayList<>()).add(f);
            }
        }
        Map<SassForm, int[]> hideable = new HashMap<>();
        cap = Integer.highestOneBit(Math.max(1, groups.size()) * 4);
        keysLo = new long[cap];
        keysHi = new long[cap];
        keysMask = new int[cap];
        slots = new Candidate[cap][];
        for (Map.Entry<List<Long>, List<SassForm>> g : groups.entrySet()) {
            int k = (int) (long) g.getKey().get(0);
            long kl = g.getKey().get(1), kh = g.getKey().get(2);
            int i = slot(k, kl, kh);
            while (slots[i] != null) {
                i = (i + 1) & (cap - 1);
            }
            keysMask[i] = k;
            keysLo[i] = kl;
            keysHi[i] = kh;
            slots[i] = g.getValue().stream()
                    .map(f -> {
                        SassForm[] rivals = Arrays.stream(forms).filter(f::rivals).toArray(SassForm[]::new);
                        Function<SassForm, int[]> hide = x -> hideable.computeIfAbsent(x,
                                y -> hideablePredicates(y, forms));
                        return new Candidate(f, rivals, hide.apply(f),
                                Arrays.stream(rivals).map(hide).toArray(int[][]::new));
                    })
                    .toArray(Candidate[]::new);
        }
    }

    static int[] hideablePredicates(SassForm f, SassForm[] forms) {
        Map<String, List<SassForm>> siblings = new HashMap<>();
        for (SassForm g : forms) {
            if (g.mnemonic.equals(f.mnemonic)) {
                siblings.computeIfAbsent(operandShape(g.skeleton), x -> new ArrayList<>()).add(g);
            }
        }
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < f.slots.length; i++) {
            // Only a predicate that prints as PT can be hidden: one this form spells negated prints !PT, which
            // nvdisasm shows (IADD3.X's !PT carry-in), whatever a sibling without the operand fixes there.
            if (f.slots[i] instanceof SassSlot.Field fd && (fd.kind() == SlotKind.PRED || fd.kind() == SlotKind.UPRED)
                    && i >= f.guardSlots() && !f.pieces[i].endsWith("!")) {
                String without = skeletonWithout(f.pieces, i);
                // Evidence that nvdisasm hides PT there: a sibling without the operand fixes its field to PT.
                long[] m = fd.field().mask();
                long[] pt = new long[2];
                fd.field().insert(7, pt);
                int slot = i;
                if (without != null && siblings.getOrDefault(operandShape(without), List.of()).stream().anyMatch(
                        g -> (g.maskLo & m[0]) == m[0] && (g.maskHi & m[1]) == m[1]
                                && (g.bitsLo & m[0]) == pt[0] && (g.bitsHi & m[1]) == pt[1]
                                && twinWithout(f, slot, g))) {
                    out.add(i);
                }
            }
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    /**
     * Whether {@code g}'s operands are {@code f}'s without slot {@code i}, guards aside, kind for kind: evidence
     * must come from the same instruction layout (LOP3.LUT P's trailing PT and the R-result form's !PT have one
     * shape but are different operands; nvdisasm prints the former).
     */
    private static boolean twinWithout(SassForm f, int i, SassForm g) {
        List<SassSlot> a = new ArrayList<>(Arrays.asList(f.slots));
        a.remove(i);
        a.subList(0, f.guardSlots()).clear();
        List<SassSlot> b = new ArrayList<>(Arrays.asList(g.slots));
        b.subList(0, g.guardSlots()).clear();
        if (a.size() != b.size()) {
            return false;
        }
        for (int k = 0; k < a.size(); k++) {
            // a literal operand (one value the learner saw) stands for its field in the other form
            if (a.get(k) instanceof SassSlot.Field x && b.get(k) instanceof SassSlot.Field y && x.kind() != y.kind()) {
                return false;
            }
        }
        return true;
    }

    /**
     * A skeleton without its guard and operand decorations (reuse flags, negation, inversion, absolute value):
     * whether nvdisasm hides a PT operand does not depend on the guard, so an unguarded sibling is evidence for a
     * guarded form (the generalized {@code @P0 IADD3.X R10, PT, ~R13, ...} of ptxas's unguarded words).
     */
    private static String operandShape(String skeleton) {
        String shape = skeleton.replace(".reuse", "").replaceAll("[-~!|]", "");
        return shape.startsWith("@{} ") ? shape.substring(4) : shape;
    }

    /** The skeleton with operand {@code i} and one adjacent ", " removed, or null if it has no separator. */
    private static String skeletonWithout(String[] pieces, int i) {
        String before = pieces[i];
        String after = pieces[i + 1];
        String merged;
        if (after.startsWith(", ")) {
            merged = before + after.substring(2);
        } else if (before.endsWith(", ")) {
            merged = before.substring(0, before.length() - 2) + after;
        } else {
            return null;
        }
        List<String> p = new ArrayList<>(Arrays.asList(pieces));
        p.set(i, merged);
        p.remove(i + 1);
        return String.join("{}", p);
    }

    private int slot(int k, long kl, long kh) {
        long h = (kl + k) * 0x9E3779B97F4A7C15L ^ kh * 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ (h >>> 29)) & (cap - 1);
    }

    /** The forms fixing bits {@code lo}/{@code hi} under mask {@code k}, or null. */
    Candidate[] find(int k, long lo, long hi) {
        long kl = lo & masksLo[k], kh = hi & masksHi[k];
        int i = slot(k, kl, kh);
        while (slots[i] != null) {
            if (keysMask[i] == k && keysLo[i] == kl && keysHi[i] == kh) {
                return slots[i];
            }
            i = (i + 1) & (cap - 1);
        }
        return null;
    }
}
