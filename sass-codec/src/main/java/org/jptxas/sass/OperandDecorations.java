package org.jptxas.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.tables.sass.SassDecorationClass;
import org.jptxas.tables.sass.SassOperandDecoration;

/**
 * Operand negation and absolute value read from each word ({@link SassDecorationClass}): ptxas writes {@code -x},
 * {@code |x|} and {@code -|x|} on few of the operand kinds an instruction takes, so no learned or composed form
 * explains {@code DADD R8, |R36|, c[0x2][0x8]}; nvdisasm reads the same bits whatever the operand's kind.
 *
 * <p>A word no form explains is decoded with its decoration bits cleared; the form that explains it gets the
 * operands decorated and the bits fixed (one derived form per form and bits, kept). Only register, uniform register
 * and constant-bank operands are decorated (a sign before an immediate is part of its number). Listings assemble
 * the reverse way: the text without the decorations, then the bits, kept only if the words decode to the text. Code
 * generation never comes here.
 */
final class OperandDecorations {
    /** An operand as nvdisasm prints it: sign, bar, the operand, bar, {@code .reuse}. */
    private static final Pattern DECORATED =
            Pattern.compile("(-?)(\\|?)((?:U?R(?:\\d+|Z))|(?:c\\[0x[0-9a-f]+\\]\\[[^\\]]+\\]))(\\|?)((?:\\.reuse)?)");

    private final Map<Integer, List<SassDecorationClass>> byKey = new HashMap<>();
    /** Derived forms by base form and decoration bits. */
    private final Map<SassForm, Map<Bits, SassForm>> derived = new ConcurrentHashMap<>();

    /** The decoration bits a derived form fixes at one. */
    private record Bits(long lo, long hi) {}

    OperandDecorations(List<SassDecorationClass> classes) {
        for (SassDecorationClass c : classes) {
            byKey.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(c);
        }
    }

    boolean isEmpty() {
        return byKey.isEmpty();
    }

    /** The decoration classes of dispatch key {@code key} (tests build words from them). */
    List<SassDecorationClass> ofKey(int key) {
        return byKey.getOrDefault(key, List.of());
    }

    /**
     * The word decoded with its decoration bits as operand decorations, or null: no class of its key has a bit set,
     * or {@code decoder} knows the word with none of their subsets cleared (all first, then fewer: a form may spell
     * the rest), or the form that knows it does not fix the cleared ones.
     */
    SassInstruction.Known decode(long lo, long hi, int key, BiFunction<Long, Long, SassInstruction> decoder) {
        for (SassDecorationClass c : byKey.getOrDefault(key, List.of())) {
            List<Integer> set = new ArrayList<>();
            for (SassOperandDecoration d : c.decorations()) {
                if (isSet(lo, hi, d.bit())) {
                    set.add(d.bit());
                }
            }
            if (set.isEmpty() || set.size() > 8) {
                continue;
            }
            for (int subset : subsets(set.size(), false)) {
                long clearLo = 0, clearHi = 0;
                for (int b = 0; b < set.size(); b++) {
                    if (isSet(subset, b)) {
                        int bit = set.get(b);
                        clearLo |= bit < 64 ? 1L << bit : 0;
                        clearHi |= bit < 64 ? 0 : 1L << (bit - 64);
                    }
                }
                if (!(decoder.apply(lo & ~clearLo, hi & ~clearHi) instanceof SassInstruction.Known k)
                        || !ModifierComposer.base(k.form().mnemonic).equals(c.mnemonic())) {
                    continue;
                }
                SassForm f = derive(k.form(), c, clearLo, clearHi);
                if (f != null) {
                    return new SassInstruction.Known(f, k.values(), Control.fromHi(hi & ~f.maskHi), lo, hi);
                }
            }
        }
        return null;
    }

    /** {@code f} with the bits {@code setLo}/{@code setHi} fixed and their operands decorated; null if it cannot be. */
    private SassForm derive(SassForm f, SassDecorationClass c, long setLo, long setHi) {
        if ((f.maskLo & setLo) != setLo || (f.maskHi & setHi) != setHi) {
            return null; // the bits are operand fields or free in this form: not a decoration here
        }
        return derived.computeIfAbsent(f, x -> new ConcurrentHashMap<>()).computeIfAbsent(new Bits(setLo, setHi), x -> {
            List<SassOperands.Operand> operands = f.operands().operands();
            if (operands.size() != c.operands()) {
                return null;
            }
            boolean[] neg = new boolean[operands.size()];
            boolean[] abs = new boolean[operands.size()];
            for (SassOperandDecoration d : c.decorations()) {
                if (isSet(setLo, setHi, d.bit())) {
                    int i = operands.size() - 1 - d.operand();
                    neg[i] |= d.token().equals("-");
                    abs[i] |= d.token().equals("|");
                }
            }
            String[] pieces = decorated(f, neg, abs);
            if (pieces == null) {
                return null;
            }
            return new SassForm(f.key, f.mnemonic, List.of(pieces), List.of(f.slots), f.maskLo, f.maskHi,
                    f.bitsLo | setLo, f.bitsHi | setHi, f.exclusions(), f.decodeOnly);
        });
    }

