package org.jptxas.cli;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.sass.SassIsa;

/** The 128-bit instruction words of a cubin's text sections, in section and address order (the census tools' walk). */
public final class TextWords {
    private TextWords() {}

    /** One instruction word: its low and high 64 bits. */
    public record Word(long lo, long hi) {}

    public static List<Word> of(byte[] cubin) {
        List<Word> out = new ArrayList<>();
        for (Section s : Cubin.read(cubin).sections()) {
            if (!s.isText()) {
                continue;
            }
            byte[] code = s.data();
            for (int p = 0; p + 16 <= code.length; p += 16) {
                out.add(new Word(SassIsa.le64(code, p), SassIsa.le64(code, p + 8)));
            }
        }
        return out;
    }
}
