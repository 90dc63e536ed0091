package org.jptxas.sass.probe;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.sass.BitField;
import org.jptxas.sass.Control;
import org.jptxas.sass.Lexeme;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassLexer;
import org.jptxas.sass.SassPrinter;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SlotKind;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassSlotData;

/**
 * Derives encoding forms from oracle samples (word + nvdisasm text). For every pool of samples that share a dispatch
 * key and an operand layout, each value in the text (register number, immediate, offset, branch target) is located
 * in the word by correlation: a value bit j sits at instruction bit p when bit p equals bit j of the value in every
 * sample. Contiguity and the positions other pools settled resolve what one pool leaves ambiguous. Values that never
 * vary stay literal (their bits become part of the form). Every form is then checked by decoding every sample with
 * the finished table; a form that prints any sample differently is replaced by exact forms for its samples.
 */
public final class FormLearner {
    private static final long CTRL_LO = 0;
    private static final long CTRL_HI = Control.HI_MASK;
    /** Bits that may hold operand fields: [104:12] except bit 91 (part of the dispatch key). */
    private static final long ALLOWED_LO = ~0xfffL;
    private static final long ALLOWED_HI = ((1L << (105 - 64)) - 1) & ~(1L << (91 - 64));

    private record Lexed(Sample s, SassLexer.Lexed lex, int key, String mnemonic) {}

    /** A solved field for one slot of a pool. */
    private record Solution(SlotKind kind, int[] positions, int shift) {}

    private final Map<String, Integer> priorStarts = new HashMap<>();
    private final Map<Integer, Solution> labelPriors = new HashMap<>();
    /** Dispatch keys for which nvdisasm printed {@code .reuse}: their bits [125:122] stay part of the form. */
    private final java.util.Set<Integer> reuseKeys = new java.util.HashSet<>();
    /**
     * Keys seen with bits [125:122] set and no {@code .reuse} printed: there the bits are proven invisible and go to
     * the control annotation. Elsewhere they stay in the form, so an unseen {@code .reuse} decodes as UNKNOWN.
     */
    private final java.util.Set<Integer> opexKeys = new java.util.HashSet<>();
    private final List<String> log = new ArrayList<>();

    public List<String> log() {
        return log;
    }

    /** {@code f} with the exclusions {@code add} after its own (each once). */
    static SassFormData withExclusions(SassFormData f, java.util.Collection<String> add) {
        java.util.LinkedHashSet<String> ex = new java.util.LinkedHashSet<>(f.exclude());
        ex.addAll(add);
        return new SassFormData(f.mnemonic(), f.key(), f.pieces(), f.mask(), f.bits(), f.slots(), new ArrayList<>(ex));
    }

    /** The exclusion that keeps {@code k}'s form from printing these field values: the default-valued fields. */
    static String exclusionFor(SassInstruction.Known k) {
        List<org.jptxas.sass.SassSlot> slots = k.form().slots();
        StringBuilder special = new StringBuilder();
        StringBuilder every = new StringBuilder();
        for (int i = 0; i < slots.size(); i++) {
            if (!(slots.get(i) instanceof org.jptxas.sass.SassSlot.Field f)) {
                continue;
            }
            long v = k.values()[i];
            String term = i + "=0x" + Long.toHexString(v);
            every.append(every.length() > 0 ? "&" : "").append(term);
            boolean isDefault = switch (f.kind()) {
                case PRED, UPRED -> v == 7;
                case GPR -> v == 255;
                case UGPR -> v == 63;
                case HEX, SHEX, SHEX_PLUS -> v == 0 || v == 1;
                default -> false;
            };
            if (isDefault) {
                special.append(special.length() > 0 ? "&" : "").append(term);
            }
        }
        if (special.length() > 0) {
            return special.toString();
        }
        return every.length() > 0 ? every.toString() : null;
    }

