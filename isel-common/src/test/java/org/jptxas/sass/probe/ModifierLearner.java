package org.jptxas.sass.probe;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.jptxas.sass.BitField;
import org.jptxas.sass.SassForm;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassLexer;
import org.jptxas.sass.SassPrinter;
import org.jptxas.sass.SassSlot;
import org.jptxas.sass.oracle.RawOracle;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassModifierClass;
import org.jptxas.tables.sass.SassModifierGroup;

/**
 * Learns each instruction class's modifiers as independent enums (the probe's {@code modifiers} step).
 * <ol>
 *   <li>Candidate enums from ptxas's samples: two learned forms of one key with the same operands whose mnemonics
 *   differ in one token (FSETP.GT.AND / FSETP.LT.AND, or FSETP.GE.AND / FSETP.GE.FTZ.AND) show that token's bits;
 *   tokens swapped for each other share an enum, enums whose bits overlap merge.</li>
 *   <li>Names by bit flips: on an example word of every key (a learned form, operands zero) each enum is set to all
 *   its values and nvdisasm reads the words; a value whose text differs from the example's in that one mnemonic
 *   token (replaced, dropped or inserted) is named by it, values nvdisasm refuses or prints otherwise are left out.
 *   The token positions give the print order.</li>
 *   <li>Confirmation: every form the engine then composes ({@code SassIsa.composedForms}) is encoded and must be
 *   read back by nvdisasm exactly as jptxas prints it; the spellings that fail are recorded as refused.</li>
 * </ol>
 */
public final class ModifierLearner {
    private final String sm;
    private final String oracleSm;
    private final List<SassFormData> data;
    private final SassIsa isa;
    private final List<String> log = new ArrayList<>();

    ModifierLearner(String sm, List<SassFormData> data) {
        this.sm = sm;
        this.oracleSm = sm.equals("sm_90") ? "sm_90a" : sm;
        this.data = data;
        this.isa = new SassIsa(sm, data);
    }

    List<String> log() {
        return log;
    }

    /** A candidate enum of one base mnemonic: the tokens seen swapped and the bits they changed. */
    private static final class Candidate {
        final Set<String> tokens = new LinkedHashSet<>();
        long lo, hi;
    }

