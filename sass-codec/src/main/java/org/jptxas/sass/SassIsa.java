package org.jptxas.sass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassDecorationClass;
import org.jptxas.tables.sass.SassModifierClass;
import org.jptxas.tables.TableSource;
import org.jptxas.tables.sass.SassTables;

/**
 * The encoding forms of one SM, indexed for decoding (by dispatch key, most specific form first) and for assembling
 * (by text skeleton). Immutable and thread-safe; {@link #forSm} shares one instance per SM.
 */
public final class SassIsa {
    private static final SassForm[] NONE = new SassForm[0];

    private final String sm;
    private final SassForm[][] byKey = new SassForm[1 << 13][];
    /** Second-level dispatch per key: forms bucketed by the bits every form of the key fixes. */
    private final KeyTable[] tables = new KeyTable[1 << 13];
    private final Map<String, List<SassForm>> bySkeleton;
    /**
     * The learned decode-only forms ({@link SassForm#decodeOnly}) by skeleton: a listing's text assembles back through
     * them, code never does; nothing is generalized from them into the assembler's forms, and what they compose is
     * decode-only too.
     */
    private final Map<String, List<SassForm>> decodeOnlyBySkeleton;
    private final List<SassForm> forms;
    private final List<SassModifierClass> modifiers;
    private final HintFields hints;
    private final OperandDecorations decorations;
    /** The unprinted descriptor field by mnemonic (without modifiers); see {@link #descriptorField}. */
    private final Map<String, BitField> descriptorFields;

    public SassIsa(String sm, List<SassFormData> data) {
        this(sm, data, List.of());
    }

    /** An ISA whose independent modifiers ({@link ModifierComposer}) compose onto the learned forms. */
    public SassIsa(String sm, List<SassFormData> data, List<SassModifierClass> modifiers) {
        this(sm, data, modifiers, Map.of());
    }

    /**
     * An ISA whose memory instructions also name the descriptor's uniform pair in unprinted fields
     * ({@code descriptorFields}: bit ranges by mnemonic, as {@code "37:32"}).
     */
    public SassIsa(String sm, List<SassFormData> data, List<SassModifierClass> modifiers,
            Map<String, String> descriptorFields) {
        this(sm, data, modifiers, descriptorFields, List.of());
    }

    /** As above, with the operand decorations read from each word ({@link OperandDecorations}). */
    public SassIsa(String sm, List<SassFormData> data, List<SassModifierClass> modifiers,
            Map<String, String> descriptorFields, List<SassDecorationClass> decorations) {
        this.sm = sm;
        this.decorations = new OperandDecorations(decorations);
        Map<String, BitField> fields = new HashMap<>();
        descriptorFields.forEach((mnemonic, range) -> fields.put(mnemonic, BitField.parse(range)));
        this.descriptorFields = Map.copyOf(fields);
        this.modifiers = modifiers.stream().filter(c -> !c.lazy()).toList();
        this.hints = new HintFields(modifiers.stream().filter(SassModifierClass::lazy).toList());
        List<SassForm> all = new ArrayList<>(data.size());
        List<SassForm> readOnly = new ArrayList<>();
        for (SassFormData d : data) {
            (d.decodeOnly() ? readOnly : all).add(TableFormReader.form(d));
        }
        all = new ArrayList<>(ZeroOffsetForms.withUnprintedZeroOffsets(all));
        // decode-only forms get decode-only zero-offset twins: without them the learned form's twin, more specific,
        // reads an RZ-based address with a zero second offset ([RZ+-0x4384a], [R248.64] for [-0x4384a], [R248.64])
        readOnly = ZeroOffsetForms.withUnprintedZeroOffsets(readOnly);
        all.addAll(readOnly);
        Map<String, List<SassForm>> readOnlySkel = new HashMap<>();
        for (SassForm f : readOnly) {
            readOnlySkel.computeIfAbsent(f.skeleton, k -> new ArrayList<>()).add(f);
        }
        readOnlySkel.replaceAll((k, v) -> List.copyOf(v));
        this.decodeOnlyBySkeleton = Map.copyOf(readOnlySkel);
        this.forms = List.copyOf(all);
        Map<Integer, List<SassForm>> keyed = new HashMap<>();
        Map<String, List<SassForm>> skel = new LinkedHashMap<>();
        for (SassForm f : all) {
            keyed.computeIfAbsent(f.key, k -> new ArrayList<>()).add(f);
            if (!f.decodeOnly) {
                skel.computeIfAbsent(f.skeleton, k -> new ArrayList<>()).add(f);
            }
        }
        Arrays.fill(byKey, NONE);
        for (Map.Entry<Integer, List<SassForm>> e : keyed.entrySet()) {
            List<SassForm> list = new ArrayList<>(e.getValue());
            // Most specific first, so a form with a fixed zero offset wins over the general one (stable otherwise).
            // Ties break on content, so the order never depends on how the forms were split across files.
            list.sort(Comparator.comparingInt((SassForm f) -> -f.specificity).thenComparing(f -> f.mnemonic)
                    .thenComparing(f -> f.skeleton).thenComparingLong(f -> f.bitsHi).thenComparingLong(f -> f.bitsLo)
                    .thenComparingLong(f -> f.maskHi).thenComparingLong(f -> f.maskLo));
            byKey[e.getKey()] = list.toArray(SassForm[]::new);
            tables[e.getKey()] = new KeyTable(byKey[e.getKey()]);
        }
        // The assembler tries forms in the decoder's priority order.
        skel.replaceAll((k, v) -> {
            List<SassForm> l = new ArrayList<>(v);
            l.sort(Comparator.comparingInt((SassForm f) -> -f.specificity)
                    .thenComparing(f -> f.maskHi, Long::compareUnsigned).thenComparing(f -> f.maskLo, Long::compareUnsigned));
            return List.copyOf(l);
        });
        this.bySkeleton = Collections.unmodifiableMap(skel);
        this.reuseCombinations = new ReuseCombinations(byKey);
    }

