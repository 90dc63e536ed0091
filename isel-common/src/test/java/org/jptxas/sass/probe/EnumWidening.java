package org.jptxas.sass.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.sass.BitField;
import org.jptxas.sass.SassForm;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassSlot;
import org.jptxas.sass.SlotKind;
import org.jptxas.sass.oracle.RawOracle;
import org.jptxas.tables.sass.SassModifierClass;
import org.jptxas.tables.sass.SassModifierGroup;

/**
 * Enum values ptxas never wrote beside the bits of values it did. Absolute values next to negations ptxas showed. An operand enum learned from ptxas's forms holds only the values
 * ptxas wrote ({@code ""}, {@code "-"}), though the operand's absolute-value bit sits beside the negation bit (first
 * source [73:72], second [63:62], third [75:74] on the float classes). For each such enum a neighbouring bit the
 * class leaves to no other enum is tried on an example word of a learned form: the enum is widened only when nvdisasm
 * reads the four settings of the two bits as {@code X}, {@code -X}, {@code |X|} and {@code -|X|} with nothing else
 * changed. Likewise a one-bit mnemonic enum (FSETP's AND/OR at [74] where ptxas used no XOR) takes the bit above it
 * when the class leaves it to no other enum: the values nvdisasm reads as one other token in that place (XOR at
 * [75:74] = 2) join the enum. Which composed spellings nvdisasm then accepts is for the confirmation that follows.
 */
final class EnumWidening {
    private EnumWidening() {}

    private record Trial(int classIndex, int groupIndex, int neg, int abs, SassForm anchor, int firstWord) {}

    static List<SassModifierClass> widen(String sm, SassIsa isa, List<SassModifierClass> classes, List<String> log) {
        List<Trial> trials = new ArrayList<>();
        List<long[]> words = new ArrayList<>();
        for (int ci = 0; ci < classes.size(); ci++) {
            SassModifierClass c = classes.get(ci);
            if (c.lazy() || c.trailing()) {
                continue;
            }
            long[] used = new long[2];
            c.groups().forEach(g -> or(used, BitField.parse(g.bits()).mask()));
            for (int gi = 0; gi < c.groups().size(); gi++) {
                SassModifierGroup g = c.groups().get(gi);
                if (!"prefix".equals(g.side()) || !g.values().keySet().equals(java.util.Set.of("", "-"))
                        || Long.decode(g.values().get("")) != 0) {
                    continue;
                }
                BitField field = BitField.parse(g.bits());
                long negValue = Long.decode(g.values().get("-"));
                if (Long.bitCount(negValue) != 1) {
                    continue;
                }
                int neg = field.positions()[Long.numberOfTrailingZeros(negValue)];
                List<Integer> partners = new ArrayList<>();
                for (int p : field.positions()) {
                    if (p != neg) {
                        partners.add(p); // a two-bit enum whose other value ptxas never wrote
                    }
                }
                if (partners.isEmpty()) {
                    for (int p : new int[] {neg + 1, neg - 1}) {
                        if (p >= 0 && p < 128 && !has(used, p)) {
                            partners.add(p);
                        }
                    }
                }
                for (int abs : partners) {
                    SassForm anchor = anchor(isa, c, g, neg, abs);
                    if (anchor == null) {
                        continue;
                    }
                    trials.add(new Trial(ci, gi, neg, abs, anchor, words.size()));
                    long[] example = ModifierLearner.example(anchor, 0);
                    example[1] |= 0x000fe2L << 40; // ptxas's usual control bits
                    for (int v = 0; v < 4; v++) {
                        long[] w = example.clone();
                        put(w, neg, (v & 1) != 0);
                        put(w, abs, (v & 2) != 0);
                        words.add(w);
                    }
                }
            }
        }
        List<Trial> tokenTrials = new ArrayList<>();
        for (int ci = 0; ci < classes.size(); ci++) {
            SassModifierClass c = classes.get(ci);
            if (c.lazy() || c.trailing()) {
                continue;
            }
            long[] used = new long[2];
            c.groups().forEach(g -> or(used, BitField.parse(g.bits()).mask()));
            for (int gi = 0; gi < c.groups().size(); gi++) {
                SassModifierGroup g = c.groups().get(gi);
                BitField field = BitField.parse(g.bits());
                if (!"mnemonic".equals(g.side()) || field.width() != 1 || g.values().size() != 2
                        || g.values().containsKey("")) {
                    continue;
                }
                int bit = field.positions()[0], above = bit + 1;
                if (above >= 128 || has(used, above)) {
                    continue;
                }
                SassForm anchor = tokenAnchor(isa, c, g, bit, above);
                if (anchor == null) {
                    continue;
                }
                tokenTrials.add(new Trial(ci, gi, bit, above, anchor, words.size()));
                long[] example = ModifierLearner.example(anchor, 0);
                example[1] |= 0x000fe2L << 40;
                for (int v = 0; v < 4; v++) {
                    long[] w = example.clone();
                    put(w, bit, (v & 1) != 0);
                    put(w, above, (v & 2) != 0);
                    words.add(w);
                }
            }
        }
        RawOracle.Read[] read = RawOracle.read(words, sm.equals("sm_90") ? "sm_90a" : sm);
        List<SassModifierClass> out = new ArrayList<>(classes);
        int tokens = 0;
        for (Trial t : tokenTrials) {
            SassModifierClass c = out.get(t.classIndex());
            SassModifierGroup g = c.groups().get(t.groupIndex());
            Map<String, String> values = tokenValues(read, t.firstWord(), g);
            if (values == null) {
                continue;
            }
            List<SassModifierGroup> groups = new ArrayList<>(c.groups());
            groups.set(t.groupIndex(), new SassModifierGroup(new BitField(new int[] {t.neg(), t.abs()}).text(),
                    values, g.operand(), g.side()));
            out.set(t.classIndex(), new SassModifierClass(c.mnemonic(), c.key(), groups, c.refused()));
            tokens++;
            log.add(sm + ": " + c.mnemonic() + "/" + c.key() + " " + g.values().keySet() + " at " + g.bits() + " -> "
                    + values + " (" + t.anchor().skeleton() + ")");
        }
        log.add(sm + ": " + tokenTrials.size() + " one-bit mnemonic enums tried, " + tokens + " widened");
        java.util.Set<String> widened = new java.util.HashSet<>();
        for (Trial t : trials) {
            String key = t.classIndex() + "/" + t.groupIndex();
            if (widened.contains(key)) {
                continue;
            }
            SassModifierClass c = out.get(t.classIndex());
            SassModifierGroup g = c.groups().get(t.groupIndex());
            if (!reads(read, t.firstWord(), g.operand())) {
                continue;
            }
            int lo = Math.min(t.neg(), t.abs()), hi = Math.max(t.neg(), t.abs());
            long negValue = t.neg() == lo ? 1 : 2, absValue = t.abs() == lo ? 1 : 2;
            Map<String, String> values = new LinkedHashMap<>();
            values.put("", "0x0");
            values.put(negValue == 1 ? "-" : "|", "0x1");
            values.put(negValue == 1 ? "|" : "-", "0x2");
            values.put("-|", "0x3");
            String bits = new BitField(new int[] {lo, hi}).text();
            List<SassModifierGroup> groups = new ArrayList<>(c.groups());
            groups.set(t.groupIndex(), new SassModifierGroup(bits, values, g.operand(), g.side()));
            out.set(t.classIndex(), new SassModifierClass(c.mnemonic(), c.key(), groups, c.refused()));
            widened.add(key);
            log.add(sm + ": " + c.mnemonic() + "/" + c.key() + " operand " + g.operand() + ": absolute value at bit "
                    + t.abs() + " beside the negation at " + t.neg() + " (" + t.anchor().skeleton() + ")");
        }
        log.add(sm + ": " + trials.size() + " trials, " + widened.size() + " operand enums widened by an absolute value");
        return out;
    }

