package org.jptxas.sass.probe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.jptxas.sass.BitField;
import org.jptxas.sass.SassForm;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.oracle.RawOracle;
import org.jptxas.tables.sass.SassModifierClass;
import org.jptxas.tables.sass.SassModifierGroup;

/**
 * Mnemonic enums ptxas showed on one operand layout applied to the others ({@code probe confirm --widen}). The learner
 * finds an enum only where two forms of one key differ in it, so a key ptxas wrote once (FSETP with a uniform register,
 * DSETP's uniform forms on sm_90) has no class, and a one-bit enum keeps only the values ptxas paired.
 * <ol>
 *   <li>Layouts: a dispatch key of a mnemonic with learned forms receives each mnemonic enum of the mnemonic's other
 *   keys whose bits every learned form of the key fixes, outside the key's own enums, with a value the enum names by
 *   a token the form prints (or by none). Nothing is assumed about the new spellings: the confirmation that follows
 *   reads every composed one with nvdisasm and refuses those it does not read as jptxas prints them.</li>
 *   <li>Values: a one-bit mnemonic enum with two named values (FSETP's AND/OR at [74]) takes the bit above it when
 *   the class leaves that bit to no other enum; the upper values nvdisasm reads as one other token in that place
 *   (XOR at [75:74] = 2), all else unchanged, join the enum.</li>
 * </ol>
 */
final class MnemonicWidening {
    private MnemonicWidening() {}

    private record Trial(int classIndex, int groupIndex, int bit, int above, SassForm anchor, int firstWord) {}

