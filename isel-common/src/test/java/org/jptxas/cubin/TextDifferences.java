package org.jptxas.cubin;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Where two cubins' code differs, instruction by instruction: what first-light tests pin against NVIDIA's ptxas. */
public final class TextDifferences {
    private TextDifferences() {}

    /**
     * Per text section of {@code theirs}, its instruction counts ({@code name:theirs/ours}) and the offsets (hex) of the
     * 16-byte instructions that differ in {@code ours}, space-separated.
     */
    public static String of(Cubin theirs, Cubin ours) {
        List<String> out = new ArrayList<>();
        for (Section t : theirs.textSections()) {
            byte[] a = t.data();
            byte[] b = ours.section(t.name()).map(Section::data).orElse(new byte[0]);
            out.add(t.name() + ":" + a.length / 16 + "/" + b.length / 16);
            for (int at = 0; at < Math.max(a.length, b.length); at += 16) {
                if (at + 16 > a.length || at + 16 > b.length || !Arrays.equals(a, at, at + 16, b, at, at + 16)) {
                    out.add(Integer.toHexString(at));
                }
            }
        }
        return String.join(" ", out);
    }
}
