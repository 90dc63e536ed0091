package org.jptxas.sass.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jptxas.sass.BitField;
import org.jptxas.sass.Lexeme;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassLexer;
import org.jptxas.sass.SassPrinter;
import org.jptxas.sass.oracle.RawOracle;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassSlotData;

/**
 * Field facts the samples cannot show, found by writing words and reading them back with nvdisasm's raw mode
 * ({@code probe fields}, also the last form step of {@code derive}):
 * <ul>
 *   <li><b>Address offset widths.</b> ptxas rarely writes negative offsets, so a learned {@code SHEX_PLUS} offset
 *       field is only as wide as the largest offset seen, with the bits above it fixed to zero. For every form with
 *       such a field, the offset -0x10 is written sign-extended over the field and each fixed zero bit above it in
 *       turn; the narrowest width nvdisasm prints as {@code +-0x10} is the field's true width (sm_75's generic
 *       {@code LD.E [R+off]} has 32 bits, its {@code [UR+off]} and sm_90's {@code desc[UR][R.64+off]} 24).</li>
 *   <li><b>Relocated operands.</b> {@code CALL.ABS.NOINC `(f)} (a {@code -c} compilation) holds zero where the
 *       linker puts the callee's address, so no sample shows the field. Every bit of such a word is flipped; a flip
 *       nvdisasm prints as one operand changed by a power of two maps that bit to the operand (registers too; a flip
 *       that makes the number negative marks a signed field); the step of the smallest flip is the field's unit (4
 *       bytes for code addresses). The word becomes a form with those fields; learned forms it subsumes (the
 *       {@code RET.ABS.NODEC R20 0x0} of the samples) are dropped.</li>
 * </ul>
 */
final class FieldProber {
    private static final int CONTROL_LO = 105;
    private static final int CONTROL_HI = 121;
    private static final long OFFSET = -0x10;
    /** Control bits without scoreboards (stall 1), which nvdisasm accepts on every instruction. */
    private static final long QUIET = new org.jptxas.sass.Control(1, false, org.jptxas.sass.Control.NONE,
            org.jptxas.sass.Control.NONE, 0).toHi();

    private final String sm;
    private final List<String> log = new ArrayList<>();

    FieldProber(String sm) {
        this.sm = sm;
    }

    List<String> log() {
        return log;
    }

    private String oracleSm() {
        return sm.equals("sm_90") ? "sm_90a" : sm;
    }

    /** The forms with every address offset field widened to the width nvdisasm reads. */
    List<SassFormData> widenOffsets(List<SassFormData> forms) {
        record Trial(int form, int slot, int top, long lo, long hi, SassFormData widened) {}
        List<Trial> trials = new ArrayList<>();
        for (int fi = 0; fi < forms.size(); fi++) {
            SassFormData f = forms.get(fi);
            long[] mask = SassIsa.hex128(f.mask());
            long[] bits = SassIsa.hex128(f.bits());
            for (int si = 0; si < f.slots().size(); si++) {
                SassSlotData s = f.slots().get(si);
                if (s.isLiteral() || !s.kind().equals("SHEX_PLUS") || s.bits().contains(",")) {
                    continue;
                }
                String[] r = s.bits().split(":");
                int hiBit = Integer.parseInt(r[0]);
                int loBit = Integer.parseInt(r[1]);
                int limit = hiBit < 64 ? 63 : 127;
                for (int top = hiBit; top <= limit; top++) {
                    if (top > hiBit && (!bit(mask, top) || bit(bits, top) || (top >= CONTROL_LO && top <= CONTROL_HI))) {
                        break;
                    }
                    SassFormData w = top == hiBit ? f : widen(f, si, loBit, hiBit, top);
                    // nvdisasm refuses a store whose control bits are all zero (scoreboard 0 set on both sides):
                    // the trial words get no scoreboards
                    long[] word = {bits[0], (bits[1] & ~org.jptxas.sass.Control.HI_MASK) | QUIET};
                    BitField.parse(w.slots().get(si).bits()).insert(OFFSET & ((1L << (top - loBit + 1)) - 1), word);
                    trials.add(new Trial(fi, si, top, word[0], word[1], w));
                }
            }
        }
        List<long[]> words = new ArrayList<>();
        trials.forEach(t -> words.add(new long[] {t.lo, t.hi}));
        RawOracle.Read[] reads = RawOracle.read(words, oracleSm());
        List<SassFormData> out = new ArrayList<>(forms);
        Map<String, Integer> settled = new LinkedHashMap<>();
        for (int i = 0; i < trials.size(); i++) {
            Trial t = trials.get(i);
            String id = t.form + "/" + t.slot;
            if (settled.containsKey(id) || reads[i] == null) {
                continue;
            }
            String ours = print(t.widened, t.lo, t.hi, reads[i].address());
            if (reads[i].text().equals(ours)) {
                settled.put(id, t.top);
                if (t.widened != forms.get(t.form)) {
                    SassFormData cur = out.get(t.form);
                    String[] r = t.widened.slots().get(t.slot).bits().split(":");
                    String[] old = cur.slots().get(t.slot).bits().split(":");
                    out.set(t.form, widen(cur, t.slot, Integer.parseInt(r[1]), Integer.parseInt(old[0]), t.top));
                    log.add(sm + " offset widened: " + cur.mnemonic() + " " + cur.slots().get(t.slot) + " -> " + r[0]
                            + ":" + r[1] + " (" + reads[i].text() + ")");
                }
            }
        }
        // A learned twin of a widened form that fixed the sign-extension bits of negative samples (0xff in 63:56
        // above a 24-bit field) prints and encodes nothing the widened form does not, and would take small positive
        // offsets with those bits set: dropped.
        List<SassFormData> widened = new ArrayList<>();
        for (SassFormData g : out) {
            if (g.slots().stream().anyMatch(x -> !x.isLiteral() && x.kind().equals("SHEX_PLUS"))) {
                widened.add(g);
            }
        }
        for (SassFormData g : widened) {
            if (!out.contains(g)) {
                continue;
            }
            SassIsa alone = new SassIsa(sm, List.of(g));
            int before = out.size();
            out.removeIf(h -> h != g && h.key() == g.key() && h.pieces().equals(g.pieces()) && subsumedTwin(h, g, alone));
            if (out.size() < before) {
                log.add(sm + " offset widened: " + g.mnemonic() + " drops " + (before - out.size()) + " narrower twin(s)");
            }
        }
        return out;
    }

