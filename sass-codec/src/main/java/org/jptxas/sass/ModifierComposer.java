package org.jptxas.sass;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.tables.sass.SassModifierClass;
import org.jptxas.tables.sass.SassModifierGroup;

/**
 * Forms for modifier combinations ptxas never emitted. A learned form fixes all of its modifier bits; the modifier
 * tables ({@link SassModifierClass}) say which of those bits are independent enums (FSETP's comparison at [79:76],
 * its boolean operation at [75:74], .FTZ at [80]) and how each value prints. For every learned (and generalized)
 * form of a class, each combination of the enums' values is the same form with those bits replaced and the
 * mnemonic's tokens renamed: a token of a changed enum is replaced in place, dropped for the no-token value, or
 * inserted after the nearest present token of an enum that precedes it in print order. Every composed spelling the
 * tables keep was read back by nvdisasm (the probe's {@code modifiers} step records the others as refused).
 * Composed forms no word can reach are dropped by {@link ComposedSpecialCases}.
 */
final class ModifierComposer {
    private ModifierComposer() {}

    /**
     * One enum: its field, names by value / values by name, and for an operand modifier the operand and side.
     * {@code countsCarryOuts}: the operand number counts the carry-out predicates a layout prints after its
     * destination (it was learned on such a layout); otherwise it numbers the operands of the layout without them.
     */
    record Group(BitField field, Map<String, Long> byName, Map<Long, String> byValue, int operand, boolean prefix,
                 boolean countsCarryOuts) {
        boolean ofOperand() {
            return operand >= 0;
        }

        /** This group with {@link #countsCarryOuts} as the forms of its class show it. */
        Group numberedOn(String mnemonic, List<SassForm> forms) {
            if (!ofOperand()) {
                return this;
            }
            boolean plain = false, carrying = false;
            for (SassForm f : forms) {
                if (!base(f.mnemonic).equals(mnemonic)) {
                    continue;
                }
                int mp = f.guardSlots();
                if (showsToken(f, operand + mp)) {
                    plain |= carryOuts(f, mp) == 0;
                    carrying |= carryOuts(f, mp) > 0;
                }
            }
            return new Group(field, byName, byValue, operand, prefix, carrying && !plain);
        }

        /** Whether the form holds a value of this enum that prints a token at {@code slot}. */
        private boolean showsToken(SassForm f, int slot) {
            long[] m = field.mask();
            if (slot >= f.slots.length || (f.maskLo & m[0]) != m[0] || (f.maskHi & m[1]) != m[1]) {
                return false;
            }
            String name = byValue.get(field.extract(f.bitsLo, f.bitsHi));
            if (name == null || name.isEmpty()) {
                return false;
            }
            if (prefix) {
                String text = f.pieces[slot];
                text = text.endsWith("c[") ? text.substring(0, text.length() - 2) : text;
                return text.endsWith(name) || text.endsWith(name + "|");
            }
            String next = f.pieces[slot + 1];
            return next.startsWith(name, closing(next));
        }

        static Group of(SassModifierGroup g) {
            Map<String, Long> byName = new LinkedHashMap<>();
            Map<Long, String> byValue = new HashMap<>();
            for (Map.Entry<String, String> e : g.values().entrySet()) {
                long v = Long.parseUnsignedLong(e.getValue().substring(2), 16);
                byName.put(e.getKey(), v);
                byValue.put(v, e.getKey());
            }
            return new Group(BitField.parse(g.bits()), byName, byValue, g.operand(),
                    "prefix".equals(g.side()), false);
        }
    }

    /** A cap on combinations per form: classes with more (wide enums) compose only one enum at a time. */
    static final int MAX_COMBINATIONS = 512;

    /** Every composed form of the classes, for the given learned/generalized forms; most specific first. */
    static List<SassForm> compose(List<SassModifierClass> classes, Map<Integer, List<SassForm>> formsByKey) {
        return composeRanked(classes, i -> true, formsByKey).stream().map(Ranked::form).toList();
    }