    public List<SassFormData> learn(String sm, List<Sample> samples) {
        List<Lexed> all = new ArrayList<>(samples.size());
        for (Sample s : samples) {
            if (needsRelocation(s)) {
                continue;
            }
            SassLexer.Lexed lx = SassLexer.lex(s.text());
            all.add(new Lexed(s, lx, keyOf(s.lo(), s.hi()), mnemonicOf(s.text())));
        }
        for (Lexed l : all) {
            if (l.s.text().contains(".reuse")) {
                reuseKeys.add(l.key);
            } else if ((l.s.hi() & Control.OPEX_MASK) != 0) {
                opexKeys.add(l.key);
            }
        }
        Map<String, List<Lexed>> pools = new LinkedHashMap<>();
        for (Lexed l : all) {
            pools.computeIfAbsent(poolId(l), k -> new ArrayList<>()).add(l);
        }
        // Pass 1: pools with enough variation settle positions; record them as priors. Pass 2 uses the priors.
        Map<String, Solution[]> solved = new HashMap<>();
        for (int pass = 0; pass < 2; pass++) {
            for (Map.Entry<String, List<Lexed>> e : pools.entrySet()) {
                Solution[] sol = solvePool(e.getValue(), pass == 1);
                solved.put(e.getKey(), sol);
                if (pass == 0) {
                    recordPriors(e.getValue().get(0), sol);
                }
            }
        }
        List<SassFormData> forms = new ArrayList<>();
        Map<String, SassFormData> seen = new LinkedHashMap<>();
        for (Map.Entry<String, List<Lexed>> e : pools.entrySet()) {
            for (SassFormData f : buildForms(e.getValue(), solved.get(e.getKey()))) {
                seen.putIfAbsent(identity(f), f);
            }
        }
        forms.addAll(seen.values());
        // Verify with the real decoder. A form that misprints a sample gets an exclusion for the sample's field
        // values (nvdisasm prints an alias or hides a default operand there); samples no form explains get exact forms.
        for (int round = 0; round < 10; round++) {
            SassIsa isa = new SassIsa(sm, forms);
            java.util.IdentityHashMap<Object, Integer> index = formIndex(isa);
            Map<Integer, java.util.LinkedHashSet<String>> exclusions = new LinkedHashMap<>();
            List<Lexed> unknown = new ArrayList<>();
            int wrong = 0;
            for (Lexed l : all) {
                SassInstruction inst = isa.decode(l.s.lo(), l.s.hi());
                String text = SassPrinter.text(inst, l.s.address(), addr -> labelAt(l.s, addr));
                if (text.equals(l.s.text())) {
                    continue;
                }
                wrong++;
                if (inst instanceof SassInstruction.Unknown) {
                    // Refused as ambiguous? If the form that would apply misprints, it is the one to give an
                    // exclusion; if it prints right, the refusal stands and the sample gets an exact form.
                    SassInstruction applies = isa.decodeForProbe(l.s.lo(), l.s.hi());
                    if (!SassPrinter.text(applies, l.s.address(), addr -> labelAt(l.s, addr)).equals(l.s.text())) {
                        inst = applies;
                    }
                }
                if (round == 9 && wrong % 3 == 1 && System.getenv("SASS_PROBE_DEBUG") != null) {
                    log.add("  want: " + l.s.text() + "\n  got:  " + text + "\n  word: "
                            + SassIsa.hex128(l.s.lo(), l.s.hi()) + "  form: "
                            + (inst instanceof SassInstruction.Known k ? k.form().slots() : "unknown"));
                }
                if (inst instanceof SassInstruction.Known k) {
                    String ex = exclusionFor(k);
                    if (ex != null && round < 8) {
                        exclusions.computeIfAbsent(index.get(k.form()), x -> new java.util.LinkedHashSet<>()).add(ex);
                    } else {
                        unknown.add(l);
                    }
                } else {
                    unknown.add(l);
                }
            }
            log.add(sm + ": verification round " + round + ": " + wrong + " of " + all.size() + " samples misprinted, "
                    + exclusions.size() + " forms get exclusions, " + unknown.size() + " unexplained");
            if (wrong == 0) {
                break;
            }
            List<SassFormData> next = new ArrayList<>(forms.size());
            for (int i = 0; i < forms.size(); i++) {
                SassFormData f = forms.get(i);
                java.util.LinkedHashSet<String> add = exclusions.get(i);
                next.add(add == null ? f : withExclusions(f, add));
            }
            if (exclusions.isEmpty() || round >= 3) {
                Map<String, SassFormData> exact = new LinkedHashMap<>();
                for (Lexed l : unknown) {
                    SassFormData f = exactForm(l);
                    if (f != null) {
                        exact.putIfAbsent(identity(f), f);
                    }
                }
                next.addAll(exact.values());
                if (exclusions.isEmpty() && exact.isEmpty()) {
                    forms = next;
                    break;
                }
            }
            forms = next;
        }
        forms = generalizeLiterals(sm, forms, all);
        forms.sort(Comparator.comparingInt(SassFormData::key).thenComparing(SassFormData::mnemonic)
                .thenComparing(f -> String.join("{}", f.pieces())).thenComparing(SassFormData::bits));
        return forms;
    }

