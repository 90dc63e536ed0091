package org.jptxas.sass.probe;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.sass.oracle.NvdisasmListing;
import org.jptxas.sass.oracle.OracleListings;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassSlotData;

/**
 * Turns register operands that a form learned as literals (every sample of its pool had the same register, so
 * {@code "=R3"}) into fields, confirmed by nvdisasm: for each candidate position the form's word is rebuilt with a
 * different register there, and the candidate stands only if nvdisasm prints exactly what jptxas's decoder prints for
 * the generalized form, for both the original and the changed word. Without this, code generation could only use
 * such a form with the one register ptxas happened to choose.
 *
 * <p>Candidate positions come first from the fields other forms learned for the same dispatch key and operand, then
 * from the same operand index in any form, then from any position whose fixed bits hold the literal's value.
 */
final class LiteralFieldGeneralizer {
    private static final Pattern REGISTER = Pattern.compile("(UR|R|UP|P)(\\d+|Z|T)");
    private static final int MAX_CANDIDATES = 4;
    private static final long ALLOWED_LO = ~0xfffL;
    private static final long ALLOWED_HI = ((1L << (105 - 64)) - 1) & ~(1L << (91 - 64));

    private record RegKind(String kind, int width, long zero) {}

    private static final Map<String, RegKind> KINDS = Map.of(
            "R", new RegKind("GPR", 8, 255), "UR", new RegKind("UGPR", 6, 63),
            "P", new RegKind("PRED", 3, 7), "UP", new RegKind("UPRED", 3, 7));

    /** One way to make slot {@code slot} of form {@code form} a field starting at {@code start}. */
    private record Candidate(int form, int slot, RegKind kind, int start, long value, long altValue) {}

    private final String sm;
    private final List<String> log;

    LiteralFieldGeneralizer(String sm, List<String> log) {
        this.sm = sm;
        this.log = log;
    }

    /**
     * @param forms   the learned forms
     * @param example for each form (by index), a real instruction word it decodes (with its control bits, which
     *                nvdisasm checks), or null when no sample decodes to it
     */
    List<SassFormData> generalize(List<SassFormData> forms, List<long[]> example) {
        Map<String, Integer> byKeySlot = new HashMap<>();
        Map<String, Map<Integer, Integer>> bySlot = new HashMap<>();
        for (SassFormData f : forms) {
            for (int j = 0; j < f.slots().size(); j++) {
                SassSlotData s = f.slots().get(j);
                if (!s.isLiteral() && KINDS.values().stream().anyMatch(k -> k.kind().equals(s.kind()))) {
                    int start = lowBit(s.bits());
                    if (start >= 0) {
                        byKeySlot.putIfAbsent(f.key() + "|" + j + "|" + s.kind(), start);
                        bySlot.computeIfAbsent(j + "|" + s.kind(), x -> new TreeMap<>()).merge(start, 1, Integer::sum);
                    }
                }
            }
        }
        List<Candidate> candidates = new ArrayList<>();
        for (int i = 0; i < forms.size(); i++) {
            SassFormData f = forms.get(i);
            if (example.get(i) == null || f.slots().stream().anyMatch(s -> "LABEL".equals(s.kind()))) {
                continue;
            }
            long[] mask = SassIsa.hex128(f.mask());
            long[] bits = SassIsa.hex128(f.bits());
            for (int j = 0; j < f.slots().size(); j++) {
                SassSlotData s = f.slots().get(j);
                if (!s.isLiteral()) {
                    continue;
                }
                Matcher m = REGISTER.matcher(s.literal());
                if (!m.matches()) {
                    continue;
                }
                RegKind kind = KINDS.get(m.group(1));
                String num = m.group(2);
                boolean general = kind.kind().endsWith("GPR");
                if ((num.equals("Z") && !general) || (num.equals("T") && general)) {
                    continue;
                }
                long value = Character.isDigit(num.charAt(0)) ? Long.parseLong(num) : kind.zero();
                if (value > kind.zero()) {
                    continue;
                }
                for (int start : starts(f, j, kind, value, mask, bits, byKeySlot, bySlot)) {
                    candidates.add(new Candidate(i, j, kind, start, value, alternative(kind, value)));
                }
            }
        }
        if (candidates.isEmpty()) {
            return forms;
        }
        // One raw listing: per candidate the original word and the word with the alternative register.
        List<long[]> words = new ArrayList<>();
        for (Candidate c : candidates) {
            long[] word = example.get(c.form());
            words.add(word);
            words.add(with(word, c.start(), c.kind().width(), c.altValue()));
        }
        List<String> texts = disassemble(words);
        Map<Integer, Map<Integer, Integer>> accepted = new LinkedHashMap<>();
        int confirmed = 0;
        for (int n = 0; n < candidates.size(); n++) {
            Candidate c = candidates.get(n);
            if (accepted.getOrDefault(c.form(), Map.of()).containsKey(c.slot())) {
                continue;
            }
            String original = texts.get(2 * n);
            String changed = texts.get(2 * n + 1);
            if (original == null || changed == null) {
                continue;
            }
            SassFormData g = withField(forms.get(c.form()), c.slot(), c.kind(), c.start());
            SassIsa one = new SassIsa(sm, List.of(g));
            if (original.equals(print(one, words.get(2 * n))) && changed.equals(print(one, words.get(2 * n + 1)))) {
                accepted.computeIfAbsent(c.form(), x -> new TreeMap<>()).put(c.slot(), c.start());
                confirmed++;
            }
        }
        List<SassFormData> out = new ArrayList<>(forms.size());
        Set<String> seen = new LinkedHashSet<>();
        int generalized = 0;
        for (int i = 0; i < forms.size(); i++) {
            SassFormData f = forms.get(i);
            Map<Integer, Integer> fields = accepted.get(i);
            if (fields != null) {
                for (Map.Entry<Integer, Integer> e : fields.entrySet()) {
                    RegKind kind = KINDS.get(REGISTER.matcher(f.slots().get(e.getKey()).literal()).replaceAll("$1"));
                    f = withField(f, e.getKey(), kind, e.getValue());
                }
                generalized++;
            }
            if (seen.add(FormLearner.identity(f) + f.exclude())) {
                out.add(f);
            }
        }
        log.add(sm + ": literal registers: " + candidates.size() + " candidate positions, " + confirmed
                + " confirmed by nvdisasm; " + generalized + " forms generalized, " + (forms.size() - out.size())
                + " merged as duplicates");
        return out;
    }