    /**
     * A composed form and its place among all of them: the index of the first class that composed it, then its
     * position in that class's output. Forms sorted by decreasing specificity, then by rank, are in the same order
     * whichever subset of the classes made them, so subsets composed apart merge into the order of the whole.
     */
    record Ranked(SassForm form, long rank) {
        static final java.util.Comparator<Ranked> ORDER = java.util.Comparator
                .comparingInt((Ranked r) -> -r.form().specificity).thenComparingLong(Ranked::rank);
    }

    /**
     * The composed forms of the classes whose index in {@code classes} {@code chosen} accepts, over the
     * learned/generalized forms of their keys; most specific first, ties in rank order.
     */
    static List<Ranked> composeRanked(List<SassModifierClass> classes, java.util.function.IntPredicate chosen,
            Map<Integer, List<SassForm>> formsByKey) {
        return composeRanked(classes, chosen, formsByKey, null);
    }

    /**
     * As {@link #composeRanked(List, java.util.function.IntPredicate, Map)}, only the forms with skeleton
     * {@code skeleton} (all when null): the same forms in the same order as that list filtered by skeleton, at a
     * fraction of the cost (the assembler asks by skeleton). Everything that decides which composed forms are kept
     * compares forms of one skeleton (identities include it, special cases compare forms of one shape), and the
     * ranks, counted over the forms made, keep their order when the forms of other skeletons are not made.
     */
    static List<Ranked> composeRanked(List<SassModifierClass> classes, java.util.function.IntPredicate chosen,
            Map<Integer, List<SassForm>> formsByKey, String skeleton) {
        Map<String, Ranked> unique = new LinkedHashMap<>();
        // A form the assembler writes exists only if it encodes: a decode-only form of the same identity leaves the
        // composed form the assembler writes in place (the decoder reads the table's form first either way); a
        // composed decode-only form is left out if any form has its identity.
        Set<String> writable = new HashSet<>();
        Set<String> existing = new HashSet<>();
        Set<Integer> keys = new HashSet<>();
        for (int i = 0; i < classes.size(); i++) {
            if (chosen.test(i) && keys.add(classes.get(i).key())) {
                for (SassForm f : formsByKey.getOrDefault(classes.get(i).key(), List.of())) {
                    if (skeleton == null || f.skeleton.equals(skeleton)) {
                        String id = identity(f);
                        existing.add(id);
                        if (!f.decodeOnly) {
                            writable.add(id);
                        }
                    }
                }
            }
        }
        for (int i = 0; i < classes.size(); i++) {
            if (!chosen.test(i)) {
                continue;
            }
            SassModifierClass c = classes.get(i);
            List<SassForm> keyForms = formsByKey.getOrDefault(c.key(), List.of());
            List<Group> groups = c.groups().stream().map(g -> Group.of(g).numberedOn(c.mnemonic(), keyForms)).toList();
            Set<String> refused = new HashSet<>(c.refused());
            long position = 0;
            for (SassForm f : keyForms) {
                // Reuse flags are scheduling hints code generation sets deliberately, never by composition.
                if (!base(f.mnemonic).equals(c.mnemonic()) || f.skeleton.contains(".reuse")) {
                    continue;
                }
                String slots = null;
                for (SassForm g : composeOnto(f, groups, c.trailing(), refused, skeleton)) {
                    long rank = (long) i << 32 | position++;
                    if (skeleton != null && !g.skeleton.equals(skeleton)) {
                        continue;
                    }
                    if (!refused.contains(g.refusalKey())) {
                        slots = slots != null ? slots : slotsIdentity(f);
                        String id = identity(g, slots);
                        if (!(g.decodeOnly ? existing : writable).contains(id)) {
                            unique.putIfAbsent(id, new Ranked(g, rank));
                        }
                    }
                }
            }
        }
        List<Ranked> all = new ArrayList<>(unique.values());
        if (!all.isEmpty()) {
            ComposedSpecialCases.drop(all, keys, formsByKey, skeleton);
        }
        all.sort(Ranked.ORDER);
        return List.copyOf(all);
    }