    /** Whether every word of {@code h} is a word of {@code g} and prints the same with an offset of -0x10. */
    private boolean subsumedTwin(SassFormData h, SassFormData g, SassIsa alone) {
        long[] hm = SassIsa.hex128(h.mask()), hb = SassIsa.hex128(h.bits());
        long[] gm = SassIsa.hex128(g.mask()), gb = SassIsa.hex128(g.bits());
        long[] field = {0, 0};
        for (SassSlotData s : g.slots()) {
            if (!s.isLiteral() && s.kind().equals("SHEX_PLUS")) {
                long[] m = BitField.parse(s.bits()).mask();
                field[0] |= m[0];
                field[1] |= m[1];
            }
        }
        for (int w = 0; w < 2; w++) {
            long extra = hm[w] & ~gm[w];
            // h is g with some high offset bits fixed to one (the sign extension of its negative samples), no more
            if ((hm[w] & gm[w]) != gm[w] || (hb[w] & gm[w]) != gb[w] || (extra & ~field[w]) != 0
                    || (hb[w] & extra) != extra) {
                return false;
            }
        }
        if (h.mask().equals(g.mask())) {
            return false;
        }
        long[] word = {hb[0], hb[1]};
        for (SassSlotData s : h.slots()) {
            if (!s.isLiteral() && s.kind().equals("SHEX_PLUS")) {
                BitField f = BitField.parse(s.bits());
                f.insert(OFFSET & ((1L << f.width()) - 1), word);
            }
        }
        String ht = print(h, word[0], word[1], 0);
        return ht != null && ht.equals(print(g, word[0], word[1], 0)) && alone.decode(word[0], word[1]) != null;
    }

    /** {@code f} with slot {@code si} (bits {@code hiBit:loBit}) extended up to {@code top}, those bits freed. */
    private static SassFormData widen(SassFormData f, int si, int loBit, int hiBit, int top) {
        long[] mask = SassIsa.hex128(f.mask());
        for (int b = hiBit + 1; b <= top; b++) {
            mask[b >>> 6] &= ~(1L << (b & 63));
        }
        List<SassSlotData> slots = new ArrayList<>(f.slots());
        SassSlotData s = slots.get(si);
        slots.set(si, SassSlotData.field(s.kind(), top + ":" + loBit, s.shift()));
        return new SassFormData(f.mnemonic(), f.key(), f.pieces(), SassIsa.hex128(mask[0], mask[1]), f.bits(), slots,
                f.exclude());
    }