    /**
     * Checks every register field of every form against nvdisasm: the form's example word with that field changed
     * must print as jptxas prints it. Pools whose samples always held the same register in two operands (in-place
     * {@code FADD R4, R4, -24}) cannot tell the two fields apart, and the learner may have swapped them; such a form
     * gets the swapped assignment if that one passes, and is reported otherwise.
     */
    List<SassFormData> checkFields(List<SassFormData> forms, List<long[]> example) {
        record Flip(int form, int slot) {}
        List<Flip> flips = new ArrayList<>();
        List<long[]> words = new ArrayList<>();
        for (int i = 0; i < forms.size(); i++) {
            SassFormData f = forms.get(i);
            if (example.get(i) == null || f.slots().stream().anyMatch(s -> "LABEL".equals(s.kind()))) {
                continue;
            }
            for (int j = 0; j < f.slots().size(); j++) {
                SassSlotData s = f.slots().get(j);
                RegKind kind = kindOf(s);
                if (kind == null || lowBit(s.bits()) < 0) {
                    continue;
                }
                int start = lowBit(s.bits());
                long value = field(example.get(i), start, kind.width());
                flips.add(new Flip(i, j));
                words.add(example.get(i));
                words.add(with(example.get(i), start, kind.width(), alternative(kind, value)));
            }
        }
        if (flips.isEmpty()) {
            return forms;
        }
        List<String> texts = disassemble(words);
        java.util.Set<Integer> bad = new java.util.TreeSet<>();
        for (int n = 0; n < flips.size(); n++) {
            Flip fl = flips.get(n);
            if (texts.get(2 * n) == null || texts.get(2 * n + 1) == null) {
                continue;
            }
            SassIsa one = new SassIsa(sm, List.of(forms.get(fl.form())));
            if (texts.get(2 * n).equals(print(one, words.get(2 * n)))
                    && !texts.get(2 * n + 1).equals(print(one, words.get(2 * n + 1)))) {
                bad.add(fl.form());
            }
        }
        List<SassFormData> out = new ArrayList<>(forms);
        int fixed = 0;
        List<String> unfixed = new ArrayList<>();
        for (int i : bad) {
            SassFormData f = forms.get(i);
            SassFormData repaired = null;
            for (int a = 0; a < f.slots().size() && repaired == null; a++) {
                for (int b = a + 1; b < f.slots().size() && repaired == null; b++) {
                    SassSlotData sa = f.slots().get(a);
                    SassSlotData sb = f.slots().get(b);
                    if (kindOf(sa) == null || !sa.kind().equals(sb.kind()) || sa.isLiteral() || sb.isLiteral()) {
                        continue;
                    }
                    List<SassSlotData> slots = new ArrayList<>(f.slots());
                    slots.set(a, sb);
                    slots.set(b, sa);
                    SassFormData g = new SassFormData(f.mnemonic(), f.key(), f.pieces(), f.mask(), f.bits(), slots,
                            f.exclude());
                    if (passes(g, example.get(i))) {
                        repaired = g;
                    }
                }
            }
            if (repaired != null) {
                out.set(i, repaired);
                fixed++;
            } else {
                unfixed.add(f.mnemonic() + " " + f.slots());
            }
        }
        log.add(sm + ": register fields checked by nvdisasm: " + flips.size() + " fields, " + bad.size()
                + " forms print a changed register wrongly, " + fixed + " repaired by swapping two fields"
                + (unfixed.isEmpty() ? "" : "; not repaired: " + unfixed));
        return out;
    }