    static List<SassModifierClass> widen(String sm, SassIsa isa, List<SassModifierClass> classes,
            Predicate<SassModifierClass> picked, Predicate<String> pickedMnemonic, List<String> log) {
        List<SassModifierClass> out = layouts(isa, classes, picked, pickedMnemonic, log);
        List<Trial> trials = new ArrayList<>();
        List<long[]> words = new ArrayList<>();
        for (int ci = 0; ci < out.size(); ci++) {
            SassModifierClass c = out.get(ci);
            if (!picked.test(c)) {
                continue;
            }
            long[] used = used(c.groups());
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
                SassForm anchor = anchor(isa, c, g, bit, above);
                if (anchor == null) {
                    continue;
                }
                trials.add(new Trial(ci, gi, bit, above, anchor, words.size()));
                long[] example = ModifierLearner.example(anchor, 0);
                example[1] |= 0x000fe2L << 40; // ptxas's usual control bits
                for (int v = 0; v < 4; v++) {
                    long[] w = example.clone();
                    put(w, bit, (v & 1) != 0);
                    put(w, above, (v & 2) != 0);
                    words.add(w);
                }
            }
        }
        RawOracle.Read[] read = RawOracle.read(words, sm.equals("sm_90") ? "sm_90a" : sm);
        int widened = 0;
        for (Trial t : trials) {
            SassModifierClass c = out.get(t.classIndex());
            SassModifierGroup g = c.groups().get(t.groupIndex());
            Map<String, String> values = values(read, t.firstWord(), g);
            if (values == null) {
                continue;
            }
            List<SassModifierGroup> groups = new ArrayList<>(c.groups());
            groups.set(t.groupIndex(), new SassModifierGroup(new BitField(new int[] {t.bit(), t.above()}).text(),
                    values, g.operand(), g.side()));
            out.set(t.classIndex(), new SassModifierClass(c.mnemonic(), c.key(), groups, c.refused()));
            widened++;
            log.add(sm + ": " + c.mnemonic() + "/" + c.key() + " " + g.values().keySet() + " at " + g.bits() + " -> "
                    + values + " (" + t.anchor().skeleton() + ")");
        }
        log.add(sm + ": " + trials.size() + " one-bit mnemonic enums tried, " + widened + " widened");
        return out;
    }

    /** Step 1: the mnemonic enums of a mnemonic's other keys, on each key whose learned forms leave their bits fixed. */
    private static List<SassModifierClass> layouts(SassIsa isa, List<SassModifierClass> classes,
            Predicate<SassModifierClass> picked, Predicate<String> pickedMnemonic, List<String> log) {
        Map<String, List<SassForm>> byClass = new LinkedHashMap<>();
        for (SassForm f : isa.forms()) {
            if (!f.decodeOnly()) {
                byClass.computeIfAbsent(ModifierLearner.base(f.mnemonic()) + "/" + f.key(), k -> new ArrayList<>())
                        .add(f);
            }
        }
        List<SassModifierClass> out = new ArrayList<>(classes);
        Map<String, Integer> index = new LinkedHashMap<>();
        for (int i = 0; i < out.size(); i++) {
            index.putIfAbsent(out.get(i).mnemonic() + "/" + out.get(i).key(), i);
        }
        int gained = 0;
        for (Map.Entry<String, List<SassForm>> e : byClass.entrySet()) {
            String mnemonic = e.getKey().substring(0, e.getKey().indexOf('/'));
            int key = e.getValue().get(0).key();
            Integer at = index.get(e.getKey());
            if (at == null ? !pickedMnemonic.test(mnemonic) : !picked.test(out.get(at))) {
                continue;
            }
            List<SassModifierGroup> ownGroups = at == null ? List.of() : out.get(at).groups();
            List<String> ownRefused = at == null ? List.of() : out.get(at).refused();
            List<SassModifierClass> donors = classes.stream()
                    .filter(c -> c.mnemonic().equals(mnemonic) && c.key() != key && !c.lazy() && !c.trailing())
                    .sorted(Comparator.comparingInt((SassModifierClass c) -> -c.groups().size())).toList();
            List<SassModifierGroup> groups = new ArrayList<>(ownGroups);
            long[] used = used(ownGroups);
            List<String> taken = new ArrayList<>();
            for (SassModifierClass d : donors) {
                for (SassModifierGroup g : d.groups()) {
                    long[] m = BitField.parse(g.bits()).mask();
                    if (!"mnemonic".equals(g.side()) || (m[0] & used[0]) != 0 || (m[1] & used[1]) != 0
                            || !fits(e.getValue(), g)) {
                        continue;
                    }
                    groups.add(g);
                    used[0] |= m[0];
                    used[1] |= m[1];
                    taken.add(g.bits() + " " + g.values().keySet());
                }
            }
            if (taken.isEmpty()) {
                continue;
            }
            SassModifierClass c = new SassModifierClass(mnemonic, key, groups, ownRefused);
            if (at == null) {
                out.add(c);
            } else {
                out.set(at, c);
            }
            gained++;
            log.add("  " + mnemonic + "/" + key + " takes " + taken);
        }
        log.add("layouts: " + gained + " keys take enums of their mnemonic's other keys");
        return out;
    }

    /** Whether every form fixes the enum's bits at a value it names by one of the form's tokens, or by none. */
    private static boolean fits(List<SassForm> forms, SassModifierGroup g) {
        BitField field = BitField.parse(g.bits());
        long[] m = field.mask();
        for (SassForm f : forms) {
            if ((f.maskLo() & m[0]) != m[0] || (f.maskHi() & m[1]) != m[1]) {
                return false;
            }
            String name = name(g, field.extract(f.bitsLo(), f.bitsHi()));
            if (name == null || !(name.isEmpty() || ModifierLearner.tokens(f.mnemonic()).contains(name))) {
                return false;
            }
        }
        return true;
    }

    private static long[] used(List<SassModifierGroup> groups) {
        long[] used = new long[2];
        for (SassModifierGroup g : groups) {
            long[] m = BitField.parse(g.bits()).mask();
            used[0] |= m[0];
            used[1] |= m[1];
        }
        return used;
    }

    /** A learned form of the class fixing both bits, the upper clear, that prints one of the enum's tokens. */
    private static SassForm anchor(SassIsa isa, SassModifierClass c, SassModifierGroup g, int bit, int above) {
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
     * The widened enum's values: the two known ones where nvdisasm prints them, and each upper value nvdisasm prints
     * with one other token in their place and nothing else changed; null if none is new or a known one reads
     * otherwise.
     */
    private static Map<String, String> values(RawOracle.Read[] read, int first, SassModifierGroup g) {
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

    private static boolean has(long[] m, int bit) {
        return ((bit < 64 ? m[0] >>> bit : m[1] >>> (bit - 64)) & 1) != 0;
    }

    private static void put(long[] w, int bit, boolean on) {
        long mask = 1L << (bit & 63);
        int i = bit < 64 ? 0 : 1;
        w[i] = on ? w[i] | mask : w[i] & ~mask;
    }
}