    /** A learned form of the class that fixes both bits clear and prints the enum's operand as a plain register. */
    private static SassForm anchor(SassIsa isa, SassModifierClass c, SassModifierGroup g, int neg, int abs) {
        for (SassForm f : isa.forms()) {
            if (f.key() != c.key() || f.decodeOnly() || !ModifierLearner.base(f.mnemonic()).equals(c.mnemonic())
                    || f.skeleton().contains(".reuse") || f.pieces().get(0).startsWith("@")) {
                continue;
            }
            long[] m = {f.maskLo(), f.maskHi()};
            long[] b = {f.bitsLo(), f.bitsHi()};
            if (!has(m, neg) || !has(m, abs) || has(b, neg) || has(b, abs)) {
                continue;
            }
            int slot = g.operand(); // no guard: operand k is slot k
            if (slot >= f.slots().size() || !(f.slots().get(slot) instanceof SassSlot.Field fd)
                    || (fd.kind() != SlotKind.GPR && fd.kind() != SlotKind.UGPR)) {
                continue;
            }
            String before = f.pieces().get(slot);
            if (before.endsWith("-") || before.endsWith("|") || before.endsWith("!") || before.endsWith("~")) {
                continue;
            }
            return f;
        }
        return null;
    }

    /** A learned form of the class fixing both bits, the upper clear, that prints one of the enum's tokens. */
    private static SassForm tokenAnchor(SassIsa isa, SassModifierClass c, SassModifierGroup g, int bit, int above) {
        for (SassForm f : isa.forms()) {
            if (f.key() != c.key() || f.decodeOnly() || !ModifierLearner.base(f.mnemonic()).equals(c.mnemonic())
                    || f.skeleton().contains(".reuse") || f.pieces().get(0).startsWith("@")) {
                continue;
            }
            long[] m = {f.maskLo(), f.maskHi()};
            long[] b = {f.bitsLo(), f.bitsHi()};
            if (has(m, bit) && has(m, above) && !has(b, above)
                    && ModifierLearner.tokens(f.mnemonic()).contains(has(b, bit) ? name(g, 1) : name(g, 0))) {
                return f;
            }
        }
        return null;
    }