    List<SassModifierClass> learn() {
        Map<String, List<Candidate>> candidates = candidates();
        // Enumerate every candidate enum on an example word of every key of its mnemonic.
        record Probe(String mnemonic, int key, SassForm anchor, BitField field, long anchorValue, int firstWord) {}
        List<Probe> probes = new ArrayList<>();
        List<long[]> words = new ArrayList<>();
        Map<Integer, List<SassForm>> byKey = new TreeMap<>();
        for (SassForm f : isa.forms()) {
            byKey.computeIfAbsent(f.key(), k -> new ArrayList<>()).add(f);
        }
        for (Map.Entry<Integer, List<SassForm>> e : byKey.entrySet()) {
            Map<String, List<SassForm>> byBase = new LinkedHashMap<>();
            for (SassForm f : e.getValue()) {
                byBase.computeIfAbsent(base(f.mnemonic()), k -> new ArrayList<>()).add(f);
            }
            for (Map.Entry<String, List<SassForm>> b : byBase.entrySet()) {
                // One example per key, so the enums' print positions are comparable: the form fixing most enums.
                List<Candidate> cs = candidates.getOrDefault(b.getKey(), List.of()).stream()
                        .filter(c -> Long.bitCount(c.lo) + Long.bitCount(c.hi) <= 6).toList();
                SassForm anchor = anchor(b.getValue(), cs);
                if (anchor == null) {
                    continue;
                }
                for (Candidate c : cs) {
                    if ((anchor.maskLo() & c.lo) != c.lo || (anchor.maskHi() & c.hi) != c.hi) {
                        continue;
                    }
                    BitField field = new BitField(positions(c.lo, c.hi));
                    long[] example = example(anchor, 0);
                    long anchorValue = field.extract(example[0], example[1]);
                    probes.add(new Probe(b.getKey(), e.getKey(), anchor, field, anchorValue, words.size()));
                    for (long v = 0; v < 1L << field.width(); v++) {
                        long[] w = example.clone();
                        set(field, v, w);
                        words.add(w);
                    }
                }
            }
        }
        if (System.getenv("SASS_PROBE_DEBUG") != null) {
            candidates.forEach((op, cs) -> cs.forEach(c -> log.add("  candidate " + op + " " + c.tokens + " "
                    + SassIsa.hex128(c.lo, c.hi))));
        }
        log.add(sm + ": " + candidates.values().stream().mapToInt(List::size).sum() + " candidate enums, "
                + probes.size() + " (key, enum) probes, " + words.size() + " words");
        RawOracle.Read[] read = RawOracle.read(words, oracleSm);
        // Per key: the named enums with their print positions.
        record Named(String kind, int position, BitField field, Map<String, Long> values) {}
        Map<String, List<Named>> perClass = new LinkedHashMap<>();
        for (Probe p : probes) {
            RawOracle.Read anchorRead = read[p.firstWord() + (int) p.anchorValue()];
            if (anchorRead == null) {
                continue;
            }
            Text a = Text.of(anchorRead.text());
            int w = p.field().width();
            Text[] texts = new Text[1 << w];
            for (int v = 0; v < texts.length; v++) {
                RawOracle.Read r = read[p.firstWord() + v];
                Text t = r == null ? null : Text.of(r.text());
                texts[v] = t != null && t.guard.equals(a.guard) && t.opcode.equals(a.opcode) ? t : null;
            }
            if (System.getenv("SASS_PROBE_DEBUG_KEY") != null
                    && Integer.parseInt(System.getenv("SASS_PROBE_DEBUG_KEY")) == p.key()) {
                for (int v = 0; v < texts.length; v++) {
                    RawOracle.Read r = read[p.firstWord() + v];
                    log.add("  probe " + p.field().text() + " v=" + v + " " + (r == null ? null : r.text()));
                }
            }
            // Bits of one enum: flipping two of them changes one token; bits of two enums change two tokens.
            int[] parent = new int[w];
            for (int j = 0; j < w; j++) {
                parent[j] = j;
            }
            int av = (int) p.anchorValue();
            for (int j = 0; j < w; j++) {
                for (int k = j + 1; k < w; k++) {
                    Text t = texts[av ^ (1 << j) ^ (1 << k)];
                    if (t != null && Change.of(a, t) != null) {
                        parent[root(parent, j)] = root(parent, k);
                    }
                }
            }
            Map<Integer, List<Integer>> components = new TreeMap<>();
            for (int j = 0; j < w; j++) {
                components.computeIfAbsent(root(parent, j), x -> new ArrayList<>()).add(j);
            }
            int[] positions = p.field().positions();
            for (List<Integer> comp : components.values()) {
                int[] sub = comp.stream().mapToInt(j -> positions[j]).toArray();
                int position = Integer.MIN_VALUE;
                String kind = null;
                String anchorName = null;
                Map<Long, String> names = new TreeMap<>();
                long anchorSub = 0;
                for (int b = 0; b < comp.size(); b++) {
                    anchorSub |= (long) ((av >>> comp.get(b)) & 1) << b;
                }
                for (long u = 0; u < 1L << comp.size(); u++) {
                    if (u == anchorSub) {
                        continue;
                    }
                    int v = av;
                    for (int b = 0; b < comp.size(); b++) {
                        v = (v & ~(1 << comp.get(b))) | (int) (((u >>> b) & 1) << comp.get(b));
                    }
                    Text t = texts[v];
                    Change d = t == null ? null : Change.of(a, t);
                    // nvdisasm names values it has no name for "???7" or "INVALID3": those are not modifier values.
                    if (d == null || !d.valid()) {
                        continue;
                    }
                    if (position == Integer.MIN_VALUE) {
                        position = d.position();
                        kind = d.kind();
                        anchorName = d.before();
                    } else if (position != d.position() || !kind.equals(d.kind()) || !anchorName.equals(d.before())) {
                        continue;
                    }
                    names.put(u, d.after());
                }
                if (anchorName == null || names.isEmpty()) {
                    continue;
                }
                names.put(anchorSub, anchorName);
                Map<String, Long> values = new LinkedHashMap<>();
                for (Map.Entry<Long, String> n : names.entrySet()) {
                    values.putIfAbsent(n.getValue(), n.getKey());
                }
                if (values.size() < 2) {
                    continue;
                }
                perClass.computeIfAbsent(p.mnemonic() + "/" + p.key(), k -> new ArrayList<>())
                        .add(new Named(kind, position, new BitField(sub), values));
            }
        }
        List<SassModifierClass> classes = new ArrayList<>();
        for (Map.Entry<String, List<Named>> e : perClass.entrySet()) {
            List<Named> named = new ArrayList<>(e.getValue());
            named.sort(java.util.Comparator.comparing(Named::kind).thenComparingInt(Named::position));
            // Two enums at one position, or sharing bits, cannot be composed independently: keep the first.
            List<SassModifierGroup> groups = new ArrayList<>();
            Set<String> usedPositions = new java.util.HashSet<>();
            long usedLo = 0, usedHi = 0;
            for (Named n : named) {
                long[] m = n.field().mask();
                if (!usedPositions.add(n.kind() + n.position()) || (m[0] & usedLo) != 0 || (m[1] & usedHi) != 0) {
                    continue;
                }
                usedLo |= m[0];
                usedHi |= m[1];
                Map<String, String> values = new LinkedHashMap<>();
                n.values().entrySet().stream().sorted(Map.Entry.comparingByValue())
                        .forEach(v -> values.put(v.getKey(), "0x" + Long.toHexString(v.getValue())));
                groups.add(n.kind().equals("m") ? new SassModifierGroup(n.field().text(), values)
                        : new SassModifierGroup(n.field().text(), values, Integer.parseInt(n.kind().substring(1,
                                n.kind().length() - 1)), n.kind().endsWith("p") ? "prefix" : "suffix"));
            }
            String[] mk = e.getKey().split("/");
            classes.add(new SassModifierClass(mk[0], Integer.parseInt(mk[1]), groups, List.of()));
        }
        if (System.getenv("SASS_PROBE_DEBUG") != null) {
            classes.forEach(c -> log.add("  class " + c));
        }
        return confirm(classes, c -> true);
    }