    /**
     * The ISA of a base and an overlay table and their modifier enums, read from {@code source}; named by the
     * overlay's scope. Callers keep it (a target description derives it once).
     */
    public static SassIsa load(TableSource source, String base, String overlay, String modifierBase,
            String modifierOverlay) {
        SassTables.Forms forms = SassTables.forms(source, base, overlay);
        SassTables.Modifiers modifiers = SassTables.modifierTables(source, modifierBase, modifierOverlay);
        return new SassIsa(forms.scope(), forms.forms(), modifiers.classes(), forms.descriptorFields(),
                modifiers.decorations());
    }

    public String sm() {
        return sm;
    }

    /**
     * Where {@code f}'s words name the memory descriptor's uniform pair without printing it, or null: the field of
     * its mnemonic when the form fixes all of its bits and no operand lives there (a form printing the pair,
     * {@code desc[UR4]}, has it as an operand). The learned form fixes the pair ptxas used in its samples; the
     * encoder writes the pair the code loads.
     */
    public BitField descriptorField(SassForm f) {
        if (descriptorFields.isEmpty()) {
            return null;
        }
        int dot = f.mnemonic.indexOf('.');
        BitField field = descriptorFields.get(dot < 0 ? f.mnemonic : f.mnemonic.substring(0, dot));
        if (field == null) {
            return null;
        }
        long[] m = field.mask();
        if ((f.maskLo & m[0]) != m[0] || (f.maskHi & m[1]) != m[1]) {
            return null;
        }
        for (SassSlot s : f.slots) {
            if (s instanceof SassSlot.Field fs) {
                long[] o = fs.field().mask();
                if ((o[0] & m[0]) != 0 || (o[1] & m[1]) != 0) {
                    return null;
                }
            }
        }
        return field;
    }

    public List<SassForm> forms() {
        return forms;
    }

    List<SassForm> formsWithSkeleton(String skeleton) {
        return bySkeleton.getOrDefault(skeleton, List.of());
    }

    /** The decode-only forms a listing's {@code skeleton} assembles through: learned, generalized, composed. */
    List<SassForm> decodeOnlyWithSkeleton(String skeleton) {
        List<SassForm> out = new ArrayList<>(decodeOnlyBySkeleton.getOrDefault(skeleton, List.of()));
        out.addAll(generalized().decodeOnlyBySkeleton().getOrDefault(skeleton, List.of()));
        out.addAll(composeWithSkeleton(skeleton, true));
        return out;
    }

