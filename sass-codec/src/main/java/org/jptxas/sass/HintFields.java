package org.jptxas.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.jptxas.tables.sass.SassModifierClass;

/**
 * The lazy modifier classes ({@link SassModifierClass#lazy()}): hint fields read from each word as it is decoded
 * instead of composed onto every form. LD/ST/LDG/STG's eviction priority ({@code .EF .EL .LU .EU .NA}, [86:84]) and
 * L2 prefetch size ({@code .LTC64B .LTC128B .LTC256B}, [69:68]) cross the 7 sizes and 16 memory orders already
 * composed; as composed forms they would be several hundred thousand per SM. nvdisasm prints them as a run of tokens
 * right after the mnemonic's {@code .E} (after the opcode where there is none), eviction priority first:
 * {@code LDG.E.EL.LTC128B.U8.STRONG.GPU}. Their values change nothing else in the text.
 *
 * <p>A word no form explains is decoded with its hint fields at their no-token values; the form that explains it
 * gets the word's tokens inserted and the fields' bits fixed (one derived form per form and values, kept). The
 * assembler does the reverse: it drops the hint tokens from the text, assembles the rest and sets the fields.
 */
final class HintFields {
    /** One lazy class: its mnemonic and its enums in print order, with each enum's no-token value. */
    private record HintClass(String mnemonic, List<ModifierComposer.Group> groups, long[] defaults) {}

    private final Map<Integer, List<HintClass>> byKey = new HashMap<>();
    /** Derived forms by base form and hint values. */
    private final Map<SassForm, Map<String, SassForm>> derived = new ConcurrentHashMap<>();

    HintFields(List<SassModifierClass> lazy) {
        for (SassModifierClass c : lazy) {
            List<ModifierComposer.Group> groups = c.groups().stream().map(ModifierComposer.Group::of).toList();
            long[] defaults = new long[groups.size()];
            boolean complete = true;
            for (int g = 0; g < groups.size(); g++) {
                Long d = groups.get(g).byName().get("");
                complete &= d != null && !groups.get(g).ofOperand();
                defaults[g] = d == null ? 0 : d;
            }
            if (complete) {
                byKey.computeIfAbsent(c.key(), k -> new ArrayList<>()).add(new HintClass(c.mnemonic(), groups, defaults));
            }
        }
    }

    boolean isEmpty() {
        return byKey.isEmpty();
    }

    /**
     * The word decoded with its hint fields as tokens, or null: no lazy class of its key holds a value other than
     * the no-token one, or {@code decoder} does not know the word with those fields cleared.
     */
    SassInstruction.Known decode(long lo, long hi, int key, BiFunction<Long, Long, SassInstruction> decoder) {
        for (HintClass c : byKey.getOrDefault(key, List.of())) {
            long[] v = new long[c.groups().size()];
            long[] cleared = {lo, hi};
            boolean any = false;
            for (int g = 0; g < v.length; g++) {
                ModifierComposer.Group group = c.groups().get(g);
                v[g] = group.field().extract(lo, hi);
                if (!group.byValue().containsKey(v[g])) {
                    any = false;
                    break;
                }
                any |= v[g] != c.defaults()[g];
                set(group, c.defaults()[g], cleared);
            }
            if (!any || !(decoder.apply(cleared[0], cleared[1]) instanceof SassInstruction.Known k)
                    || !ModifierComposer.base(k.form().mnemonic).equals(c.mnemonic())) {
                continue;
            }
            SassForm f = derive(k.form(), c, v);
            if (f != null) {
                return new SassInstruction.Known(f, k.values(), Control.fromHi(hi & ~f.maskHi), lo, hi);
            }
        }
        return null;
    }

