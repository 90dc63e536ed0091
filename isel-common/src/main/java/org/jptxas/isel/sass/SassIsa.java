package org.jptxas.isel.sass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jptxas.tables.sass.SassFormData;
import org.jptxas.tables.sass.SassSlotData;
import org.jptxas.tables.sass.SassTables;

/**
 * The encoding forms of one SM, indexed for decoding (by dispatch key, most specific form first) and for assembling
 * (by text skeleton). Immutable and thread-safe; {@link #forSm} shares one instance per SM.
 */
public final class SassIsa {
    private static final SassForm[] NONE = new SassForm[0];
    private static final Map<String, SassIsa> LOADED = new ConcurrentHashMap<>();

    private final String sm;
    private final SassForm[][] byKey = new SassForm[1 << 13][];
    private final Map<String, List<SassForm>> bySkeleton;
    private final List<SassForm> forms;

    public SassIsa(String sm, List<SassFormData> data) {
        this.sm = sm;
        List<SassForm> all = new ArrayList<>(data.size());
        for (SassFormData d : data) {
            all.add(toForm(d));
        }
        this.forms = List.copyOf(all);
        Map<Integer, List<SassForm>> keyed = new HashMap<>();
        Map<String, List<SassForm>> skel = new LinkedHashMap<>();
        for (SassForm f : all) {
            keyed.computeIfAbsent(f.key, k -> new ArrayList<>()).add(f);
            skel.computeIfAbsent(f.skeleton, k -> new ArrayList<>()).add(f);
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
        }
        // The assembler tries forms in the decoder's priority order.
        skel.replaceAll((k, v) -> {
            List<SassForm> l = new ArrayList<>(v);
            l.sort(Comparator.comparingInt((SassForm f) -> -f.specificity).thenComparing(f -> f.mnemonic)
                    .thenComparing(f -> f.skeleton).thenComparingLong(f -> f.bitsHi).thenComparingLong(f -> f.bitsLo)
                    .thenComparingLong(f -> f.maskHi).thenComparingLong(f -> f.maskLo));
            return List.copyOf(l);
        });
        this.bySkeleton = Collections.unmodifiableMap(skel);
    }

    /** The bundled table of {@code sm} (sm_75, sm_80, sm_86, sm_89, sm_90, sm_90a), loaded once. */
    public static SassIsa forSm(String sm) {
        String c = SassTables.canonical(sm);
        return LOADED.computeIfAbsent(c, k -> new SassIsa(k, SassTables.forms(k)));
    }

    public String sm() {
        return sm;
    }

    public List<SassForm> forms() {
        return forms;
    }

    List<SassForm> formsWithSkeleton(String skeleton) {
        return bySkeleton.getOrDefault(skeleton, List.of());
    }

    static int keyOf(long lo, long hi) {
        return (int) (lo & 0xfff) | (int) ((hi >>> 27) & 1) << 12;
    }

    /** Decodes one instruction: a {@link SassInstruction.Known} or, if no form explains the bits, an Unknown. */
    public SassInstruction decode(long lo, long hi) {
        for (SassForm f : byKey[keyOf(lo, hi)]) {
            if (f.matches(lo, hi)) {
                SassSlot[] slots = f.slots;
                long[] values = new long[slots.length];
                for (int i = 0; i < slots.length; i++) {
                    if (slots[i] instanceof SassSlot.Field fs) {
                        values[i] = fs.field().extract(lo, hi);
                    }
                }
                if (f.excludeSlots.length != 0 && f.excluded(values)) {
                    continue;
                }
                return new SassInstruction.Known(f, values, Control.fromHi(hi & ~f.maskHi), lo, hi);
            }
        }
        return new SassInstruction.Unknown(lo, hi);
    }

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

    static long le64(byte[] b, int p) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (b[p + i] & 0xff);
        }
        return v;
    }

    private static SassForm toForm(SassFormData d) {
        List<SassSlot> slots = new ArrayList<>(d.slots().size());
        for (SassSlotData s : d.slots()) {
            if (s.literal() != null) {
                slots.add(new SassSlot.Literal(s.literal()));
            } else {
                slots.add(new SassSlot.Field(SlotKind.valueOf(s.kind()), BitField.parse(s.bits()),
                        s.shift()));
            }
        }
        long[] mask = hex128(d.mask());
        long[] bits = hex128(d.bits());
        return new SassForm(d.key(), d.mnemonic(), d.pieces(), slots, mask[0], mask[1], bits[0], bits[1], d.exclude());
    }

    /** 32 hex digits, bit 127 first → {lo, hi}. */
    public static long[] hex128(String s) {
        return new long[] {Long.parseUnsignedLong(s.substring(16), 16), Long.parseUnsignedLong(s.substring(0, 16), 16)};
    }

    public static String hex128(long lo, long hi) {
        return String.format("%016x%016x", hi, lo);
    }
}