    /** Generalized forms by skeleton, by key, decode-only by skeleton; built on first use ({@link FormGeneralizer}). */
    private record Generalized(Map<String, List<SassForm>> bySkeleton, Map<Integer, List<SassForm>> byKey,
            Map<String, List<SassForm>> decodeOnlyBySkeleton) {}

    private volatile Generalized generalized;

    private Generalized generalized() {
        Generalized g = generalized;
        if (g == null) {
            Map<String, List<SassForm>> sk = new LinkedHashMap<>();
            Map<Integer, List<SassForm>> key = new HashMap<>();
            Map<String, List<SassForm>> readOnly = new HashMap<>();
            for (SassForm f : FormGeneralizer.generalize(byKey, false)) {
                sk.computeIfAbsent(f.skeleton, k -> new ArrayList<>()).add(f);
                key.computeIfAbsent(f.key, k -> new ArrayList<>()).add(f);
            }
            if (!decodeOnlyBySkeleton.isEmpty()) {
                // for the decoder only, each key's list kept most specific first (the fallback stops at the first
                // less specific form)
                for (SassForm f : FormGeneralizer.generalize(byKey, true)) {
                    key.computeIfAbsent(f.key, k -> new ArrayList<>()).add(f);
                    readOnly.computeIfAbsent(f.skeleton, k -> new ArrayList<>()).add(f);
                }
                key.values().forEach(l -> l.sort(Comparator.comparingInt((SassForm f) -> -f.specificity)));
            }
            g = new Generalized(sk, key, readOnly);
            generalized = g;
        }
        return g;
    }

    /** The assembler's fallback forms (literal operands generalized to fields; see {@link FormGeneralizer}). */
    List<SassForm> generalizedWithSkeleton(String skeleton) {
        return generalized().bySkeleton().getOrDefault(skeleton, List.of());
    }

    /**
     * Forms of modifier combinations no learned form has, built on first use; see {@link ModifierComposer}. A class
     * composes only onto the forms of its own dispatch key and mnemonic, so the forms are made per skeleton (for the
     * assembler) and per key (for the decoder), as each is first asked for: the whole set is tens of thousands of
     * forms, of which a compilation needs a few.
     */
    private volatile Map<Integer, List<SassForm>> composeBase;
    private final Map<String, List<SassForm>> composedBySkeleton = new ConcurrentHashMap<>();
    private final Map<Integer, KeyForms> composedByKey = new ConcurrentHashMap<>();

    /** One key's composed forms, ranked (to merge into a skeleton's) and as the decoder reads them. */
    private record KeyForms(List<ModifierComposer.Ranked> ranked, List<SassForm> forms) {}

    /**
     * The learned (decode-only ones too: what they compose is decode-only) and generalized forms by key: what the
     * modifier classes compose onto.
     */
    private Map<Integer, List<SassForm>> composeBase() {
        Map<Integer, List<SassForm>> base = composeBase;
        if (base == null) {
            base = new HashMap<>();
            // the decode-only forms last: a composition they share with a form the assembler writes stays that one's
            for (boolean decodeOnlyPass : new boolean[] {false, true}) {
                for (SassForm[] forms : byKey) {
                    for (SassForm f : forms) {
                        if (f.decodeOnly == decodeOnlyPass) {
                            base.computeIfAbsent(f.key, k -> new ArrayList<>()).add(f);
                        }
                    }
                }
                for (List<SassForm> forms : generalized().byKey().values()) {
                    for (SassForm f : forms) {
                        if (f.decodeOnly == decodeOnlyPass) {
                            base.computeIfAbsent(f.key, k -> new ArrayList<>()).add(f);
                        }
                    }
                }
            }
            composeBase = base;
        }
        return base;
    }

    private List<SassForm> composedFormsOfKey(int key) {
        return keyForms(key).forms();
    }

    private KeyForms keyForms(int key) {
        return composedByKey.computeIfAbsent(key, k -> {
            List<ModifierComposer.Ranked> ranked = ModifierComposer.composeRanked(modifiers,
                    i -> modifiers.get(i).key() == k, composeBase());
            return new KeyForms(ranked, ranked.stream().map(ModifierComposer.Ranked::form).toList());
        });
    }