    /**
     * {@code text}'s hint tokens, if its mnemonic holds any of a lazy class's right after {@code .E} (or the
     * opcode): the text without them and a function setting the fields in the words the rest assembles to (null if
     * those words' key has no such class).
     */
    Stripped strip(String text) {
        int start = text.startsWith("@") ? text.indexOf(' ') + 1 : 0;
        int end = text.indexOf(' ', start);
        String mnemonic = end < 0 ? text.substring(start) : text.substring(start, end);
        List<String> tokens = List.of(mnemonic.split("\\."));
        if (tokens.isEmpty()) { // a mnemonic of dots only: not an instruction these classes know
            return null;
        }
        for (List<HintClass> classes : byKey.values()) {
            for (HintClass c : classes) {
                if (!tokens.get(0).equals(c.mnemonic())) {
                    continue;
                }
                int at = tokens.size() > 1 && tokens.get(1).equals("E") ? 2 : 1;
                long[] v = c.defaults().clone();
                int g = 0;
                int t = at;
                while (t < tokens.size() && g < v.length) {
                    Long value = c.groups().get(g).byName().get(tokens.get(t));
                    if (value != null && !tokens.get(t).isEmpty()) {
                        v[g] = value;
                        t++;
                    }
                    g++;
                }
                if (t == at) {
                    continue;
                }
                List<String> rest = new ArrayList<>(tokens.subList(0, at));
                rest.addAll(tokens.subList(t, tokens.size()));
                String plain = text.substring(0, start) + String.join(".", rest) + (end < 0 ? "" : text.substring(end));
                return new Stripped(plain, c.mnemonic(), v);
            }
        }
        return null;
    }

    /** Text without its hint tokens, and the hint values the tokens named. */
    record Stripped(String text, String mnemonic, long[] values) {}

    /** Sets a stripped text's hint values in {@code words} (assembled from its text), if their key has the class. */
    boolean apply(Stripped s, long[] words, int key) {
        for (HintClass c : byKey.getOrDefault(key, List.of())) {
            if (!c.mnemonic().equals(s.mnemonic()) || c.groups().size() != s.values().length) {
                continue;
            }
            for (int g = 0; g < s.values().length; g++) {
                if (c.groups().get(g).field().extract(words[0], words[1]) != c.defaults()[g]) {
                    return false;
                }
            }
            for (int g = 0; g < s.values().length; g++) {
                set(c.groups().get(g), s.values()[g], words);
            }
            return true;
        }
        return false;
    }

    /** {@code f} with the hint values {@code v} as tokens and fixed bits; null if f does not fix the fields. */
    private SassForm derive(SassForm f, HintClass c, long[] v) {
        StringBuilder id = new StringBuilder();
        for (long x : v) {
            id.append(x).append(',');
        }
        return derived.computeIfAbsent(f, x -> new ConcurrentHashMap<>()).computeIfAbsent(id.toString(), x -> {
            long[] bits = {f.bitsLo, f.bitsHi};
            List<String> names = new ArrayList<>();
            for (int g = 0; g < v.length; g++) {
                long[] m = c.groups().get(g).field().mask();
                if ((f.maskLo & m[0]) != m[0] || (f.maskHi & m[1]) != m[1]) {
                    return null;
                }
                set(c.groups().get(g), v[g], bits);
                String name = c.groups().get(g).byValue().get(v[g]);
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
            List<String> tokens = new ArrayList<>(List.of(f.mnemonic.split("\\.")));
            int at = tokens.size() > 1 && tokens.get(1).equals("E") ? 2 : 1;
            tokens.addAll(at, names);
            String mnemonic = String.join(".", tokens);
            int mp = f.guardSlots();
            String piece = f.pieces[mp];
            int start = piece.indexOf(f.mnemonic);
            if (start < 0) {
                return null;
            }
            List<String> pieces = new ArrayList<>(List.of(f.pieces));
            pieces.set(mp, piece.substring(0, start) + mnemonic + piece.substring(start + f.mnemonic.length()));
            return new SassForm(f.key, mnemonic, pieces, List.of(f.slots), f.maskLo, f.maskHi, bits[0], bits[1],
                    f.exclusions());
        });
    }

    private static void set(ModifierComposer.Group g, long value, long[] words) {
        long[] m = g.field().mask();
        words[0] &= ~m[0];
        words[1] &= ~m[1];
        g.field().insert(value, words);
    }
}