    /**
     * Forms for relocated words ({@code CALL.ABS.NOINC `(f)}, one per mnemonic and operand layout) by bit flips,
     * added to {@code forms} in place of the learned forms they subsume.
     */
    List<SassFormData> relocatedForms(List<SassFormData> forms, List<Sample> samples) {
        Map<String, Sample> chosen = new LinkedHashMap<>();
        for (Sample s : samples) {
            String m = FormLearner.mnemonicOf(s.text());
            if (s.text().startsWith("@") || !m.startsWith("CALL.ABS") && !m.startsWith("RET.ABS")) {
                continue;
            }
            SassLexer.Lexed lx = SassLexer.lex(s.text());
            List<Lexeme> lex = lx.lexemes();
            // The target must be a whole operand at the end: relocated (`(f)) or a number (RET.ABS.NODEC R20 0x0).
            List<String> pieces = lx.pieces();
            Lexeme last = lex.isEmpty() ? null : lex.get(lex.size() - 1);
            if (last == null || !(last.type() == Lexeme.Type.HEX || last.type() == Lexeme.Type.LABEL
                    && !s.labels().containsKey(last.labelName()))
                    || !pieces.get(pieces.size() - 1).isEmpty() || !pieces.get(pieces.size() - 2).endsWith(" ")) {
                continue;
            }
            chosen.putIfAbsent(FormLearner.keyOf(s.lo(), s.hi()) + "|" + lx.skeleton(), s);
        }
        List<SassFormData> out = new ArrayList<>(forms);
        for (Sample s : chosen.values()) {
            SassFormData f = flipForm(s);
            if (f == null) {
                continue;
            }
            SassIsa alone = new SassIsa(sm, List.of(f));
            int before = out.size();
            out.removeIf(g -> g.key() == f.key() && subsumed(g, f, alone));
            out.add(f);
            log.add(sm + " relocated form: " + f.mnemonic() + " " + f.slots() + " (replaces " + (before - out.size() + 1)
                    + " learned)");
        }
        return out;
    }

    /** Whether every word of {@code g} is a word of {@code f} that prints the same. */
    private boolean subsumed(SassFormData g, SassFormData f, SassIsa alone) {
        long[] gm = SassIsa.hex128(g.mask()), gb = SassIsa.hex128(g.bits());
        long[] fm = SassIsa.hex128(f.mask()), fb = SassIsa.hex128(f.bits());
        for (int w = 0; w < 2; w++) {
            if ((gm[w] & fm[w]) != fm[w] || (gb[w] & fm[w]) != fb[w]) {
                return false;
            }
        }
        // A learned form with a literal target (RET.ABS.NODEC R20 0x0), or an earlier version of this form.
        if (!g.exclude().isEmpty() || !g.pieces().equals(f.pieces()) && g.slots().stream()
                .anyMatch(x -> !x.isLiteral() && !x.kind().endsWith("GPR") && !x.kind().endsWith("PRED"))) {
            return false;
        }
        String gText = print(g, gb[0], gb[1], 0);
        return gText != null && gText.equals(print(f, gb[0], gb[1], 0)) && alone.decode(gb[0], gb[1]) != null;
    }