    /**
     * Register literals become nvdisasm-confirmed fields ({@link LiteralFieldGeneralizer}); a generalized form that
     * then decodes some sample wrongly (it now competes with forms it did not compete with before) is put back.
     */
    private List<SassFormData> generalizeLiterals(String sm, List<SassFormData> learned, List<Lexed> all) {
        if (System.getenv("SASS_PROBE_NO_GENERALIZE") != null) {
            return learned;
        }
        List<long[]> example = new ArrayList<>(java.util.Collections.nCopies(learned.size(), (long[]) null));
        SassIsa learnedIsa = new SassIsa(sm, learned);
        java.util.IdentityHashMap<Object, Integer> learnedIndex = formIndex(learnedIsa);
        for (Lexed l : all) {
            if (learnedIsa.decode(l.s.lo(), l.s.hi()) instanceof SassInstruction.Known k) {
                int i = learnedIndex.get(k.form());
                // (a twin ZeroOffsetForms derived, listed after the learned forms, gives no learned form an example)
                if (i < learned.size() && example.get(i) == null) {
                    example.set(i, new long[] {l.s.lo(), l.s.hi()});
                }
            }
        }
        LiteralFieldGeneralizer generalizer = new LiteralFieldGeneralizer(sm, log);
        learned = generalizer.checkFields(learned, example);
        List<SassFormData> general = generalizer.generalize(learned, example);
        java.util.Set<String> original = new java.util.HashSet<>();
        for (SassFormData f : learned) {
            original.add(identity(f) + f.exclude());
        }
        for (int round = 0; round < 5; round++) {
            SassIsa isa = new SassIsa(sm, general);
            java.util.Set<Integer> revert = new java.util.TreeSet<>();
            boolean unknownFromGeneral = false;
            for (Lexed l : all) {
                SassInstruction inst = isa.decode(l.s.lo(), l.s.hi());
                if (SassPrinter.text(inst, l.s.address(), addr -> labelAt(l.s, addr)).equals(l.s.text())) {
                    continue;
                }
                // Any generalized form that matches the word is a suspect: it either decoded the sample wrongly
                // or made the decode ambiguous against the learned form.
                boolean blamed = false;
                for (int i = 0; i < general.size(); i++) {
                    SassFormData g = general.get(i);
                    if (!original.contains(identity(g) + g.exclude()) && matches(g, l.s.lo(), l.s.hi())) {
                        revert.add(i);
                        blamed = true;
                    }
                }
                unknownFromGeneral |= !blamed;
            }
            if (revert.isEmpty()) {
                if (unknownFromGeneral) {
                    log.add(sm + ": generalization leaves samples undecoded; keeping the learned forms");
                    return learned;
                }
                log.add(sm + ": generalized forms verified against every sample (round " + round + ")");
                return general;
            }
            // Put back the learned forms the reverted ones came from: regenerate without them generalized.
            java.util.Set<String> drop = new java.util.HashSet<>();
            for (int i : revert) {
                drop.add(general.get(i).mnemonic() + "|" + general.get(i).key() + "|" + general.get(i).pieces());
            }
            List<SassFormData> next = new ArrayList<>();
            for (SassFormData f : general) {
                if (!drop.contains(f.mnemonic() + "|" + f.key() + "|" + f.pieces())) {
                    next.add(f);
                }
            }
            java.util.Set<String> have = new java.util.HashSet<>();
            for (SassFormData f : next) {
                have.add(identity(f) + f.exclude());
            }
            for (SassFormData f : learned) {
                if (drop.contains(f.mnemonic() + "|" + f.key() + "|" + f.pieces()) && have.add(identity(f) + f.exclude())) {
                    next.add(f);
                }
            }
            log.add(sm + ": " + revert.size() + " generalized forms misdecode samples; their learned forms restored");
            general = next;
        }
        return learned;
    }