    /**
     * The assembler's last resort: forms of modifier combinations composed from the modifier tables. Only the forms
     * of the skeleton asked for are made (a mnemonic's classes compose thousands of forms, of which a compilation
     * asks for a few skeletons), unless the decoder has composed a key's forms already.
     */
    List<SassForm> composedWithSkeleton(String skeleton) {
        List<SassForm> forms = composedBySkeleton.get(skeleton);
        if (forms == null) {
            forms = composeWithSkeleton(skeleton, false);
            if (composedBySkeleton.size() >= COMPOSED_SKELETON_LIMIT) {
                composedBySkeleton.clear();
            }
            composedBySkeleton.putIfAbsent(skeleton, forms);
        }
        return forms;
    }

    /** Bound on the skeletons whose composed forms are kept (a long-lived server sees many). */
    private static final int COMPOSED_SKELETON_LIMIT = 1 << 14;

    /** The composed forms of {@code skeleton} the assembler writes, or (with {@code decodeOnly}) the others. */
    private List<SassForm> composeWithSkeleton(String skeleton, boolean decodeOnly) {
        String m = ModifierComposer.base(skeletonMnemonic(skeleton));
        // the forms of this mnemonic's classes with this skeleton, in the order of the whole set
        List<ModifierComposer.Ranked> forms = new ArrayList<>();
        modifiers.stream().filter(c -> c.mnemonic().equals(m)).map(SassModifierClass::key).distinct().forEach(k -> {
            KeyForms whole = composedByKey.get(k);
            List<ModifierComposer.Ranked> ranked = whole != null ? whole.ranked()
                    : ModifierComposer.composeRanked(modifiers,
                            i -> modifiers.get(i).key() == k && modifiers.get(i).mnemonic().equals(m), composeBase(),
                            skeleton);
            for (ModifierComposer.Ranked r : ranked) {
                if (r.form().skeleton.equals(skeleton) && ModifierComposer.base(r.form().mnemonic).equals(m)
                        && r.form().decodeOnly == decodeOnly) {
                    forms.add(r);
                }
            }
        });
        forms.sort(ModifierComposer.Ranked.ORDER);
        return forms.stream().map(ModifierComposer.Ranked::form).toList();
    }

    /** The mnemonic (with modifiers) a skeleton names: {@code @!{} IADD3.X {}, ...} gives {@code IADD3.X}. */
    private static String skeletonMnemonic(String skeleton) {
        String s = skeleton.startsWith("@") && skeleton.indexOf(' ') > 0
                ? skeleton.substring(skeleton.indexOf(' ') + 1) : skeleton;
        s = s.strip();
        int end = s.indexOf(' ');
        return end < 0 ? s : s.substring(0, end);
    }

    /** Every composed form (the modifier oracle test and the probe check each with nvdisasm). */
    public List<SassForm> composedForms() {
        List<SassForm> out = new ArrayList<>();
        modifiers.stream().map(SassModifierClass::key).distinct().sorted()
                .forEach(k -> out.addAll(composedFormsOfKey(k)));
        out.sort(Comparator.comparingInt((SassForm f) -> f.key).thenComparing(f -> f.mnemonic)
                .thenComparing(f -> f.skeleton).thenComparingLong(f -> f.bitsHi).thenComparingLong(f -> f.bitsLo));
        return out;
    }

    /** The modifier classes this ISA composes (not the lazy ones, see {@link HintFields}). */
    public List<SassModifierClass> modifiers() {
        return modifiers;
    }

    /** The lazy modifier classes' view for the assembler. */
    HintFields hints() {
        return hints;
    }

    /** The operand decorations' view for the listing assembler. */
    OperandDecorations decorations() {
        return decorations;
    }

    /**
     * The decoder's fallback for words no learned form explains: the most specific generalized form that applies,
     * unless an equally specific one prints differently; then the same over composed modifier forms.
     */
    private SassInstruction decodeGeneralized(int key, long lo, long hi) {
        SassInstruction g = decodeFallback(generalized().byKey().getOrDefault(key, List.of()), lo, hi);
        if (g instanceof SassInstruction.Unknown && !modifiers.isEmpty()) {
            g = decodeFallback(composedFormsOfKey(key), lo, hi);
        }
        if (g instanceof SassInstruction.Unknown && !hints.isEmpty()) {
            SassInstruction.Known h = hints.decode(lo, hi, key, (l, w) -> decode(l, w, true));
            g = h != null ? h : g;
        }
        return decorated(key, lo, hi, g);
    }