    /**
     * Confirms committed classes again without relearning them (the probe's {@code confirm} step): the composed forms
     * of the classes {@code which} accepts are read by nvdisasm, and the spellings it refuses or prints otherwise
     * join their class's refused list. Every class is returned, in order; null if the refusals do not settle.
     */
    List<SassModifierClass> reconfirm(List<SassModifierClass> classes,
            java.util.function.Predicate<SassModifierClass> which) {
        List<SassModifierClass> out = confirm(classes, which);
        return out.isEmpty() && !classes.isEmpty() ? null : out;
    }

    /**
     * Composes every form the classes allow, reads each with nvdisasm (those of the classes {@code which} accepts),
     * and refuses the spellings that differ.
     */
    private List<SassModifierClass> confirm(List<SassModifierClass> classes,
            java.util.function.Predicate<SassModifierClass> which) {
        Set<String> checked = new java.util.HashSet<>();
        classes.stream().filter(which).forEach(c -> checked.add(c.mnemonic() + "/" + c.key()));
        for (int round = 0; round < 4; round++) {
            SassIsa composedIsa = new SassIsa(sm, data, classes);
            List<SassForm> composed = composedIsa.composedForms().stream()
                    .filter(f -> checked.contains(base(f.mnemonic()) + "/" + f.key())).toList();
            Map<String, Set<String>> refused = new HashMap<>();
            List<long[]> words = new ArrayList<>();
            List<SassForm> owners = new ArrayList<>();
            for (SassForm f : composed) {
                long[] w = null;
                for (int variant = 0; variant < EXAMPLE_VARIANTS && w == null; variant++) {
                    long[] x = example(f, variant);
                    if (composedIsa.decode(x[0], x[1]) instanceof SassInstruction.Known k && k.form() == f) {
                        w = x;
                    }
                }
                if (w == null) {
                    refused.computeIfAbsent(base(f.mnemonic()) + "/" + f.key(), k -> new LinkedHashSet<>())
                            .add(f.refusalKey());
                    continue;
                }
                words.add(w);
                owners.add(f);
            }
            RawOracle.Read[] read = RawOracle.read(words, oracleSm);
            int exact = 0;
            for (int i = 0; i < words.size(); i++) {
                SassInstruction inst = composedIsa.decode(words.get(i)[0], words.get(i)[1]);
                boolean ok = read[i] != null && SassLexer.normalize(SassPrinter.text(inst, read[i].address(), null))
                        .equals(read[i].text());
                if (ok) {
                    exact++;
                } else {
                    SassForm f = owners.get(i);
                    refused.computeIfAbsent(base(f.mnemonic()) + "/" + f.key(), k -> new LinkedHashSet<>())
                            .add(f.refusalKey());
                    if (System.getenv("SASS_PROBE_DEBUG") != null) {
                        log.add("  refused " + f.mnemonic() + ": nvdisasm "
                                + (read[i] == null ? "rejects the word" : "'" + read[i].text() + "'") + ", jptxas '"
                                + SassPrinter.text(inst, read[i] == null ? 0 : read[i].address(), null) + "'");
                    }
                }
            }
            int newlyRefused = refused.values().stream().mapToInt(Set::size).sum();
            log.add(sm + ": round " + round + ": " + composed.size() + " composed forms, " + exact + " read back exactly, "
                    + newlyRefused + " spellings refused");
            if (newlyRefused == 0) {
                return classes;
            }
            List<SassModifierClass> next = new ArrayList<>();
            for (SassModifierClass c : classes) {
                Set<String> r = new LinkedHashSet<>(c.refused());
                r.addAll(refused.getOrDefault(c.mnemonic() + "/" + c.key(), Set.of()));
                List<String> sorted = new ArrayList<>(r);
                java.util.Collections.sort(sorted);
                next.add(new SassModifierClass(c.mnemonic(), c.key(), c.groups(), sorted));
            }
            classes = next;
        }
        // Still not settled: keep only classes whose composed forms were all confirmed in the last round.
        log.add(sm + ": modifier confirmation did not settle; dropping the tables' modifier classes");
        return List.of();
    }