    /** Each decoder form's position in the form list the decoder was built from. */
    private static java.util.IdentityHashMap<Object, Integer> formIndex(SassIsa isa) {
        java.util.IdentityHashMap<Object, Integer> index = new java.util.IdentityHashMap<>();
        for (int i = 0; i < isa.forms().size(); i++) {
            index.put(isa.forms().get(i), i);
        }
        return index;
    }

    /** Whether the form's fixed bits match the word (control bits aside). */
    private static boolean matches(SassFormData f, long lo, long hi) {
        long[] mask = SassIsa.hex128(f.mask());
        long[] bits = SassIsa.hex128(f.bits());
        return (lo & mask[0]) == bits[0] && (hi & mask[1] & ~Control.HI_MASK) == (bits[1] & ~Control.HI_MASK);
    }

    private static String labelAt(Sample s, long addr) {
        return labelAt(s.labels(), addr);
    }

    /** The name nvdisasm prints for a branch target: a function or {@code .L_x_N} label, never {@code .text.*}. */
    public static String labelAt(Map<String, Long> labels, long addr) {
        String best = null;
        for (Map.Entry<String, Long> e : labels.entrySet()) {
            if (e.getValue() == addr && !e.getKey().startsWith(".text.")
                    && (best == null || e.getKey().compareTo(best) < 0)) {
                best = e.getKey();
            }
        }
        return best;
    }

    /**
     * Whether nvdisasm's text for the sample depends on more than its word and address: a label that is not in its
     * own section (a relocated call target), which only the cubin's relocations can name.
     */
    public static boolean needsRelocation(Sample s) {
        if (s.text().indexOf('@', 1) >= 0) {
            return true; // 32@hi(sym), 32@lo(...), .L_x_0@srel: relocation expressions
        }
        for (Lexeme x : SassLexer.lex(s.text()).lexemes()) {
            if (x.type() == Lexeme.Type.LABEL && !s.labels().containsKey(x.labelName())) {
                return true;
            }
        }
        return false;
    }

    static String identity(SassFormData f) {
        return f.key() + "|" + f.mask() + "|" + f.bits() + "|" + f.pieces() + "|" + f.slots();
    }

    static int keyOf(long lo, long hi) {
        return (int) (lo & 0xfff) | (int) ((hi >>> 27) & 1) << 12;
    }

    static String mnemonicOf(String text) {
        String t = text;
        if (t.startsWith("@")) {
            int sp = t.indexOf(' ');
            t = sp < 0 ? "" : t.substring(sp + 1);
        }
        int sp = t.indexOf(' ');
        return sp < 0 ? t : t.substring(0, sp);
    }

    private static String types(SassLexer.Lexed lx) {
        StringBuilder sb = new StringBuilder();
        for (Lexeme x : lx.lexemes()) {
            sb.append(x.type() == Lexeme.Type.REG ? x.prefix() : x.type().name()).append(',');
        }
        return sb.toString();
    }

    private static String poolId(Lexed l) {
        String skel = l.lex.skeleton();
        int at = skel.indexOf(l.mnemonic);
        String opSkel = at < 0 ? skel : skel.substring(0, at) + "$" + skel.substring(at + l.mnemonic.length());
        return l.key + "|" + opSkel + "|" + types(l.lex);
    }

    // ---------------------------------------------------------------------------------------------- solving