    /** {@code g}, or if unknown the word read with its operand decorations ({@link OperandDecorations}). */
    private SassInstruction decorated(int key, long lo, long hi, SassInstruction g) {
        if (g instanceof SassInstruction.Unknown && !decorations.isEmpty()) {
            SassInstruction.Known d = decorations.decode(lo, hi, key, (l, w) -> decode(l, w, true));
            return d != null ? d : g;
        }
        return g;
    }

    private SassInstruction decodeFallback(List<SassForm> candidates, long lo, long hi) {
        return decodeFallback(candidates, lo, hi, f -> f.appliesTo(lo, hi) && !printsHiddenPt(f, lo, hi));
    }

    /** Per fallback form, its predicate slots nvdisasm hides when PT (as the learned forms of its key show). */
    private final Map<SassForm, int[]> fallbackHideable = new ConcurrentHashMap<>();

    /** Whether {@code f} would print a PT that nvdisasm hides (see {@link KeyTable.Candidate}). */
    private boolean printsHiddenPt(SassForm f, long lo, long hi) {
        int[] hideable = fallbackHideable.computeIfAbsent(f, x -> KeyTable.hideablePredicates(x, byKey[x.key]));
        return KeyTable.printsHiddenPt(f, hideable, lo, hi);
    }

    /** As above, over the candidates {@code applies} accepts. */
    private static SassInstruction decodeFallback(List<SassForm> candidates, long lo, long hi,
                                                  Predicate<SassForm> applies) {
        SassForm found = null;
        for (SassForm f : candidates) {
            if (found != null && f.specificity < found.specificity) {
                break;
            }
            if (applies.test(f)) {
                // equally specific rivals are ambiguous unless they print these words alike (a signed and an
                // unsigned reading of the same immediate field, say, for a value both print the same)
                if (found != null && !(found.skeleton.equals(f.skeleton) && Arrays.equals(found.slots, f.slots))
                        && !SassPrinter.text(known(found, lo, hi), 0, null).equals(SassPrinter.text(known(f, lo, hi), 0, null))) {
                    return new SassInstruction.Unknown(lo, hi);
                }
                found = found == null ? f : found;
            }
        }
        if (found == null) {
            return new SassInstruction.Unknown(lo, hi);
        }
        return known(found, lo, hi);
    }

    /** The words read through {@code f} alone, or null when {@code f} does not apply to them. */
    static SassInstruction.Known readWith(SassForm f, long lo, long hi) {
        return f.appliesTo(lo, hi) ? known(f, lo, hi) : null;
    }

    private static SassInstruction.Known known(SassForm f, long lo, long hi) {
        long[] values = new long[f.slots.length];
        for (int i = 0; i < values.length; i++) {
            if (f.slots[i] instanceof SassSlot.Field field) {
                values[i] = field.field().extract(lo, hi);
            }
        }
        return new SassInstruction.Known(f, values, Control.fromHi(hi & ~f.maskHi), lo, hi);
    }

    static int keyOf(long lo, long hi) {
        return (int) (lo & 0xfff) | (int) ((hi >>> 27) & 1) << 12;
    }

    /** Decodes one instruction: a {@link SassInstruction.Known} or, if no form explains the bits, an Unknown. */
    public SassInstruction decode(long lo, long hi) {
        SassInstruction d = decode(lo, hi, true);
        if (d instanceof SassInstruction.Unknown && (hi & ReuseCombinations.REUSE_HI) != 0
                && decode(lo, hi & ~ReuseCombinations.REUSE_HI, true) instanceof SassInstruction.Known plain) {
            // reuse flags in a combination no form has: the flag-free word's form with .reuse where they are
            SassForm f = reuseCombinations.with(plain.form(), hi & ReuseCombinations.REUSE_HI);
            if (f != null) {
                return known(f, lo, hi);
            }
        }
        return d;
    }

    private final ReuseCombinations reuseCombinations;