    /** Skeleton, slots, masks and bits as one string (slots spelled by hand: records' generated toString is slow). */
    private static String identity(SassForm f) {
        return identity(f, slotsIdentity(f));
    }

    /**
     * As {@link #identity(SassForm)}, with {@code slots} the spelling of {@code f}'s slots: a composed form has its
     * learned form's slots, so that part is spelled once per learned form (spelling bit fields is most of the cost).
     */
    private static String identity(SassForm f, String slots) {
        return new StringBuilder(f.skeleton.length() + slots.length() + 72).append(f.skeleton).append('|')
                .append(slots).append('|').append(f.maskLo).append('|').append(f.maskHi).append('|')
                .append(f.bitsLo).append('|').append(f.bitsHi).toString();
    }

    private static String slotsIdentity(SassForm f) {
        StringBuilder sb = new StringBuilder(32 * f.slots.length);
        for (SassSlot slot : f.slots) {
            if (slot instanceof SassSlot.Field fs) {
                sb.append("F:").append(fs.kind()).append(':').append(fs.field()).append(':').append(fs.shift());
            } else {
                sb.append("L:").append(((SassSlot.Literal) slot).text());
            }
            sb.append(';');
        }
        return sb.toString();
    }

    static String base(String mnemonic) {
        int dot = mnemonic.indexOf('.');
        return dot < 0 ? mnemonic : mnemonic.substring(0, dot);
    }

    /**
     * Whether an operand enum's tokens can modify an operand of this kind: '!' a predicate, the others ('-', '~', '|')
     * a register. An enum's operand is numbered in the layout it was learned from; in a form of the same key with
     * more operands before it (IADD3's carry-outs) that number can name a predicate, which '-' never modifies.
     */
    private static boolean fitsKind(Group g, SlotKind kind) {
        boolean pred = kind == SlotKind.PRED || kind == SlotKind.UPRED;
        if (!pred && kind != SlotKind.GPR && kind != SlotKind.UGPR) {
            return false;
        }
        for (String name : g.byName().keySet()) {
            if (!name.isEmpty() && name.equals("!") != pred) {
                return false;
            }
        }
        return true;
    }

    /**
     * The carry-out predicates a form prints right after its register destination: IMAD.WIDE R4, P6, R8, R10, R12 has
     * one, IADD3 R2, P0, P1, R4, R6, R8 two.
     */
    static int carryOuts(SassForm f, int mp) {
        if (mp >= f.slots.length || !(f.slots[mp] instanceof SassSlot.Field d)
                || (d.kind() != SlotKind.GPR && d.kind() != SlotKind.UGPR)) {
            return 0;
        }
        int n = 0;
        while (mp + 1 + n < f.slots.length && f.slots[mp + 1 + n] instanceof SassSlot.Field p
                && (p.kind() == SlotKind.PRED || p.kind() == SlotKind.UPRED)) {
            n++;
        }
        return n;
    }

    /**
     * The slot of an operand enum's operand in {@code f}. A register modifier learned on a layout without carry-outs
     * decorates the same operand in a layout with them, which prints it further right (the '-' of IMAD.WIDE's c is
     * on operand 3 of R, R, R, R and on operand 4 of R, P, R, R, R). Predicate modifiers keep their number.
     */
    private static int operandSlot(SassForm f, Group g, int mp) {
        boolean pred = g.byName().containsKey("!");
        return g.operand() + mp + (g.countsCarryOuts() || pred ? 0 : carryOuts(f, mp));
    }

    /** The forms composed onto {@code f} (not including {@code f}'s own combination); empty if it does not fit. */
    static List<SassForm> composeOnto(SassForm f, List<Group> all) {
        return composeOnto(f, all, false, Set.of());
    }

    /**
     * As {@link #composeOnto(SassForm, List)}; {@code trailing}: the class's enum tokens follow all fixed tokens, so
     * with none printed an inserted token is appended.
     */
    static List<SassForm> composeOnto(SassForm f, List<Group> all, boolean trailing, Set<String> refused) {
        return composeOnto(f, all, trailing, refused, null);
    }

