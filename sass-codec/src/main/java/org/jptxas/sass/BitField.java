package org.jptxas.sass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The bit positions of one operand field inside a 128-bit instruction, least significant value bit first. A field
 * is one or more contiguous segments; extraction and insertion work segment by segment (no per-bit loop).
 */
public final class BitField {
    private final int[] positions;
    /** Per segment: instruction bit, value bit, width. */
    private final int[] segInstBit;
    private final int[] segValueBit;
    private final int[] segWidth;

    public BitField(int[] positions) {
        if (positions.length == 0 || positions.length > 63) {
            throw new IllegalArgumentException("a field has 1..63 bits, not " + positions.length);
        }
        this.positions = positions.clone();
        boolean[] seen = new boolean[128];
        List<int[]> segs = new ArrayList<>();
        for (int v = 0; v < positions.length; v++) {
            int p = positions[v];
            if (p < 0 || p > 127 || seen[p]) {
                throw new IllegalArgumentException("bad or repeated bit " + p + " in field " + Arrays.toString(positions));
            }
            seen[p] = true;
            int[] last = segs.isEmpty() ? null : segs.get(segs.size() - 1);
            // A segment never straddles the 64-bit word boundary.
            if (last != null && last[0] + last[2] == p && p != 64) {
                last[2]++;
            } else {
                segs.add(new int[] {p, v, 1});
            }
        }
        segInstBit = segs.stream().mapToInt(s -> s[0]).toArray();
        segValueBit = segs.stream().mapToInt(s -> s[1]).toArray();
        segWidth = segs.stream().mapToInt(s -> s[2]).toArray();
    }

    /** Parses the table notation {@code "23:16,81:34"} (ranges hi:lo, least significant value bits first). */
    public static BitField parse(String text) {
        List<Integer> bits = new ArrayList<>();
        for (String range : text.split(",")) {
            String[] hl = range.strip().split(":");
            int hi = Integer.parseInt(hl[0].strip());
            int lo = hl.length == 1 ? hi : Integer.parseInt(hl[1].strip());
            if (hl.length > 2 || lo > hi) {
                throw new IllegalArgumentException("bad bit range '" + range + "' (want hi:lo)");
            }
            for (int b = lo; b <= hi; b++) {
                bits.add(b);
            }
        }
        return new BitField(bits.stream().mapToInt(Integer::intValue).toArray());
    }

    /** The table notation of this field. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        for (int s = 0; s < segInstBit.length; s++) {
            if (s > 0) {
                sb.append(',');
            }
            sb.append(segInstBit[s] + segWidth[s] - 1).append(':').append(segInstBit[s]);
        }
        return sb.toString();
    }

    public int width() {
        return positions.length;
    }

    public int[] positions() {
        return positions.clone();
    }

    /** The 128-bit mask of this field: {lo, hi}. */
    public long[] mask() {
        long lo = 0, hi = 0;
        for (int p : positions) {
            if (p < 64) {
                lo |= 1L << p;
            } else {
                hi |= 1L << (p - 64);
            }
        }
        return new long[] {lo, hi};
    }

    public long extract(long lo, long hi) {
        long v = 0;
        for (int s = 0; s < segInstBit.length; s++) {
            int p = segInstBit[s];
            long word = p < 64 ? lo : hi;
            long m = segWidth[s] == 64 ? -1L : (1L << segWidth[s]) - 1;
            v |= ((word >>> (p & 63)) & m) << segValueBit[s];
        }
        return v;
    }

    /** Whether {@code value} (an unsigned field value) fits. */
    public boolean fits(long value) {
        return (value >>> positions.length) == 0;
    }

    /** ORs {@code value} into {@code words} ({lo, hi}); the value must fit. */
    public void insert(long value, long[] words) {
        if (!fits(value)) {
            throw new IllegalArgumentException("value 0x" + Long.toHexString(value) + " does not fit the "
                    + positions.length + "-bit field " + text());
        }
        for (int s = 0; s < segInstBit.length; s++) {
            int p = segInstBit[s];
            long m = segWidth[s] == 64 ? -1L : (1L << segWidth[s]) - 1;
            long part = ((value >>> segValueBit[s]) & m) << (p & 63);
            words[p < 64 ? 0 : 1] |= part;
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BitField f && Arrays.equals(positions, f.positions);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(positions);
    }

    @Override
    public String toString() {
        return text();
    }
}