    /**
     * Decodes for execution: as {@link #decode}, but a word no form explains only because of its operand-reuse flags
     * (bits [125:122]) decodes as the same instruction without them, printed without {@code .reuse}. The flags are
     * hints for the operand cache and never change what an instruction computes, so the emulator can run ptxas's
     * code whose reuse combinations the tables never saw. Only for keys whose forms print {@code .reuse}, or whose flags
     * {@link ReuseCombinations} places by the evidence of keys with the same operands (elsewhere those bits may
     * select the instruction). Never use it to disassemble.
     */
    public SassInstruction decodeForExecution(long lo, long hi) {
        SassInstruction d = decode(lo, hi, true);
        if (d instanceof SassInstruction.Unknown && (hi & REUSE_HI) != 0
                && decode(lo, hi & ~REUSE_HI, true) instanceof SassInstruction.Known plain
                && (printsReuse(keyOf(lo, hi)) || reuseCombinations.with(plain.form(), hi & REUSE_HI) != null)) {
            return plain;
        }
        return d;
    }

    private static final long REUSE_HI = 0xfL << (122 - 64);

    /** Whether a learned form of the key prints {@code .reuse}: there bits [125:122] are the reuse flags. */
    private boolean printsReuse(int key) {
        for (SassForm f : byKey[key]) {
            if (f.skeleton.contains(".reuse")) {
                return true;
            }
        }
        return false;
    }

    /** As {@link #decodeAll}, with {@link #decodeForExecution}. */
    public List<SassInstruction> decodeAllForExecution(byte[] code, int offset, int length) {
        if (length % 16 != 0) {
            throw new IllegalArgumentException("code length " + length + " is not a multiple of 16 bytes");
        }
        List<SassInstruction> out = new ArrayList<>(length / 16);
        for (int p = offset; p < offset + length; p += 16) {
            out.add(decodeForExecution(le64(code, p), le64(code, p + 8)));
        }
        return out;
    }

    /**
     * The table probe's view: the first applicable form even where {@link #decode} refuses (an equally specific
     * rival also applies, or a hideable predicate holds PT), so the probe can see which form would misprint the
     * sample and give it an exclusion. Never use it to disassemble.
     */
    public SassInstruction decodeForProbe(long lo, long hi) {
        return decode(lo, hi, false);
    }

    private SassInstruction decode(long lo, long hi, boolean refuseAmbiguous) {
        KeyTable t = tables[keyOf(lo, hi)];
        if (t == null) {
            return new SassInstruction.Unknown(lo, hi);
        }
        if (ImadAlias.covers(lo, hi)) {
            return imadAlias(t, lo, hi);
        }
        for (int k = 0; k < t.masksLo.length; k++) {
            KeyTable.Candidate[] cs = t.find(k, lo, hi);
            if (cs == null) {
                continue;
            }
            candidates:
            for (KeyTable.Candidate c : cs) {
                SassForm f = c.form();
                SassSlot[] slots = f.slots;
                long[] values = new long[slots.length];
                for (int i = 0; i < slots.length; i++) {
                    if (slots[i] instanceof SassSlot.Field field) {
                        values[i] = field.field().extract(lo, hi);
                    }
                }
                if (f.excludeSlots.length != 0 && f.excluded(values)) {
                    continue;
                }
                if (refuseAmbiguous) {
                    for (int h : c.hideable()) {
                        if (values[h] == 7) {
                            // nvdisasm hides this PT, so the form misprints it; a form without the operand may not
                            continue candidates;
                        }
                    }
                    if (c.rivalApplies(lo, hi)) {
                        return new SassInstruction.Unknown(lo, hi);
                    }
                }
                return new SassInstruction.Known(f, values, Control.fromHi(hi & ~f.maskHi), lo, hi);
            }
        }
        return refuseAmbiguous ? decodeGeneralized(keyOf(lo, hi), lo, hi) : new SassInstruction.Unknown(lo, hi);
    }