    private Solution[] solvePool(List<Lexed> pool, boolean usePriors) {
        Lexed first = pool.get(0);
        int n = first.lex.lexemes().size();
        Solution[] sol = new Solution[n];
        long usedLo = 0, usedHi = 0;
        // Order: registers, then labels, then numbers.
        List<Integer> order = new ArrayList<>();
        for (int pri = 0; pri < 3; pri++) {
            for (int i = 0; i < n; i++) {
                Lexeme.Type t = first.lex.lexemes().get(i).type();
                int p = t == Lexeme.Type.REG ? 0 : t == Lexeme.Type.LABEL ? 1 : 2;
                if (p == pri) {
                    order.add(i);
                }
            }
        }
        for (int i : order) {
            Solution s = solveSlot(pool, i, ALLOWED_LO & ~usedLo, ALLOWED_HI & ~usedHi, usePriors);
            if (s != null) {
                long[] m = new BitField(s.positions()).mask();
                usedLo |= m[0];
                usedHi |= m[1];
            }
            sol[i] = s;
        }
        return sol;
    }

    private static final int[] REG_WIDTH_R = {8};

    private Solution solveSlot(List<Lexed> pool, int slot, long allowLo, long allowHi, boolean usePriors) {
        Lexeme l0 = pool.get(0).lex.lexemes().get(slot);
        boolean varies = false;
        for (Lexed l : pool) {
            Lexeme x = l.lex.lexemes().get(slot);
            if (!x.text().equals(l0.text()) || l0.type() == Lexeme.Type.LABEL) {
                varies = true;
                break;
            }
        }
        if (!varies) {
            return null;
        }
        String ctx = pool.get(0).lex.pieces().get(slot);
        String priorKey = pool.get(0).key + "|" + slot;
        switch (l0.type()) {
            case REG -> {
                SlotKind kind = SlotKind.forPrefix(l0.prefix());
                int w = switch (kind) {
                    case GPR -> 8;
                    case UGPR -> 6;
                    case BAR -> 4;
                    default -> 3;
                };
                long[] enc = new long[pool.size()];
                for (int i = 0; i < enc.length; i++) {
                    enc[i] = pool.get(i).lex.lexemes().get(slot).number();
                }
                int[] pos = locate(pool, enc, w, allowLo, allowHi, usePriors, priorKey, kind.name());
                return pos == null ? null : new Solution(kind, pos, 0);
            }
            case LABEL -> {
                for (int shift : new int[] {2, 0}) {
                    long[] enc = new long[pool.size()];
                    boolean ok = true;
                    for (int i = 0; i < enc.length && ok; i++) {
                        Lexed l = pool.get(i);
                        Long target = l.s.labels().get(l.lex.lexemes().get(slot).labelName());
                        if (target == null) {
                            ok = false;
                        } else {
                            enc[i] = (target - l.s.address() - 16) >> shift;
                        }
                    }
                    if (!ok) {
                        return null;
                    }
                    for (int w = 60 - shift; w >= 16; w--) {
                        int[] pos = locate(pool, enc, w, allowLo, allowHi, usePriors, priorKey, "LABEL");
                        if (pos != null) {
                            Solution sol = new Solution(SlotKind.LABEL, pos, shift);
                            labelPriors.putIfAbsent(pool.get(0).key, sol);
                            return sol;
                        }
                    }
                }
                // Too few samples to place the offset: use the layout another pool of this opcode settled, if
                // every sample agrees with it.
                Solution prior = usePriors ? labelPriors.get(pool.get(0).key) : null;
                if (prior != null && agrees(pool, slot, prior, allowLo, allowHi)) {
                    return prior;
                }
                if (usePriors) {
                    for (Solution any : labelPriors.values()) {
                        if (agrees(pool, slot, any, allowLo, allowHi)) {
                            return any;
                        }
                    }
                }
                return null;
            }
            case HEX -> {
                boolean plus = false, minus = false;
                for (Lexed l : pool) {
                    char c = l.lex.lexemes().get(slot).text().charAt(0);
                    plus |= c == '+';
                    minus |= c == '-';
                }
                SlotKind kind = plus ? SlotKind.SHEX_PLUS : minus ? SlotKind.SHEX : SlotKind.HEX;
                for (int w : hexWidths(ctx, plus)) {
                    long[] enc = new long[pool.size()];
                    boolean fits = true;
                    for (int i = 0; i < enc.length && fits; i++) {
                        long v = pool.get(i).lex.lexemes().get(slot).number();
                        if (kind == SlotKind.HEX ? (v >>> w) != 0 : (v < -(1L << (w - 1)) || v >= (1L << (w - 1)))) {
                            fits = false;
                        }
                        enc[i] = v & ((1L << w) - 1);
                    }
                    if (!fits) {
                        continue;
                    }
                    int[] pos = locate(pool, enc, w, allowLo, allowHi, usePriors, priorKey, "HEX" + w);
                    if (pos != null) {
                        return new Solution(kind, pos, 0);
                    }
                }
                return null;
            }
            case DEC -> {
                for (SlotKind kind : new SlotKind[] {SlotKind.F32, SlotKind.F64HI, SlotKind.F16}) {
                    long[] enc = new long[pool.size()];
                    boolean ok = true;
                    for (int i = 0; i < enc.length && ok; i++) {
                        String t = pool.get(i).lex.lexemes().get(slot).text();
                        double d;
                        try {
                            d = Double.parseDouble(t.replace("+INF", "Infinity").replace("-INF", "-Infinity"));
                        } catch (NumberFormatException e) {
                            ok = false;
                            continue;
                        }
                        if (kind == SlotKind.F32) {
                            float f = (float) d;
                            ok = (double) f == d || Double.isInfinite(d);
                            enc[i] = Float.floatToRawIntBits(f) & 0xffffffffL;
                        } else if (kind == SlotKind.F64HI) {
                            long b = Double.doubleToRawLongBits(d);
                            ok = (b & 0xffffffffL) == 0;
                            enc[i] = b >>> 32;
                        } else {
                            int h = halfBits(d);
                            ok = h >= 0;
                            enc[i] = h;
                        }
                    }
                    if (!ok) {
                        continue;
                    }
                    int[] pos = locate(pool, enc, kind == SlotKind.F16 ? 16 : 32, allowLo, allowHi, usePriors, priorKey,
                            kind.name());
                    if (pos != null) {
                        return new Solution(kind, pos, 0);
                    }
                }
                return null;
            }
            default -> {
                return null;
            }
        }
    }