    /** Candidate enums per base mnemonic, from pairs of learned forms that differ in one mnemonic token. */
    private Map<String, List<Candidate>> candidates() {
        Map<String, List<SassForm>> shapes = new LinkedHashMap<>();
        for (SassForm f : isa.forms()) {
            shapes.computeIfAbsent(f.key() + "|" + shape(f), k -> new ArrayList<>()).add(f);
        }
        Map<String, Map<String, String>> parent = new HashMap<>();
        Map<String, Map<String, long[]>> bits = new HashMap<>();
        for (List<SassForm> group : shapes.values()) {
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    SassForm a = group.get(i), b = group.get(j);
                    Diff d = Diff.of(tokens(a.mnemonic()), tokens(b.mnemonic()));
                    long dLo = a.bitsLo() ^ b.bitsLo(), dHi = a.bitsHi() ^ b.bitsHi();
                    if (d == null || (dLo == 0 && dHi == 0)) {
                        continue;
                    }
                    String op = base(a.mnemonic());
                    Map<String, String> uf = parent.computeIfAbsent(op, k -> new HashMap<>());
                    Map<String, long[]> bs = bits.computeIfAbsent(op, k -> new HashMap<>());
                    // The no-token value is per enum, never a shared node: .FTZ and .U32 must not merge through it.
                    String x = d.before.isEmpty() ? "+" + d.after : d.before;
                    String y = d.after.isEmpty() ? "+" + d.before : d.after;
                    String rx = find(uf, x), ry = find(uf, y);
                    if (!rx.equals(ry)) {
                        uf.put(rx, ry);
                    }
                    String root = find(uf, x);
                    long[] m = bs.computeIfAbsent(root, k -> new long[2]);
                    for (String r : new String[] {rx, ry}) {
                        long[] mr = r.equals(root) ? null : bs.remove(r);
                        if (mr != null) {
                            m[0] |= mr[0];
                            m[1] |= mr[1];
                        }
                    }
                    m[0] |= dLo;
                    m[1] |= dHi;
                }
            }
        }
        // Operand modifiers: forms of one key and mnemonic whose texts differ in one operand's decoration.
        Map<String, List<SassForm>> same = new LinkedHashMap<>();
        for (SassForm f : isa.forms()) {
            same.computeIfAbsent(f.key() + "|" + f.mnemonic() + "|" + f.slots() + "|" + f.maskLo() + "|" + f.maskHi()
                    + "|" + f.pieces().get(0).startsWith("@"), k -> new ArrayList<>()).add(f);
        }
        for (List<SassForm> group : same.values()) {
            for (int i = 0; i < group.size(); i++) {
                for (int j = i + 1; j < group.size(); j++) {
                    SassForm a = group.get(i), b = group.get(j);
                    List<String> da = decorations(a), db = decorations(b);
                    if (da == null || db == null || da.size() != db.size()) {
                        continue;
                    }
                    int at = -1, diffs = 0;
                    for (int k = 0; k < da.size(); k++) {
                        if (!da.get(k).equals(db.get(k))) {
                            at = k;
                            diffs++;
                        }
                    }
                    long dLo = a.bitsLo() ^ b.bitsLo(), dHi = a.bitsHi() ^ b.bitsHi();
                    if (diffs != 1 || (dLo == 0 && dHi == 0)) {
                        continue;
                    }
                    String op = base(a.mnemonic());
                    Map<String, String> uf = parent.computeIfAbsent(op, k -> new HashMap<>());
                    Map<String, long[]> bs = bits.computeIfAbsent(op, k -> new HashMap<>());
                    String x = "@" + at + ":" + da.get(at), y = "@" + at + ":" + db.get(at);
                    String rx = find(uf, x), ry = find(uf, y);
                    if (!rx.equals(ry)) {
                        uf.put(rx, ry);
                    }
                    String root = find(uf, x);
                    long[] m = bs.computeIfAbsent(root, k -> new long[2]);
                    for (String r : new String[] {rx, ry}) {
                        long[] mr = r.equals(root) ? null : bs.remove(r);
                        if (mr != null) {
                            m[0] |= mr[0];
                            m[1] |= mr[1];
                        }
                    }
                    m[0] |= dLo;
                    m[1] |= dHi;
                }
            }
        }
        Map<String, List<Candidate>> out = new TreeMap<>();
        for (String op : parent.keySet()) {
            Map<String, String> uf = parent.get(op);
            Map<String, Candidate> byRoot = new LinkedHashMap<>();
            for (String t : uf.keySet()) {
                String r = find(uf, t);
                Candidate c = byRoot.computeIfAbsent(r, k -> new Candidate());
                c.tokens.add(t.startsWith("+") ? t.substring(1) : t);
            }
            for (Map.Entry<String, long[]> e : bits.get(op).entrySet()) {
                Candidate c = byRoot.get(find(uf, e.getKey()));
                if (c != null) {
                    c.lo |= e.getValue()[0];
                    c.hi |= e.getValue()[1];
                }
            }
            // Enums whose bits overlap are one enum.
            List<Candidate> merged = new ArrayList<>();
            for (Candidate c : byRoot.values()) {
                if (c.lo == 0 && c.hi == 0) {
                    continue;
                }
                boolean again = true;
                while (again) {
                    again = false;
                    for (java.util.Iterator<Candidate> it = merged.iterator(); it.hasNext();) {
                        Candidate m = it.next();
                        if ((m.lo & c.lo) != 0 || (m.hi & c.hi) != 0) {
                            c.lo |= m.lo;
                            c.hi |= m.hi;
                            c.tokens.addAll(m.tokens);
                            it.remove();
                            again = true;
                        }
                    }
                }
                merged.add(c);
            }
            out.put(op, merged);
        }
        return out;
    }

    /** Replaces the field's bits in {@code w} with {@code value} ({@link BitField#insert} only ORs). */
    static void set(BitField field, long value, long[] w) {
        long[] m = field.mask();
        w[0] &= ~m[0];
        w[1] &= ~m[1];
        field.insert(value, w);
    }

    private static int root(int[] parent, int x) {
        while (parent[x] != x) {
            x = parent[x];
        }
        return x;
    }

    private static String find(Map<String, String> uf, String x) {
        uf.putIfAbsent(x, x);
        String r = x;
        while (!uf.get(r).equals(r)) {
            r = uf.get(r);
        }
        return r;
    }

    /** The learned form fixing the bits of most enums: unguarded and without exclusions if possible. */
    private static SassForm anchor(List<SassForm> forms, List<Candidate> cs) {
        SassForm best = null;
        int bestScore = Integer.MAX_VALUE;
        for (SassForm f : forms) {
            int covered = 0;
            for (Candidate c : cs) {
                if ((f.maskLo() & c.lo) == c.lo && (f.maskHi() & c.hi) == c.hi) {
                    covered++;
                }
            }
            if (covered == 0) {
                continue;
            }
            int score = -covered * 16 + (f.pieces().get(0).startsWith("@") ? 4 : 0) + f.exclusions().size() * 2
                    + (f.skeleton().contains(".reuse") ? 1 : 0);
            if (score < bestScore) {
                best = f;
                bestScore = score;
            }
        }
        return best;
    }

    /**
     * An example word of {@code f}, control bits clear. Variant 0 gives field i the value 2(i+1) (distinct even
     * registers R2, R4, ...: nvdisasm canonicalizes some instructions whose sources are one register, and register
     * pairs must be even); variant 1 zeroes every field, variant 2 sets each to 1.
     */
    /** How many example words {@link #example} makes per form. */
    public static final int EXAMPLE_VARIANTS = 4;

    public static long[] example(SassForm f, int variant) {
        long[] w = {f.bitsLo(), f.bitsHi()};
        int lastRegister = -1;
        for (int k = 0; k < f.slots().size(); k++) {
            if (f.slots().get(k) instanceof SassSlot.Field fd && fd.kind() == org.jptxas.sass.SlotKind.GPR) {
                lastRegister = k;
            }
        }
        int i = 0;
        for (SassSlot s : f.slots()) {
            if (s instanceof SassSlot.Field fd) {
                long max = (1L << fd.field().width()) - 1;
                // variant 3: the values nvdisasm names an IMAD alias by (IMAD.SHL for a*2^k+RZ): immediates are
                // powers of two, the last register is RZ
                long v = switch (variant) {
                    case 0 -> (2L * (i + 1)) & max;
                    case 1 -> 0;
                    case 2 -> 1;
                    default -> i == lastRegister ? 0xff & max : fd.kind() == org.jptxas.sass.SlotKind.GPR
                            ? (2L * (i + 1)) & max : (1L << (i + 1)) & max;
                };
                set(fd.field(), v, w);
            }
            i++;
        }
        return w;
    }

    /** The form's operand text and slots, with its mnemonic reduced to the base (modifier-free) name. */
    private static String shape(SassForm f) {
        List<String> p = new ArrayList<>(f.pieces());
        int mp = p.get(0).startsWith("@") ? 1 : 0;
        p.set(mp, p.get(mp).replace(f.mnemonic(), base(f.mnemonic())));
        return String.join("{}", p) + "|" + f.slots() + "|" + f.maskLo() + "|" + f.maskHi();
    }

    static String base(String mnemonic) {
        int dot = mnemonic.indexOf('.');
        return dot < 0 ? mnemonic : mnemonic.substring(0, dot);
    }

    static List<String> tokens(String mnemonic) {
        List<String> t = new ArrayList<>(Arrays.asList(mnemonic.split("\\.")));
        t.remove(0);
        return t;
    }

    private static int[] positions(long lo, long hi) {
        int[] p = new int[Long.bitCount(lo) + Long.bitCount(hi)];
        int n = 0;
        for (int b = 0; b < 128; b++) {
            if (((b < 64 ? lo >>> b : hi >>> (b - 64)) & 1) != 0) {
                p[n++] = b;
            }
        }
        return p;
    }

    /**
     * Per operand of a form (guard excluded), its prefix and suffix decorations: {@code [p0, s0, p1, s1, ...]}; null
     * for forms with reuse flags (those are not modifiers).
     */
    private static List<String> decorations(SassForm f) {
        List<String> pieces = f.pieces();
        int g = pieces.get(0).startsWith("@") ? 1 : 0;
        List<String> out = new ArrayList<>();
        for (int s = g; s < f.slots().size(); s++) {
            String before = pieces.get(s);
            int p = before.length();
            while (p > 0 && "-!~|".indexOf(before.charAt(p - 1)) >= 0) {
                p--;
            }
            String prefix = before.substring(p);
            String after = pieces.get(s + 1);
            int comma = after.indexOf(", ");
            String suffix = comma < 0 ? after : after.substring(0, comma);
            if (prefix.contains("|") && suffix.startsWith("|")) {
                suffix = suffix.substring(1);
            }
            if (suffix.contains(".reuse") || suffix.contains("[") || suffix.contains("]")) {
                return null;
            }
            out.add(prefix);
            out.add(suffix);
        }
        return out;
    }

    /** One operand split into its prefix decoration ({@code -}, {@code !}, {@code |}), body and suffix. */
    private record Operand(String prefix, String body, String suffix) {
        private static final java.util.regex.Pattern REG = java.util.regex.Pattern.compile("^(U?R\\d+|U?RZ|U?P\\d|U?PT)");

        static Operand of(String text) {
            int p = 0;
            while (p < text.length() && "-!~|".indexOf(text.charAt(p)) >= 0) {
                p++;
            }
            String prefix = text.substring(0, p);
            String body = text.substring(p);
            if (prefix.contains("|") && body.endsWith("|")) {
                body = body.substring(0, body.length() - 1);
            }
            java.util.regex.Matcher m = REG.matcher(body);
            if (m.find() && m.end() < body.length() && body.charAt(m.end()) == '.') {
                return new Operand(prefix, body.substring(0, m.end()), body.substring(m.end()));
            }
            return new Operand(prefix, body, "");
        }
    }

    /**
     * The single modifier change between two nvdisasm texts of one opcode: kind {@code "m"} for a mnemonic token (at
     * {@link Diff}'s position), {@code "o<k>p"} / {@code "o<k>s"} for operand k's prefix / suffix; null if the texts
     * differ in anything else or in more than one place.
     */
    private record Change(String kind, int position, String before, String after) {
        static Change of(Text a, Text t) {
            if (!a.guard.equals(t.guard) || !a.opcode.equals(t.opcode)) {
                return null;
            }
            if (a.rest.equals(t.rest)) {
                Diff d = Diff.of(a.tokens, t.tokens);
                return d == null ? null : new Change("m", d.position, d.before, d.after);
            }
            if (!a.tokens.equals(t.tokens)) {
                return null;
            }
            List<String> x = List.of(a.rest.split(", ", -1)), y = List.of(t.rest.split(", ", -1));
            if (x.size() != y.size()) {
                return null;
            }
            Change c = null;
            for (int k = 0; k < x.size(); k++) {
                Operand p = Operand.of(x.get(k)), q = Operand.of(y.get(k));
                if (!p.body().equals(q.body())) {
                    return null;
                }
                if (!p.prefix().equals(q.prefix())) {
                    if (c != null) {
                        return null;
                    }
                    c = new Change("o" + k + "p", 0, p.prefix(), q.prefix());
                }
                if (!p.suffix().equals(q.suffix())) {
                    if (c != null) {
                        return null;
                    }
                    c = new Change("o" + k + "s", 0, p.suffix(), q.suffix());
                }
            }
            return c;
        }

        boolean valid() {
            if (kind.equals("m")) {
                return after.matches("[A-Za-z0-9_]*") && !after.contains("INVALID");
            }
            return kind.endsWith("p") ? after.matches("[-!~]?") && before.matches("[-!~]?")
                    : after.matches("|[.][A-Za-z0-9_]+") && !after.contains("INVALID") && !after.equals(".reuse")
                            && !before.equals(".reuse");
        }
    }

    /** nvdisasm text split into guard, opcode, modifier tokens and the operand text. */
    private record Text(String guard, String opcode, List<String> tokens, String rest) {
        static Text of(String text) {
            String t = text.strip();
            String guard = "";
            if (t.startsWith("@")) {
                int sp = t.indexOf(' ');
                guard = t.substring(0, sp);
                t = t.substring(sp + 1);
            }
            int sp = t.indexOf(' ');
            String mnemonic = sp < 0 ? t : t.substring(0, sp);
            String rest = sp < 0 ? "" : t.substring(sp + 1);
            return new Text(guard, base(mnemonic), ModifierLearner.tokens(mnemonic), rest);
        }
    }

    /**
     * A one-token difference between modifier lists: at {@code position} (the index in {@code a}; for an insertion,
     * the index the token takes), {@code before} ("" if inserted) became {@code after} ("" if dropped). Print
     * positions are doubled so an insertion sorts between the tokens around it.
     */
    private record Diff(int position, String before, String after) {
        static Diff of(List<String> a, List<String> b) {
            if (a.size() == b.size()) {
                int at = -1;
                for (int i = 0; i < a.size(); i++) {
                    if (!a.get(i).equals(b.get(i))) {
                        if (at >= 0) {
                            return null;
                        }
                        at = i;
                    }
                }
                return at < 0 ? null : new Diff(2 * at + 1, a.get(at), b.get(at));
            }
            if (b.size() == a.size() + 1) {
                for (int i = 0; i < b.size(); i++) {
                    List<String> c = new ArrayList<>(b);
                    c.remove(i);
                    if (c.equals(a)) {
                        return new Diff(2 * i, "", b.get(i));
                    }
                }
                return null;
            }
            if (a.size() == b.size() + 1) {
                for (int i = 0; i < a.size(); i++) {
                    List<String> c = new ArrayList<>(a);
                    c.remove(i);
                    if (c.equals(b)) {
                        return new Diff(2 * i + 1, a.get(i), "");
                    }
                }
            }
            return null;
        }
    }
}