    /** Whether every register field of {@code f}, changed in {@code word}, prints as nvdisasm prints it. */
    private boolean passes(SassFormData f, long[] word) {
        List<long[]> words = new ArrayList<>();
        words.add(word);
        for (SassSlotData s : f.slots()) {
            RegKind kind = kindOf(s);
            if (kind != null && lowBit(s.bits()) >= 0) {
                int start = lowBit(s.bits());
                words.add(with(word, start, kind.width(), alternative(kind, field(word, start, kind.width()))));
            }
        }
        List<String> texts = disassemble(words);
        SassIsa one = new SassIsa(sm, List.of(f));
        for (int n = 0; n < words.size(); n++) {
            if (texts.get(n) == null || !texts.get(n).equals(print(one, words.get(n)))) {
                return false;
            }
        }
        return true;
    }

    private static RegKind kindOf(SassSlotData s) {
        if (s.isLiteral()) {
            return null;
        }
        for (RegKind k : KINDS.values()) {
            if (k.kind().equals(s.kind())) {
                return k;
            }
        }
        return null;
    }

    private static long field(long[] w, int start, int width) {
        long v = 0;
        for (int b = 0; b < width; b++) {
            if (bit(w, start + b)) {
                v |= 1L << b;
            }
        }
        return v;
    }

    private static List<Integer> starts(SassFormData f, int slot, RegKind kind, long value, long[] mask, long[] bits,
            Map<String, Integer> byKeySlot, Map<String, Map<Integer, Integer>> bySlot) {
        long[] used = fieldMask(f);
        LinkedHashSet<Integer> ordered = new LinkedHashSet<>();
        Integer prior = byKeySlot.get(f.key() + "|" + slot + "|" + kind.kind());
        if (prior != null) {
            ordered.add(prior);
        }
        bySlot.getOrDefault(slot + "|" + kind.kind(), Map.of()).entrySet().stream()
                .sorted((a, b) -> b.getValue() - a.getValue()).forEach(e -> ordered.add(e.getKey()));
        for (int p = 12; p + kind.width() <= 105; p++) {
            ordered.add(p);
        }
        List<Integer> out = new ArrayList<>();
        for (int p : ordered) {
            if (fits(p, kind.width(), value, mask, bits, used)) {
                out.add(p);
                if (out.size() == MAX_CANDIDATES) {
                    break;
                }
            }
        }
        return out;
    }

    private static boolean fits(int start, int width, long value, long[] mask, long[] bits, long[] used) {
        for (int b = 0; b < width; b++) {
            int p = start + b;
            if (p > 104 || p == 91 || !bit(new long[] {ALLOWED_LO, ALLOWED_HI}, p) || !bit(mask, p) || bit(used, p)
                    || bit(bits, p) != (((value >>> b) & 1) != 0)) {
                return false;
            }
        }
        return true;
    }