    /**
     * IMAD keys: the most specific applicable form named as nvdisasm names it ({@link ImadAlias}); unknown if
     * none is, or if two equally specific ones with that name would print differently.
     */
    private SassInstruction imadAlias(KeyTable t, long lo, long hi) {
        String want = ImadAlias.mnemonic(lo, hi);
        for (int k = 0; k < t.masksLo.length; k++) {
            KeyTable.Candidate[] cs = t.find(k, lo, hi);
            if (cs == null) {
                continue;
            }
            for (KeyTable.Candidate c : cs) {
                SassForm f = c.form();
                if (!f.mnemonic.equals(want) || !f.appliesToGuardOnly(lo, hi)) {
                    continue;
                }
                for (SassForm r : c.rivals()) {
                    if (r.mnemonic.equals(want) && r.appliesToGuardOnly(lo, hi)) {
                        return new SassInstruction.Unknown(lo, hi);
                    }
                }
                long[] v = new long[f.slots.length];
                for (int i = 0; i < v.length; i++) {
                    if (f.slots[i] instanceof SassSlot.Field field) {
                        v[i] = field.field().extract(lo, hi);
                    }
                }
                return new SassInstruction.Known(f, v, Control.fromHi(hi & ~f.maskHi), lo, hi);
            }
        }
        // No learned form of that name: a generalized one (e.g. the guarded spelling of a form ptxas was only seen
        // to write unguarded), the most specific, unless an equally specific one prints differently.
        // Then a composed one: ptxas never writes some names (the signed IMAD.SHL), but the modifier tables compose them.
        Predicate<SassForm> named = f -> f.mnemonic.equals(want) && f.appliesToGuardOnly(lo, hi);
        SassInstruction g = decodeFallback(generalized().byKey().getOrDefault(keyOf(lo, hi), List.of()), lo, hi, named);
        if (g instanceof SassInstruction.Known) {
            return g;
        }
        g = decodeFallback(composedFormsOfKey(keyOf(lo, hi)), lo, hi, named);
        if (g instanceof SassInstruction.Known) {
            return g;
        }
        // No form of that name at all (ptxas writes IMAD.MOV only with a = RZ, but a selector may write a*RZ+c): the
        // name is the operands' alone, so any IMAD form of the key that explains the bits, under nvdisasm's name.
        int key = keyOf(lo, hi);
        for (int pool = 0; pool < 3; pool++) {
            g = decodeFallback(renamedImads(key, want, pool), lo, hi, f -> f.appliesToGuardOnly(lo, hi));
            if (g instanceof SassInstruction.Known) {
                return g;
            }
        }
        return decorated(key, lo, hi, g);
    }

    /**
     * The IMAD forms of a key with {@code want}'s signedness (learned for pool 0, generalized for 1, composed for 2:
     * {@code IMAD.MOV.U32 R142, RZ, c[0x1b][0x613c], R179}, where only a composed form is unsigned), each renamed to
     * {@code want}, most specific first; made on first use.
     */
    private List<SassForm> renamedImads(int key, String want, int pool) {
        return renamed.computeIfAbsent(key + "|" + want + "|" + pool, x -> {
            boolean unsigned = want.endsWith(".U32");
            List<SassForm> out = new ArrayList<>();
            List<SassForm> forms = pool == 0 ? Arrays.asList(byKey[key])
                    : pool == 1 ? generalized().byKey().getOrDefault(key, List.of()) : composedFormsOfKey(key);
            for (SassForm f : forms) {
                if (ImadAlias.isPlainImad(f.mnemonic) && f.mnemonic.endsWith(".U32") == unsigned) {
                    SassForm r = f.mnemonic.equals(want) ? f : f.renamed(want);
                    if (r != null) {
                        out.add(r);
                    }
                }
            }
            return List.copyOf(out);
        });
    }

    private final Map<String, List<SassForm>> renamed = new ConcurrentHashMap<>();

    /** Decodes little-endian instruction bytes (a multiple of 16). */
    public List<SassInstruction> decodeAll(byte[] code, int offset, int length) {
        if (length % 16 != 0) {
            throw new IllegalArgumentException("code length " + length + " is not a multiple of 16 bytes");
        }
        List<SassInstruction> out = new ArrayList<>(length / 16);
        for (int p = offset; p < offset + length; p += 16) {
            out.add(decode(le64(code, p), le64(code, p + 8)));
        }
        return out;
    }

    /** The little-endian 64-bit word at {@code p}: one half of an instruction as the code stream stores it. */
    public static long le64(byte[] b, int p) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[p + i] & 0xff);
        }
        return v;
    }

    /** 32 hex digits, bit 127 first → {lo, hi}. */
    public static long[] hex128(String s) {
        return new long[] {Long.parseUnsignedLong(s.substring(16), 16), Long.parseUnsignedLong(s.substring(0, 16), 16)};
    }

    public static String hex128(long lo, long hi) {
        return String.format("%016x%016x", hi, lo);
    }
}