    private SassFormData flipForm(Sample s) {
        List<long[]> words = new ArrayList<>();
        words.add(new long[] {s.lo(), s.hi()});
        List<Integer> flipped = new ArrayList<>();
        for (int b = 12; b < 128; b++) {
            if (b == 91 || (b >= CONTROL_LO && b <= CONTROL_HI + 4)) {
                continue; // dispatch key, control and reuse bits
            }
            long[] w = {s.lo(), s.hi()};
            w[b >>> 6] ^= 1L << (b & 63);
            words.add(w);
            flipped.add(b);
        }
        RawOracle.Read[] reads = RawOracle.read(words, oracleSm());
        if (reads[0] == null) {
            log.add(sm + " relocated form: nvdisasm refuses " + s.text());
            return null;
        }
        SassLexer.Lexed base = SassLexer.lex(reads[0].text());
        SassLexer.Lexed sample = SassLexer.lex(s.text());
        if (!base.pieces().equals(sample.pieces()) || base.lexemes().size() != sample.lexemes().size()) {
            log.add(sm + " relocated form: raw text " + reads[0].text() + " does not match " + s.text());
            return null;
        }
        int n = base.lexemes().size();
        // Per operand: value bit -> instruction bit; whether a flip made it negative.
        List<Map<Integer, Integer>> maps = new ArrayList<>();
        boolean[] signed = new boolean[n];
        int[] signBit = new int[n];
        for (int i = 0; i < n; i++) {
            maps.add(new java.util.TreeMap<>());
            signBit[i] = -1;
        }
        for (int k = 0; k < flipped.size(); k++) {
            RawOracle.Read r = reads[k + 1];
            if (r == null) {
                continue;
            }
            SassLexer.Lexed lx = SassLexer.lex(r.text());
            if (!lx.pieces().equals(base.pieces()) || lx.lexemes().size() != n) {
                continue;
            }
            int changed = -1;
            for (int i = 0; i < n; i++) {
                if (!lx.lexemes().get(i).text().equals(base.lexemes().get(i).text())) {
                    changed = changed == -1 ? i : -2;
                }
            }
            if (changed < 0) {
                continue;
            }
            Lexeme a = base.lexemes().get(changed), b = lx.lexemes().get(changed);
            if (a.type() != b.type() || a.type() == Lexeme.Type.DEC || a.type() == Lexeme.Type.LABEL) {
                continue;
            }
            long d = b.number() ^ a.number();
            if (a.type() == Lexeme.Type.HEX && b.number() < 0 && a.number() >= 0) {
                signed[changed] = true;
                signBit[changed] = flipped.get(k);
            } else if (Long.bitCount(d) == 1) {
                maps.get(changed).put(Long.numberOfTrailingZeros(d), flipped.get(k));
            }
        }
        List<SassSlotData> slots = new ArrayList<>();
        long[] mask = {-1L, -1L};
        for (int b = CONTROL_LO; b <= CONTROL_HI; b++) {
            mask[1] &= ~(1L << (b - 64));
        }
        if (maps.get(n - 1).isEmpty()) {
            log.add(sm + " relocated form: no bit of " + s.text() + " moves its target");
            return null;
        }
        for (int i = 0; i < n; i++) {
            Lexeme a = base.lexemes().get(i);
            Map<Integer, Integer> m = maps.get(i);
            if (m.isEmpty()) {
                slots.add(SassSlotData.literal(a.text()));
                continue;
            }
            int shift = m.keySet().iterator().next();
            List<Integer> positions = new ArrayList<>();
            int expect = shift;
            for (Map.Entry<Integer, Integer> e : m.entrySet()) {
                if (e.getKey() != expect++) {
                    log.add(sm + " relocated form: " + s.text() + " operand " + i + " has a gap at value bit " + e.getKey());
                    return null;
                }
                positions.add(e.getValue());
            }
            if (signed[i]) {
                positions.add(signBit[i]);
            }
            String kind;
            if (a.type() == Lexeme.Type.REG) {
                kind = a.prefix().equals("R") ? "GPR" : a.prefix().equals("UR") ? "UGPR" : a.prefix().equals("P") ? "PRED" : "UPRED";
                shift = 0;
            } else {
                kind = signed[i] ? "SHEX" : "HEX";
            }
            for (int p : positions) {
                mask[p >>> 6] &= ~(1L << (p & 63));
            }
            slots.add(SassSlotData.field(kind, ranges(positions), shift));
        }
        long[] bits = {s.lo() & mask[0], s.hi() & mask[1]};
        String mnemonic = FormLearner.mnemonicOf(reads[0].text());
        SassFormData f = new SassFormData(mnemonic, FormLearner.keyOf(s.lo(), s.hi()), base.pieces(),
                SassIsa.hex128(mask[0], mask[1]), SassIsa.hex128(bits[0], bits[1]), slots, List.of());
        // The new form must print the base word and every flip it explains exactly as nvdisasm did.
        for (int k = 0; k < words.size(); k++) {
            long[] w = words.get(k);
            boolean fits = ((w[0] & mask[0]) == bits[0]) && ((w[1] & mask[1]) == bits[1]);
            if (fits && reads[k] != null && !reads[k].text().equals(print(f, w[0], w[1], reads[k].address()))) {
                log.add(sm + " relocated form: " + f.slots() + " misprints " + reads[k].text());
                return null;
            }
        }
        return f;
    }

    /** Positions (value bit order) as the table's {@code hi:lo,...} ranges, least significant first. */
    static String ranges(List<Integer> positions) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (i < positions.size()) {
            int j = i;
            while (j + 1 < positions.size() && positions.get(j + 1) == positions.get(j) + 1) {
                j++;
            }
            if (sb.length() > 0) {
                sb.append(',');
            }
            sb.append(positions.get(j)).append(':').append(positions.get(i));
            i = j + 1;
        }
        return sb.toString();
    }

    private final Map<SassFormData, SassIsa> single = new java.util.HashMap<>();

    private String print(SassFormData f, long lo, long hi, long address) {
        SassInstruction inst = single.computeIfAbsent(f, x -> new SassIsa(sm, List.of(x))).decode(lo, hi);
        if (!(inst instanceof SassInstruction.Known)) {
            return null;
        }
        return SassPrinter.text(inst, address, a -> null);
    }

    private static boolean bit(long[] w, int b) {
        return (w[b >>> 6] >>> (b & 63) & 1) != 0;
    }
}