    /** A different register that keeps tuple alignment (the low bits stay) and is not the zero register. */
    private static long alternative(RegKind kind, long value) {
        long flip = kind.width() == 8 ? 0x20 : kind.width() == 6 ? 0x10 : 0x1;
        long alt = value ^ flip;
        return alt == kind.zero() ? value ^ (flip << 1) : alt;
    }

    private List<String> disassemble(List<long[]> words) {
        List<String> out = new ArrayList<>(words.size());
        disassemble(words, 0, words.size(), out);
        return out;
    }

    /** Disassembles words[from, to) in one nvdisasm run; on rejection, halves (nvdisasm rejects whole files). */
    private void disassemble(List<long[]> words, int from, int to, List<String> out) {
        if (from >= to) {
            return;
        }
        byte[] code = new byte[(to - from) * 16];
        for (int i = from; i < to; i++) {
            long[] w = words.get(i);
            put(code, (i - from) * 16, w[0]);
            put(code, (i - from) * 16 + 8, w[1]);
        }
        try {
            NvdisasmListing listing = OracleListings.raw(code, sm.equals("sm_90") ? "sm_90a" : sm);
            Map<Long, String> byAddress = new HashMap<>();
            for (NvdisasmListing.Section s : listing.sections()) {
                for (NvdisasmListing.Line l : s.lines()) {
                    byAddress.put(l.address(), l.text());
                }
            }
            for (int i = from; i < to; i++) {
                out.add(byAddress.get((long) (i - from) * 16));
            }
        } catch (OracleListings.NvdisasmException e) {
            if (to - from == 1) {
                out.add(null);
                return;
            }
            int mid = (from + to) >>> 1;
            disassemble(words, from, mid, out);
            disassemble(words, mid, to, out);
        }
    }

    private static String print(SassIsa isa, long[] word) {
        SassInstruction inst = isa.decode(word[0], word[1]);
        return inst instanceof SassInstruction.Known ? SassPrinter.text(inst, 0, a -> null) : "<unknown>";
    }

    private static SassFormData withField(SassFormData f, int slot, RegKind kind, int start) {
        List<SassSlotData> slots = new ArrayList<>(f.slots());
        slots.set(slot, SassSlotData.field(kind.kind(), (start + kind.width() - 1) + ":" + start, 0));
        long[] mask = SassIsa.hex128(f.mask());
        long[] bits = SassIsa.hex128(f.bits());
        for (int b = 0; b < kind.width(); b++) {
            clear(mask, start + b);
            clear(bits, start + b);
        }
        return new SassFormData(f.mnemonic(), f.key(), f.pieces(), hex(mask), hex(bits), slots, f.exclude());
    }

    private static long[] fieldMask(SassFormData f) {
        long[] m = new long[2];
        for (SassSlotData s : f.slots()) {
            if (!s.isLiteral()) {
                for (String range : s.bits().split(",")) {
                    String[] hl = range.split(":");
                    for (int p = Integer.parseInt(hl[1]); p <= Integer.parseInt(hl[0]); p++) {
                        m[p / 64] |= 1L << (p % 64);
                    }
                }
            }
        }
        return m;
    }

    private static int lowBit(String ranges) {
        String[] parts = ranges.split(",");
        if (parts.length != 1) {
            return -1;
        }
        return Integer.parseInt(parts[0].split(":")[1]);
    }

    private static String hex(long[] w) {
        return SassIsa.hex128(w[0], w[1]);
    }

    private static long[] with(long[] bits, int start, int width, long value) {
        long[] w = bits.clone();
        for (int b = 0; b < width; b++) {
            int p = start + b;
            if (((value >>> b) & 1) != 0) {
                w[p / 64] |= 1L << (p % 64);
            } else {
                w[p / 64] &= ~(1L << (p % 64));
            }
        }
        return w;
    }

    private static boolean bit(long[] w, int p) {
        return ((w[p / 64] >>> (p % 64)) & 1) != 0;
    }

    private static void clear(long[] w, int p) {
        w[p / 64] &= ~(1L << (p % 64));
    }

    private static void put(byte[] b, int at, long v) {
        for (int i = 0; i < 8; i++) {
            b[at + i] = (byte) (v >>> (8 * i));
        }
    }
}