    /**
     * As {@link #composeOnto(SassForm, List, boolean, Set)}, leaving out forms that cannot have skeleton
     * {@code skeleton} (none when null): those whose mnemonic's piece is not part of it. What is left is in the same
     * order; the caller keeps the forms of exactly that skeleton.
     */
    static List<SassForm> composeOnto(SassForm f, List<Group> all, boolean trailing, Set<String> refused,
            String skeleton) {
        int mp = f.guardSlots();
        if (mp >= f.pieces.length) {
            return List.of();
        }
        String piece = f.pieces[mp];
        int at = piece.indexOf(f.mnemonic);
        int end = at + f.mnemonic.length();
        if (at < 0 || (end < piece.length() && piece.charAt(end) != ' ')) {
            return List.of();
        }
        List<Group> groups = all.stream().filter(g -> !g.ofOperand()).toList();
        boolean extended = List.of(f.mnemonic.split("\\.")).contains("X");
        List<Group> operandGroups = new ArrayList<>();
        List<Integer> operandSlots = new ArrayList<>();
        long[] operandCurrent = new long[all.size()];
        for (Group g : all) {
            if (!g.ofOperand()) {
                continue;
            }
            int slot = operandSlot(f, g, mp);
            long[] m = g.field().mask();
            // Only register operands: a sign before an immediate is part of the number's text.
            if (slot >= f.slots.length || !(f.slots[slot] instanceof SassSlot.Field fd) || !fitsKind(g, fd.kind())
                    || (f.maskLo & m[0]) != m[0] || (f.maskHi & m[1]) != m[1]) {
                continue;
            }
            long v = g.field().extract(f.bitsLo, f.bitsHi);
            String name = g.byValue().get(v);
            String text = g.prefix() ? f.pieces[slot] : f.pieces[slot + 1];
            boolean shows = name != null && (g.prefix()
                    ? text.endsWith(name) && (!name.isEmpty() || text.isEmpty() || "-!~|".indexOf(text.charAt(text.length() - 1)) < 0)
                    : text.startsWith(name, closing(text)) && (!name.isEmpty() || !text.startsWith(".", closing(text))));
            if (shows) {
                operandCurrent[operandGroups.size()] = v;
                operandGroups.add(g);
                operandSlots.add(slot);
            }
        }
        if (skeleton != null && !mayHaveSkeleton(f, mp, piece.substring(0, at), piece.substring(end),
                operandGroups, operandSlots, operandCurrent, skeleton)) {
            return List.of();
        }
        List<String> tokens = new ArrayList<>(List.of(f.mnemonic.split("\\.")));
        String opcode = tokens.remove(0);
        // A value of several tokens (LD's STRONG.GPU) is one token here, so it is found, replaced and dropped whole.
        for (Group g : groups) {
            String name = g.byValue().get(g.field().extract(f.bitsLo, f.bitsHi));
            if (name != null && name.indexOf('.') > 0) {
                merge(tokens, name);
            }
        }
        // Which token each enum holds in f (-1: its no-token value); every enum bit must be fixed by the form.
        int n = groups.size();
        long[] current = new long[n];
        int[] position = new int[n];
        boolean[] taken = new boolean[tokens.size()];
        for (int g = 0; g < n; g++) {
            long[] m = groups.get(g).field().mask();
            if ((f.maskLo & m[0]) != m[0] || (f.maskHi & m[1]) != m[1]) {
                return List.of();
            }
            current[g] = groups.get(g).field().extract(f.bitsLo, f.bitsHi);
            String name = groups.get(g).byValue().get(current[g]);
            if (name == null) {
                return List.of();
            }
            position[g] = -1;
            if (!name.isEmpty()) {
                for (int t = 0; t < tokens.size() && position[g] < 0; t++) {
                    if (!taken[t] && tokens.get(t).equals(name)) {
                        position[g] = t;
                        taken[t] = true;
                    }
                }
                if (position[g] < 0) {
                    return List.of();
                }
            }
        }
        long combinations = 1;
        for (Group g : groups) {
            combinations *= g.byName().size();
        }
        List<long[]> choices = new ArrayList<>();
        if (combinations <= MAX_COMBINATIONS) {
            long[] v = new long[n];
            cross(groups, 0, v, choices);
        } else {
            for (int g = 0; g < n; g++) {
                for (long value : groups.get(g).byName().values()) {
                    long[] v = current.clone();
                    v[g] = value;
                    choices.add(v);
                }
            }
        }
        // an operand enum printing in the mnemonic's piece would change that piece past the mnemonic
        boolean mnemonicPieceKept = !operandSlots.contains(mp);
        List<SassForm> out = new ArrayList<>();
        for (long[] v : choices) {
            List<String> text = spell(tokens, groups, position, v, trailing);
            if (text == null) {
                continue;
            }
            String mnemonic = text.isEmpty() ? opcode : opcode + "." + String.join(".", text);
            String mnemonicPiece = piece.substring(0, at) + mnemonic + piece.substring(end);
            if (skeleton != null && mnemonicPieceKept && !skeleton.contains(mnemonicPiece)) {
                continue; // every form of this combination has that piece in its skeleton
            }
            long[] bits = {f.bitsLo, f.bitsHi};
            for (int g = 0; g < n; g++) {
                set(groups.get(g).field(), v[g], bits);
            }
            List<String> pieces = new ArrayList<>(List.of(f.pieces));
            pieces.set(mp, mnemonicPiece);
            // The mnemonic combination as is, and with each operand modifier changed alone on top of it.
            if (!java.util.Arrays.equals(v, current)) {
                add(out, f, mnemonic, pieces, bits);
            }
            for (int o = 0; o < operandGroups.size(); o++) {
                Group g = operandGroups.get(o);
                int slot = operandSlots.get(o);
                String cur = g.byValue().get(operandCurrent[o]);
                for (Map.Entry<String, Long> e : g.byName().entrySet()) {
                    if (e.getValue() == operandCurrent[o]) {
                        continue;
                    }
                    String token = spelled(g, e.getKey(), extended);
                    long[] b = bits.clone();
                    set(g.field(), e.getValue(), b);
                    // the probe recorded its refusals under the learned spelling; they hold for the respelled form
                    if (!token.equals(e.getKey())
                            && refused(refused, f, mnemonic, withToken(pieces, g, slot, cur, e.getKey()), b)) {
                        continue;
                    }
                    add(out, f, mnemonic, withToken(pieces, g, slot, cur, token), b);
                }
            }
        }
        return out;
    }