    private static boolean agrees(List<Lexed> pool, int slot, Solution sol, long allowLo, long allowHi) {
        BitField f = new BitField(sol.positions());
        long[] m = f.mask();
        if ((m[0] & ~allowLo) != 0 || (m[1] & ~allowHi) != 0) {
            return false;
        }
        for (Lexed l : pool) {
            Long target = l.s.labels().get(l.lex.lexemes().get(slot).labelName());
            if (target == null) {
                return false;
            }
            long v = SlotKindAccess.signExtend(f.extract(l.s.lo(), l.s.hi()), f.width()) << sol.shift();
            if (l.s.address() + 16 + v != target) {
                return false;
            }
        }
        return true;
    }

    /** Sign extension, as the engine's LABEL kind does it. */
    private static final class SlotKindAccess {
        static long signExtend(long v, int width) {
            return width >= 64 ? v : (v << (64 - width)) >> (64 - width);
        }
    }

    private static int halfBits(double d) {
        float f = (float) d;
        if ((double) f != d && !Double.isInfinite(d)) {
            return -1;
        }
        int b = Float.floatToRawIntBits(f);
        int sign = (b >>> 16) & 0x8000;
        int exp = ((b >>> 23) & 0xff) - 127 + 15;
        int mant = b & 0x7fffff;
        if (Float.isInfinite(f)) {
            return sign | 0x7c00;
        }
        if (f == 0) {
            return sign;
        }
        if (exp >= 31) {
            return -1;
        }
        if (exp <= 0) {
            // subnormal half
            int shift = 14 - exp;
            int full = mant | 0x800000;
            if (shift > 24 || (full & ((1 << shift) - 1)) != 0) {
                return -1;
            }
            return sign | (full >>> shift);
        }
        if ((mant & 0x1fff) != 0) {
            return -1;
        }
        return sign | (exp << 10) | (mant >>> 13);
    }