    private static String name(SassModifierGroup g, long value) {
        for (Map.Entry<String, String> e : g.values().entrySet()) {
            if (Long.decode(e.getValue()) == value) {
                return e.getKey();
            }
        }
        return null;
    }

    /**
     * The widened enum's values: the two known ones where nvdisasm prints them, and each upper value nvdisasm
     * prints with one other token in their place and nothing else changed; null if none is new or a known one reads
     * otherwise.
     */
    private static Map<String, String> tokenValues(RawOracle.Read[] read, int first, SassModifierGroup g) {
        String[] texts = new String[4];
        for (int v = 0; v < 4; v++) {
            texts[v] = read[first + v] == null ? null : read[first + v].text();
        }
        String zero = name(g, 0), one = name(g, 1);
        if (texts[0] == null || texts[1] == null
                || !texts[1].equals(swap(texts[0], zero, one)) || !texts[0].equals(swap(texts[1], one, zero))) {
            return null;
        }
        Map<String, String> values = new LinkedHashMap<>();
        values.put(zero, "0x0");
        values.put(one, "0x1");
        for (int v = 2; v < 4; v++) {
            String token = texts[v] == null ? null : replacement(texts[0], zero, texts[v]);
            if (token != null && !values.containsKey(token)) {
                values.put(token, "0x" + v);
            }
        }
        return values.size() > 2 ? values : null;
    }

    /** The text with mnemonic token {@code from} replaced by {@code to}, or null if it has no such token. */
    private static String swap(String text, String from, String to) {
        int sp = text.indexOf(' ', text.startsWith("@") ? text.indexOf(' ') + 1 : 0);
        String head = sp < 0 ? text : text.substring(0, sp);
        String[] t = head.split("\\.", -1);
        for (int i = 1; i < t.length; i++) {
            if (t[i].equals(from)) {
                t[i] = to;
                return String.join(".", t) + (sp < 0 ? "" : text.substring(sp));
            }
        }
        return null;
    }

    /** The one token {@code other} has where {@code base} has {@code token}, all else equal; null otherwise. */
    private static String replacement(String base, String token, String other) {
        int sp = base.indexOf(' ', base.startsWith("@") ? base.indexOf(' ') + 1 : 0);
        int so = other.indexOf(' ', other.startsWith("@") ? other.indexOf(' ') + 1 : 0);
        if (sp < 0 || so < 0 || !base.substring(sp).equals(other.substring(so))) {
            return null;
        }
        String[] a = base.substring(0, sp).split("\\.", -1), b = other.substring(0, so).split("\\.", -1);
        if (a.length != b.length) {
            return null;
        }
        String found = null;
        for (int i = 0; i < a.length; i++) {
            if (!a[i].equals(b[i])) {
                if (found != null || i == 0 || !a[i].equals(token)) {
                    return null;
                }
                found = b[i];
            }
        }
        return found != null && found.matches("[A-Z][A-Z0-9_]*") && !found.contains("INVALID") ? found : null;
    }

    /** Whether the four words read X, -X, |X|, -|X| at operand {@code operand}, all else as the first. */
    private static boolean reads(RawOracle.Read[] read, int first, int operand) {
        for (int v = 0; v < 4; v++) {
            if (read[first + v] == null) {
                return false;
            }
        }
        String plain = read[first].text();
        int sp = plain.indexOf(' ', plain.startsWith("@") ? plain.indexOf(' ') + 1 : 0);
        if (sp < 0) {
            return false;
        }
        String head = plain.substring(0, sp + 1);
        String[] ops = plain.substring(sp + 1).split(", ", -1);
        if (operand >= ops.length) {
            return false;
        }
        String x = ops[operand];
        if (x.isEmpty() || "-|!~".indexOf(x.charAt(0)) >= 0) {
            return false;
        }
        String[] want = {x, "-" + x, "|" + x + "|", "-|" + x + "|"};
        for (int v = 1; v < 4; v++) {
            String[] o = ops.clone();
            o[operand] = want[v];
            if (!read[first + v].text().equals(head + String.join(", ", o))) {
                return false;
            }
        }
        return true;
    }

    private static void or(long[] into, long[] m) {
        into[0] |= m[0];
        into[1] |= m[1];
    }

    private static boolean has(long[] m, int bit) {
        return ((bit < 64 ? m[0] >>> bit : m[1] >>> (bit - 64)) & 1) != 0;
    }

    private static void put(long[] w, int bit, boolean on) {
        long mask = 1L << (bit & 63);
        int i = bit < 64 ? 0 : 1;
        w[i] = on ? w[i] | mask : w[i] & ~mask;
    }
}