    /**
     * Whether a form composed onto {@code f} can have {@code skeleton}: composing changes only the mnemonic (between
     * {@code before} and {@code after} in its piece) and the token of a shown operand enum (its value {@code current}
     * in its piece), so the rest of every piece must be the skeleton's already (a skeleton joins its pieces with
     * "{}", which no piece holds). Most skeletons the assembler asks for fail here for every form, before any
     * combination is spelled.
     */
    private static boolean mayHaveSkeleton(SassForm f, int mp, String before, String after, List<Group> operandGroups,
            List<Integer> operandSlots, long[] current, String skeleton) {
        // per piece: the text before and after the one token that may change in it (null: two or more may)
        String[] head = new String[f.pieces.length];
        String[] tail = new String[f.pieces.length];
        boolean[] changed = new boolean[f.pieces.length];
        head[mp] = before;
        tail[mp] = after;
        changed[mp] = true;
        for (int o = 0; o < operandGroups.size(); o++) {
            Group g = operandGroups.get(o);
            String cur = g.byValue().get(current[o]);
            int i = g.prefix() ? operandSlots.get(o) : operandSlots.get(o) + 1;
            String t = f.pieces[i];
            if (changed[i]) {
                head[i] = null;
            } else if (g.prefix()) {
                head[i] = t.substring(0, t.length() - cur.length());
                tail[i] = "";
            } else {
                head[i] = t.substring(0, closing(t));
                tail[i] = t.substring(closing(t) + cur.length());
            }
            changed[i] = true;
        }
        int from = 0;
        for (int i = 0; i < f.pieces.length; i++) {
            String p = f.pieces[i];
            if (p.contains("{}")) {
                return true; // not the structure assumed here: the combinations decide
            }
            boolean last = i + 1 == f.pieces.length;
            int next = last ? skeleton.length() : skeleton.indexOf("{}", from);
            if (next < 0 || last && skeleton.indexOf("{}", from) >= 0) {
                return false; // another number of operands
            }
            if (!changed[i]) {
                if (next - from != p.length() || !skeleton.startsWith(p, from)) {
                    return false;
                }
            } else if (head[i] != null && (next - from < head[i].length() + tail[i].length()
                    || !skeleton.startsWith(head[i], from) || !skeleton.startsWith(tail[i], next - tail[i].length()))) {
                return false;
            }
            from = next + 2;
        }
        return true;
    }