    /** Where a slot stands in a form's text joined from its pieces ({@link #decorated}). */
    private static final char SLOT = '\u0001';

    /**
     * {@code f}'s pieces with operand {@code i} negated where {@code neg[i]} and absolute where {@code abs[i]}; null
     * if such an operand is not a register, uniform register ({@code RZ}/{@code URZ} too) or constant-bank operand,
     * or already shows what is added.
     */
    private static String[] decorated(SassForm f, boolean[] neg, boolean[] abs) {
        StringBuilder text = new StringBuilder(String.join(String.valueOf(SLOT), f.pieces));
        int mp = f.guardSlots();
        int at = mp; // the mnemonic piece starts after the guard piece and its slot
        for (int k = 0; k < mp; k++) {
            at += f.pieces[k].length();
        }
        int blank = text.indexOf(" ", text.indexOf(f.mnemonic, at));
        if (blank < 0) {
            return null;
        }
        // operand spans at top-level commas, right to left so earlier spans stay valid
        List<int[]> spans = new ArrayList<>();
        int depth = 0;
        int from = blank + 1;
        for (int p = from; p <= text.length(); p++) {
            char ch = p < text.length() ? text.charAt(p) : ',';
            depth += ch == '[' || ch == '{' || ch == '(' ? 1 : ch == ']' || ch == '}' || ch == ')' ? -1 : 0;
            if (ch == ',' && depth == 0) {
                spans.add(new int[] {from, p});
                from = p + 1;
            }
        }
        if (spans.size() != neg.length) {
            return null;
        }
        for (int i = neg.length - 1; i >= 0; i--) {
            if (!neg[i] && !abs[i]) {
                continue;
            }
            int start = spans.get(i)[0];
            while (start < spans.get(i)[1] && text.charAt(start) == ' ') {
                start++;
            }
            String operand = text.substring(start, spans.get(i)[1]);
            int m = 0;
            while (m < operand.length() && (operand.charAt(m) == '-' || operand.charAt(m) == '|')) {
                m++;
            }
            String marks = operand.substring(0, m);
            String rest = operand.substring(m);
            int end = operandEnd(f, text, start + m, rest);
            if (end < 0 || neg[i] && marks.contains("-") || abs[i] && marks.contains("|")) {
                return null;
            }
            boolean n = neg[i] || marks.contains("-");
            boolean a = abs[i] || marks.contains("|");
            String core = rest.substring(0, end);
            String after = rest.substring(end);
            if (marks.contains("|")) {
                if (!after.startsWith("|")) {
                    return null;
                }
                after = after.substring(1);
            }
            String replaced = (n ? "-" : "") + (a ? "|" : "") + core + (a ? "|" : "") + after;
            text.replace(start, spans.get(i)[1], replaced);
        }
        String[] pieces = text.toString().split(String.valueOf(SLOT), -1);
        return pieces.length == f.pieces.length ? pieces : null;
    }

    /**
     * The length of the operand at {@code rest} (a register or uniform register slot, a literal one the learned form
     * fixes, {@code RZ}/{@code URZ}, or
     * {@code c[..][..]}), before any bar and suffix; -1 for other operands (an immediate's sign is its number's).
     */
    private static int operandEnd(SassForm f, StringBuilder text, int at, String rest) {
        if (rest.startsWith("RZ") || rest.startsWith("URZ")) {
            int n = rest.startsWith("RZ") ? 2 : 3;
            return rest.length() == n || !Character.isLetterOrDigit(rest.charAt(n)) ? n : -1;
        }
        if (rest.startsWith(String.valueOf(SLOT))) {
            int slot = 0;
            for (int p = 0; p < at; p++) {
                slot += text.charAt(p) == SLOT ? 1 : 0;
            }
            boolean register = f.slots[slot] instanceof SassSlot.Field r
                    ? r.kind() == SlotKind.GPR || r.kind() == SlotKind.UGPR
                    : f.slots[slot] instanceof SassSlot.Literal l && l.text().matches("U?R(\\d+|Z)");
            return register ? 1 : -1;
        }
        if (rest.startsWith("c[")) {
            int close = rest.indexOf("][");
            close = close < 0 ? -1 : rest.indexOf(']', close + 2);
            return close < 0 ? -1 : close + 1;
        }
        return -1;
    }