    private static int[] hexWidths(String ctx, boolean signedPlus) {
        if (ctx.endsWith("c[")) {
            return new int[] {5, 4, 3};
        }
        if (ctx.endsWith("][") && ctx.contains("c[")) {
            return new int[] {16, 14};
        }
        if (signedPlus || ctx.endsWith("[")) {
            return new int[] {24, 20, 17, 16, 14, 13, 12, 11, 10, 9, 8};
        }
        return new int[] {32, 24, 20, 17, 16, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1};
    }

    /**
     * Finds the instruction bit of every value bit: candidates are the allowed bits that equal value bit j in every
     * sample; singletons anchor, contiguity extends; with no anchor a unique contiguous window, or the prior start.
     */
    private int[] locate(List<Lexed> pool, long[] enc, int w, long allowLo, long allowHi, boolean usePriors,
                         String priorKey, String kindName) {
        long[] cLo = new long[w];
        long[] cHi = new long[w];
        for (int j = 0; j < w; j++) {
            cLo[j] = allowLo;
            cHi[j] = allowHi;
        }
        for (int i = 0; i < enc.length; i++) {
            long lo = pool.get(i).s.lo(), hi = pool.get(i).s.hi();
            for (int j = 0; j < w; j++) {
                if (((enc[i] >>> j) & 1) != 0) {
                    cLo[j] &= lo;
                    cHi[j] &= hi;
                } else {
                    cLo[j] &= ~lo;
                    cHi[j] &= ~hi;
                }
            }
        }
        for (int j = 0; j < w; j++) {
            if (cLo[j] == 0 && cHi[j] == 0) {
                return null;
            }
        }
        int[] pos = new int[w];
        java.util.Arrays.fill(pos, -1);
        boolean anyAnchor = false;
        for (int j = 0; j < w; j++) {
            if (Long.bitCount(cLo[j]) + Long.bitCount(cHi[j]) == 1) {
                pos[j] = cLo[j] != 0 ? Long.numberOfTrailingZeros(cLo[j]) : 64 + Long.numberOfTrailingZeros(cHi[j]);
                anyAnchor = true;
            }
        }
        if (!anyAnchor) {
            List<Integer> starts = new ArrayList<>();
            for (int s = 0; s + w <= 128; s++) {
                boolean ok = true;
                for (int j = 0; j < w && ok; j++) {
                    ok = has(cLo[j], cHi[j], s + j);
                }
                if (ok) {
                    starts.add(s);
                }
            }
            Integer pick = null;
            if (starts.size() == 1) {
                pick = starts.get(0);
            } else if (usePriors && !starts.isEmpty()) {
                Integer prior = priorStarts.get(priorKey + "|" + kindName);
                if (prior == null) {
                    prior = priorStarts.get(kindName + "|" + priorKey.substring(priorKey.indexOf('|') + 1));
                }
                if (prior != null && starts.contains(prior)) {
                    pick = prior;
                }
            }
            if (pick == null) {
                return null;
            }
            for (int j = 0; j < w; j++) {
                pos[j] = pick + j;
            }
            return pos;
        }
        boolean changed = true;
        while (changed) {
            changed = false;
            for (int j = 1; j < w; j++) {
                if (pos[j] < 0 && pos[j - 1] >= 0 && has(cLo[j], cHi[j], pos[j - 1] + 1)) {
                    pos[j] = pos[j - 1] + 1;
                    changed = true;
                }
            }
            for (int j = w - 2; j >= 0; j--) {
                if (pos[j] < 0 && pos[j + 1] >= 0 && has(cLo[j], cHi[j], pos[j + 1] - 1)) {
                    pos[j] = pos[j + 1] - 1;
                    changed = true;
                }
            }
        }
        boolean[] used = new boolean[128];
        for (int p : pos) {
            if (p < 0 || used[p]) {
                return null;
            }
            used[p] = true;
        }
        return pos;
    }