    /** The pieces with operand enum {@code g}'s token {@code cur} at its slot replaced by {@code token}. */
    private static List<String> withToken(List<String> pieces, Group g, int slot, String cur, String token) {
        List<String> p = new ArrayList<>(pieces);
        if (g.prefix()) {
            String t = p.get(slot);
            p.set(slot, t.substring(0, t.length() - cur.length()) + token);
        } else {
            String t = p.get(slot + 1);
            int from = closing(t);
            p.set(slot + 1, t.substring(0, from) + token + t.substring(from + cur.length()));
        }
        return p;
    }

    /** Where an operand's suffix starts in the piece after it: nvdisasm prints it after an absolute value's bar. */
    private static int closing(String next) {
        return next.startsWith("|") ? 1 : 0;
    }

    /**
     * How an operand enum's value prints on a form: an extended-precision form's (.X) negation bit complements its
     * operand (the carry does the +1), and nvdisasm prints it {@code ~R}, so a {@code -} learned on the plain form
     * spells {@code ~} there (UIMAD.WIDE.X's c), and a {@code ~} learned on the .X form spells {@code -} on the plain
     * one (IADD3 R4, P6, R8, 0xa, -R12). Only the token a composition adds: a form that already shows {@code ~} is
     * one the class does not compose onto, as before.
     */
    private static String spelled(Group g, String name, boolean extended) {
        if (!g.prefix()) {
            return name;
        }
        if (extended && "-".equals(name)) {
            return "~";
        }
        return !extended && "~".equals(name) && !g.byName().containsKey("-") ? "-" : name;
    }

    private static boolean refused(Set<String> refused, SassForm f, String mnemonic, List<String> pieces, long[] bits) {
        try {
            return refused.contains(new SassForm(f.key, mnemonic, pieces, List.of(f.slots), f.maskLo, f.maskHi,
                    bits[0], bits[1], f.exclusions()).refusalKey());
        } catch (IllegalArgumentException e) {
            return true; // as add(): cannot happen for bits inside the mask
        }
    }

    private static void add(List<SassForm> out, SassForm f, String mnemonic, List<String> pieces, long[] bits) {
        try {
            out.add(new SassForm(f.key, mnemonic, pieces, List.of(f.slots), f.maskLo, f.maskHi, bits[0], bits[1],
                    withHiddenBase(f, pieces), f.decodeOnly));
        } catch (IllegalArgumentException e) {
            // cannot happen for bits inside the mask; skip defensively
        }
    }

    /**
     * {@code f}'s exclusions, plus RZ for an address base composed with a width suffix before a uniform register
     * ({@code [R0.U32+UR4]}): nvdisasm prints an RZ base as {@code [UR4]} whatever its width bit, so the composed form
     * leaves RZ to the form that prints it so.
     */
    private static List<String> withHiddenBase(SassForm f, List<String> pieces) {
        List<String> out = withoutNegatedPt(f, pieces);
        for (int i = 0; i + 1 < pieces.size() && i < f.slots.length; i++) {
            if (f.slots[i] instanceof SassSlot.Field fd && fd.kind() == SlotKind.GPR && pieces.get(i).endsWith("[")
                    && pieces.get(i + 1).startsWith(".U32+") && !f.pieces[i + 1].startsWith(".U32+")) {
                out = new ArrayList<>(out);
                out.add(i + "=0xff");
            }
        }
        return out;
    }

