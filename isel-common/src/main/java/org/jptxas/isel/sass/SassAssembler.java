package org.jptxas.isel.sass;

import java.util.List;

/**
 * Assembles nvdisasm-syntax text back into 128-bit words. A line may start with a control annotation
 * ({@link Control#text()}) and an address comment ({@code /*0040*}{@code /}), and may end with {@code ;}. Without
 * an annotation the control bits are zero. Values that do not fit their field are errors, never truncated.
 */
public final class SassAssembler {
    private final SassIsa isa;

    public SassAssembler(SassIsa isa) {
        this.isa = isa;
    }

    /** Thrown for text that no form of the table can encode; the message says why. */
    public static final class AssemblyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public AssemblyException(String message) {
            super(message);
        }
    }

    /** Assembles one line at {@code address}; returns {lo, hi}. */
    public long[] assemble(String line, long address, LabelResolver labels) {
        String t = line.strip();
        Control control = new Control(0, false, 0, 0, 0);
        if (t.startsWith("[B")) {
            int end = t.indexOf(']');
            if (end < 0) {
                throw new AssemblyException("unterminated control annotation: " + line);
            }
            try {
                control = Control.parse(t.substring(0, end + 1));
            } catch (IllegalArgumentException e) {
                throw new AssemblyException(e.getMessage());
            }
            t = t.substring(end + 1).strip();
        }
        if (t.startsWith("/*")) {
            int end = t.indexOf("*/");
            if (end < 0) {
                throw new AssemblyException("unterminated comment: " + line);
            }
            t = t.substring(end + 2).strip();
        }
        if (t.endsWith(";")) {
            t = t.substring(0, t.length() - 1);
        }
        return assemble(SassLexer.normalize(t), control, address, labels);
    }

    /** Assembles normalized instruction text with the given control bits. */
    public long[] assemble(String text, Control control, long address, LabelResolver labels) {
        if (!control.legal()) {
            throw new AssemblyException("illegal scheduling value " + control.text() + " for '" + text
                    + "': the Y bit needs a stall of 1 to 11");
        }
        SassLexer.Lexed lexed = SassLexer.lex(text);
        if (lexed.pieces().stream().anyMatch(p -> p.contains("{}"))) {
            // "{}" stands for an operand in a form's skeleton; written in the text it would match one with no value
            throw new AssemblyException("no " + isa.sm() + " encoding form for '" + text + "'");
        }
        List<SassForm> candidates = isa.formsWithSkeleton(lexed.skeleton());
        String[] firstError = {null};
        for (SassForm f : candidates) {
            long[] words = encode(f, lexed.lexemes(), control, address, labels, firstError);
            if (words == null) {
                continue;
            }
            // The words must decode with this very form: a form whose fixed bits happen to fit (e.g. a narrow branch
            // offset) but that the decoder would not pick is the wrong encoding.
            SassInstruction back = isa.decode(words[0], words[1]);
            if (!(back instanceof SassInstruction.Known k) || k.form() != f) {
                if (firstError[0] == null) {
                    firstError[0] = "the values do not fit form " + f.mnemonic;
                }
                continue;
            }
            return words;
        }
        // Operand values the learned tables saw only once: a generalized form. Its words must not decode as something
        // else (the decoder either prints the same text or does not know the encoding).
        for (SassForm f : isa.generalizedWithSkeleton(lexed.skeleton())) {
            long[] words = encode(f, lexed.lexemes(), control, address, labels, firstError);
            if (words == null) {
                continue;
            }
            SassInstruction back = isa.decode(words[0], words[1]);
            if (back instanceof SassInstruction.Known k
                    && !SassLexer.normalize(SassPrinter.text(k, address, null)).equals(text)) {
                continue;
            }
            return words;
        }
        // Modifier combinations ptxas never emitted: a learned form with its modifier enums set to the text's values.
        List<SassForm> composed = isa.composedWithSkeleton(lexed.skeleton());
        for (SassForm f : composed) {
            long[] words = encode(f, lexed.lexemes(), control, address, labels, firstError);
            if (words == null) {
                continue;
            }
            // The words must decode with this composed form, or at least print the same text.
            SassInstruction back = isa.decode(words[0], words[1]);
            if (!(back instanceof SassInstruction.Known k) || (k.form() != f
                    && !SassLexer.normalize(SassPrinter.text(k, address, null)).equals(text))) {
                continue;
            }
            return words;
        }
        if (candidates.isEmpty() && composed.isEmpty() && firstError[0] == null) {
            throw new AssemblyException("no " + isa.sm() + " encoding form for '" + text + "'");
        }
        throw new AssemblyException("cannot encode '" + text + "' for " + isa.sm() + ": " + firstError[0]);
    }

    /** The words of {@code f} with the operand values, or null (noting why in {@code firstError}). */
    private static long[] encode(SassForm f, List<Lexeme> lexemes, Control control, long address, LabelResolver labels,
                                 String[] firstError) {
        long[] words = {f.bitsLo, f.bitsHi};
        for (int i = 0; i < f.slots.length; i++) {
            SassSlot s = f.slots[i];
            Lexeme lex = lexemes.get(i);
            if (s instanceof SassSlot.Literal l) {
                if (!l.text().equals(lex.text())) {
                    if (firstError[0] == null) {
                        firstError[0] = "operand " + (i + 1) + " must be " + l.text() + " in this form, not " + lex.text();
                    }
                    return null;
                }
            } else {
                SassSlot.Field fs = (SassSlot.Field) s;
                try {
                    fs.field().insert(fs.kind().encode(lex, fs.field().width(), fs.shift(), address, labels), words);
                } catch (IllegalArgumentException e) {
                    if (firstError[0] == null) {
                        firstError[0] = e.getMessage();
                    }
                    return null;
                }
            }
        }
        if (f.excludeSlots.length != 0) {
            long[] values = new long[f.slots.length];
            for (int i = 0; i < f.slots.length; i++) {
                if (f.slots[i] instanceof SassSlot.Field fs) {
                    values[i] = fs.field().extract(words[0], words[1]);
                }
            }
            if (f.excluded(values)) {
                if (firstError[0] == null) {
                    firstError[0] = "nvdisasm prints these operand values with another form";
                }
                return null;
            }
        }
        // Control bits the form fixes ([125:122] when printed as .reuse) come from the text, not the annotation.
        words[1] |= control.toHi() & ~f.maskHi;
        return words;
    }
}