    private static boolean has(long lo, long hi, int p) {
        if (p < 0 || p > 127) {
            return false;
        }
        return p < 64 ? ((lo >>> p) & 1) != 0 : ((hi >>> (p - 64)) & 1) != 0;
    }

    private void recordPriors(Lexed first, Solution[] sol) {
        for (int i = 0; i < sol.length; i++) {
            Solution s = sol[i];
            if (s == null) {
                continue;
            }
            String kindName = s.kind() == SlotKind.HEX || s.kind() == SlotKind.SHEX || s.kind() == SlotKind.SHEX_PLUS
                    ? "HEX" + s.positions().length : s.kind().name();
            if (isContiguous(s.positions())) {
                priorStarts.putIfAbsent(first.key + "|" + i + "|" + kindName, s.positions()[0]);
                priorStarts.putIfAbsent(kindName + "|" + i, s.positions()[0]);
            }
        }
    }

    private static boolean isContiguous(int[] p) {
        for (int j = 1; j < p.length; j++) {
            if (p[j] != p[j - 1] + 1) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------------- forms

    private boolean invisibleOpex(int key) {
        return opexKeys.contains(key) && !reuseKeys.contains(key);
    }

    private List<SassFormData> buildForms(List<Lexed> pool, Solution[] sol) {
        long fieldLo = 0, fieldHi = 0;
        for (Solution s : sol) {
            if (s != null) {
                long[] m = new BitField(s.positions()).mask();
                fieldLo |= m[0];
                fieldHi |= m[1];
            }
        }
        long maskLo = ~fieldLo & ~CTRL_LO;
        long maskHi = ~fieldHi & ~CTRL_HI & (invisibleOpex(pool.get(0).key) ? ~Control.OPEX_MASK : -1L);
        Map<String, SassFormData> out = new LinkedHashMap<>();
        for (int i = 0; i < sol.length; i++) {
            if (sol[i] == null && pool.get(0).lex.lexemes().get(i).type() == Lexeme.Type.LABEL) {
                log.add("unplaced branch offset, no form: " + pool.get(0).s.text());
                return List.of();
            }
        }
        for (Lexed l : pool) {
            List<SassSlotData> slots = new ArrayList<>();
            for (int i = 0; i < sol.length; i++) {
                Solution s = sol[i];
                slots.add(s == null ? SassSlotData.literal(l.lex.lexemes().get(i).text())
                        : SassSlotData.field(s.kind().name(), new BitField(s.positions()).text(), s.shift()));
            }
            // nvdisasm never prints "@PT" / "@UPT": a guard field never holds the true predicate in this form.
            List<String> exclude = sol.length > 0 && sol[0] != null && l.lex.pieces().get(0).equals("@")
                    && (sol[0].kind() == SlotKind.PRED || sol[0].kind() == SlotKind.UPRED) ? List.of("0=0x7") : List.of();
            SassFormData f = new SassFormData(l.mnemonic, l.key, l.lex.pieces(), SassIsa.hex128(maskLo, maskHi),
                    SassIsa.hex128(l.s.lo() & maskLo, l.s.hi() & maskHi), slots, exclude);
            out.putIfAbsent(identity(f), f);
        }
        return new ArrayList<>(out.values());
    }

    /** A form fixing every non-control bit, all slots literal (labels stay fields when they can). */
    private SassFormData exactForm(Lexed l) {
        List<SassSlotData> slots = new ArrayList<>();
        for (Lexeme x : l.lex.lexemes()) {
            if (x.type() == Lexeme.Type.LABEL) {
                return null;
            }
            slots.add(SassSlotData.literal(x.text()));
        }
        long maskLo = ~CTRL_LO, maskHi = ~CTRL_HI & (invisibleOpex(l.key) ? ~Control.OPEX_MASK : -1L);
        return new SassFormData(l.mnemonic, l.key, l.lex.pieces(), SassIsa.hex128(maskLo, maskHi),
                SassIsa.hex128(l.s.lo() & maskLo, l.s.hi() & maskHi), slots, List.of());
    }
}