    /**
     * {@code f}'s exclusions without those of a PT in a predicate the composition negates: nvdisasm hides a trailing
     * PT ({@code LDGSTS ..., [R2.64]}) but prints {@code !PT} ({@code LDGSTS ..., [R2.64], !PT}).
     */
    private static List<String> withoutNegatedPt(SassForm f, List<String> pieces) {
        List<String> out = new ArrayList<>();
        for (String e : f.exclusions()) {
            String[] term = e.split("=");
            boolean negatedPt = term.length == 2 && !e.contains("&") && Long.decode(term[1]) == 7;
            if (negatedPt) {
                int i = Integer.parseInt(term[0]);
                negatedPt = f.slots[i] instanceof SassSlot.Field fd
                        && (fd.kind() == SlotKind.PRED || fd.kind() == SlotKind.UPRED)
                        && pieces.get(i).endsWith("!") && !f.pieces[i].endsWith("!");
            }
            if (!negatedPt) {
                out.add(e);
            }
        }
        return out;
    }

    /** Replaces the field's bits with {@code value} ({@link BitField#insert} only ORs). */
    private static void set(BitField field, long value, long[] bits) {
        long[] m = field.mask();
        bits[0] &= ~m[0];
        bits[1] &= ~m[1];
        field.insert(value, bits);
    }

    /** Joins the first run of tokens spelling {@code name} ({@code STRONG}, {@code GPU}) into one token. */
    private static void merge(List<String> tokens, String name) {
        String[] parts = name.split("\\.");
        for (int t = 0; t + parts.length <= tokens.size(); t++) {
            if (tokens.subList(t, t + parts.length).equals(List.of(parts))) {
                tokens.subList(t + 1, t + parts.length).clear();
                tokens.set(t, name);
                return;
            }
        }
    }

    private static void cross(List<Group> groups, int g, long[] v, List<long[]> out) {
        if (g == groups.size()) {
            out.add(v.clone());
            return;
        }
        for (long value : groups.get(g).byName().values()) {
            v[g] = value;
            cross(groups, g + 1, v, out);
        }
    }

    /** The modifier tokens with enum values {@code v}, or null if an inserted token has no place. */
    private static List<String> spell(List<String> tokens, List<Group> groups, int[] position, long[] v,
                                      boolean trailing) {
        int n = groups.size();
        // Slots: the form's tokens, each either fixed or owned by an enum; absent enums get inserted.
        List<String> out = new ArrayList<>(tokens);
        List<Integer> owner = new ArrayList<>();
        for (int t = 0; t < tokens.size(); t++) {
            owner.add(-1);
        }
        for (int g = 0; g < n; g++) {
            if (position[g] >= 0) {
                owner.set(position[g], g);
            }
        }
        for (int g = 0; g < n; g++) {
            if (position[g] >= 0) {
                out.set(position[g], groups.get(g).byValue().get(v[g]));
            }
        }
        for (int g = 0; g < n; g++) {
            String name = groups.get(g).byValue().get(v[g]);
            if (position[g] >= 0 || name.isEmpty()) {
                continue;
            }
            // After the last token owned by an enum that precedes g in print order, else before the first token
            // owned by one that follows it; with no enum token at all, the form has nothing to anchor on.
            int insert = -1;
            for (int t = 0; t < owner.size(); t++) {
                if (owner.get(t) >= 0 && owner.get(t) < g) {
                    insert = t + 1;
                }
            }
            if (insert < 0) {
                for (int t = 0; t < owner.size() && insert < 0; t++) {
                    if (owner.get(t) > g) {
                        insert = t;
                    }
                }
            }
            if (insert < 0) {
                if (!owner.isEmpty() && !trailing) {
                    return null;
                }
                insert = trailing ? owner.size() : 0;
            }
            out.add(insert, name);
            owner.add(insert, g);
        }
        List<String> result = new ArrayList<>(out.size());
        for (String s : out) {
            if (!s.isEmpty()) {
                result.add(s);
            }
        }
        return result;
    }
}