    /**
     * Listing text with decorated operands: the text without some of its decorations (one, then two, ...: the rest
     * may be spelled by a form), assembled by {@code assembler}, then their bits set; null unless the words decode to
     * {@code text} ({@code decoder}).
     */
    long[] assemble(String text, java.util.function.Function<String, long[]> assembler,
                    java.util.function.Function<long[], String> decoder) {
        int start = text.startsWith("@") ? text.indexOf(' ') + 1 : 0;
        int blank = text.indexOf(' ', start);
        if (blank < 0) {
            return null;
        }
        String head = text.substring(0, blank + 1);
        String[] operands = text.substring(blank + 1).split(", ", -1);
        List<int[]> found = new ArrayList<>(); // {operand, 0 for '-' or 1 for '|'}
        Matcher[] parts = new Matcher[operands.length];
        for (int i = 0; i < operands.length; i++) {
            Matcher m = DECORATED.matcher(operands[i]);
            if (m.matches() && m.group(2).length() == m.group(4).length()) {
                parts[i] = m;
                if (!m.group(1).isEmpty()) {
                    found.add(new int[] {i, 0});
                }
                if (!m.group(2).isEmpty()) {
                    found.add(new int[] {i, 1});
                }
            }
        }
        if (found.isEmpty() || found.size() > 8) {
            return null;
        }
        for (int subset : subsets(found.size(), true)) {
            boolean[][] drop = new boolean[operands.length][2];
            for (int d = 0; d < found.size(); d++) {
                if (isSet(subset, d)) {
                    drop[found.get(d)[0]][found.get(d)[1]] = true;
                }
            }
            String[] plain = operands.clone();
            for (int i = 0; i < operands.length; i++) {
                if (drop[i][0] || drop[i][1]) {
                    Matcher m = parts[i];
                    boolean neg = !m.group(1).isEmpty() && !drop[i][0];
                    boolean abs = !m.group(2).isEmpty() && !drop[i][1];
                    plain[i] = (neg ? "-" : "") + (abs ? "|" : "") + m.group(3) + (abs ? "|" : "") + m.group(5);
                }
            }
            long[] words = assembler.apply(head + String.join(", ", plain));
            if (words == null) {
                continue;
            }
            for (SassDecorationClass c : byKey.getOrDefault(SassIsa.keyOf(words[0], words[1]), List.of())) {
                if (c.operands() != operands.length) {
                    continue;
                }
                long[] out = words.clone();
                boolean all = true;
                for (int i = 0; i < operands.length && all; i++) {
                    for (int t = 0; t < 2 && all; t++) {
                        if (drop[i][t]) {
                            Integer bit = bit(c, operands.length - 1 - i, t == 0 ? "-" : "|");
                            all = bit != null;
                            if (all) {
                                out[bit < 64 ? 0 : 1] |= 1L << (bit & 63);
                            }
                        }
                    }
                }
                if (all && text.equals(decoder.apply(out))) {
                    return out;
                }
            }
        }
        return null;
    }

    /** Whether bit {@code bit} (0..63) of {@code word} is one. */
    private static boolean isSet(long word, int bit) {
        return (word >>> bit & 1) != 0;
    }

    /** Whether bit {@code bit} (0..127) of the 128-bit word {@code lo}/{@code hi} is one. */
    private static boolean isSet(long lo, long hi, int bit) {
        return bit < 64 ? isSet(lo, bit) : isSet(hi, bit - 64);
    }

    /** The nonempty subsets of {@code n} items as bit masks, fewest items first or most items first. */
    private static List<Integer> subsets(int n, boolean fewestFirst) {
        List<Integer> out = new ArrayList<>();
        for (int s = 1; s < 1 << n; s++) {
            out.add(s);
        }
        out.sort(java.util.Comparator.comparingInt(s -> fewestFirst ? Integer.bitCount(s) : -Integer.bitCount(s)));
        return out;
    }

    private static Integer bit(SassDecorationClass c, int fromEnd, String token) {
        for (SassOperandDecoration d : c.decorations()) {
            if (d.operand() == fromEnd && d.token().equals(token)) {
                return d.bit();
            }
        }
        return null;
    }
}
