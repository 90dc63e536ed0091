package org.jptxas.sass;

import java.util.List;
import java.util.Optional;

/**
 * Assembles nvdisasm-syntax text back into 128-bit words. A line may start with a control annotation
 * ({@link Control#text()}) and an address comment ({@code /*0040*}{@code /}), and may end with {@code ;}. Without
 * an annotation the control bits are zero. Values that do not fit their field are errors, never truncated.
 */
public final class SassAssembler {
    private static final Control NO_CONTROL = new Control(0, false, Control.NONE, Control.NONE, 0);
    /** Bound on {@link #formless}; past it, the set is emptied and fills again. */
    private static final int FORMLESS_LIMIT = 1 << 14;
    private final SassIsa isa;
    /**
     * Skeletons no form, generalized form, composed form, IMAD name or hint token can ever encode, whatever the
     * operands: the text printer's search tries many spellings no form has (every operand present before the
     * omissions), and each went through every pool again. Only ever holds skeletons whose answer is "no form".
     */
    private final java.util.Set<String> formless = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public SassAssembler(SassIsa isa) {
        this.isa = isa;
    }

    /** The instruction set whose forms this assembler writes. */
    public SassIsa isa() {
        return isa;
    }

    /** Thrown for text that no form of the table can encode; the message says why. */
    public static final class AssemblyException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public AssemblyException(String message) {
            // no stack trace: the printer's search throws and catches one per spelling that does not encode
            super(message, null, false, false);
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
        return encoded(text, control, address, labels).words();
    }

    /**
     * Text a disassembler printed (jnvdisasm's listing), as {@link #assemble(String, Control, long, LabelResolver)}
     * assembles it, and also with the reuse-flag combinations the decoder reads without a learned form
     * ({@link ReuseCombinations}): the text without its {@code .reuse} flags encoded, then the flag bits [125:122]
     * whose word decodes to the text; and through the decode-only forms ({@link SassForm#decodeOnly}: words ptxas
     * writes that code generation must not pick). Code generation never comes here: it keeps to the combinations
     * ptxas was seen to write.
     */
    public long[] assembleListing(String text, Control control, long address, LabelResolver labels) {
        try {
            return listing(text, control, address, labels);
        } catch (AssemblyException e) {
            // operands negated or absolute where no form spells it ({@link OperandDecorations})
            long[] decorated = isa.decorations().isEmpty() ? null
                    : isa.decorations().assemble(SassLexer.normalize(text), plain -> {
                        try {
                            return listing(plain, control, address, labels);
                        } catch (AssemblyException | IllegalArgumentException x) {
                            return null;
                        }
                    }, words -> isa.decode(words[0], words[1]) instanceof SassInstruction.Known k
                            ? SassLexer.normalize(SassPrinter.text(k, address, null)) : null);
            if (decorated != null) {
                return decorated;
            }
            throw e;
        }
    }

    /** {@link #assembleListing} without the operand decorations. */
    private long[] listing(String text, Control control, long address, LabelResolver labels) {
        try {
            return assemble(text, control, address, labels);
        } catch (AssemblyException e) {
            String normalized = SassLexer.normalize(text);
            long[] readOnly = decodeOnly(normalized, control, address, labels);
            if (readOnly != null) {
                return readOnly;
            }
            if (!normalized.contains(".reuse")) {
                throw e;
            }
            long[] plain;
            try {
                plain = assemble(normalized.replace(".reuse", ""), control, address, labels);
            } catch (AssemblyException | IllegalArgumentException x) {
                throw e;
            }
            for (long flags = 1; flags < 16; flags++) {
                long hi = plain[1] & ~ReuseCombinations.REUSE_HI | flags << 58;
                if (isa.decode(plain[0], hi) instanceof SassInstruction.Known k
                        && SassLexer.normalize(SassPrinter.text(k, address, null)).equals(normalized)) {
                    return new long[] {plain[0], hi};
                }
            }
            throw e;
        }
    }

    /** {@code normalized} encoded by a learned decode-only form whose word decodes to it, or null. */
    private long[] decodeOnly(String normalized, Control control, long address, LabelResolver labels) {
        if (!control.legal()) {
            return null;
        }
        SassLexer.Lexed lexed = SassLexer.lex(normalized);
        String[] firstError = {null};
        for (SassForm f : isa.decodeOnlyWithSkeleton(lexed.skeleton())) {
            Encoded e;
            try {
                e = encodedReadingBack(f, lexed, normalized, control, address, labels, firstError, ReadBack.LISTING);
            } catch (IllegalArgumentException x) {
                continue;
            }
            if (e != null) {
                return e.words();
            }
        }
        return null;
    }

    /**
     * Whether words the decoder reads through decode-only form {@code k} are {@code f}'s own: {@code f} reads them as
     * {@code text}. A decode-only form is nvdisasm's reading of bits a learned form writes, in another spelling
     * ({@code [imm]} for {@code [RZ+imm]}) or in the same one (a more specific copy, as IADD3.X's {@code -0x1} with an
     * inverted source): either way it never takes words away from the form that writes them, and the assembler looks
     * forms up only among those it writes, so a request in a decode-only spelling no writable form has still fails.
     */
    private static boolean ownWordsUnderDecodeOnly(SassInstruction.Known k, SassForm f, Encoded e, String text,
                                                   long address) {
        if (!k.form().decodeOnly || f.decodeOnly) {
            return false;
        }
        SassInstruction.Known own = SassIsa.readWith(f, e.words()[0], e.words()[1]);
        return own != null && printsText(own, text, address);
    }

    /** How an encoding's words must read back through the decoder for the assembler to keep them. */
    private enum ReadBack {
        /** learned forms: decoded with the form itself or one of the same encoding */
        SAME_FORM,
        /** generalized forms: not decoded as anything else (bits the decoder does not know are fine) */
        NOTHING_ELSE,
        /** composed forms: decoded as the form or printing the same text, not through a decode-only form */
        SAME_TEXT,
        /** listings, which may name decode-only spellings: decoded as the form or printing the same text */
        LISTING
    }

    /**
     * Whether {@code f}'s words {@code e} for {@code text} read back under {@code rule}; in every rule, words the
     * decoder reads through a decode-only form count when {@code f} reads them as {@code text}
     * ({@link #ownWordsUnderDecodeOnly}).
     */
    private boolean readsBack(SassForm f, Encoded e, String text, long address, ReadBack rule) {
        if (!(isa.decode(e.words()[0], e.words()[1]) instanceof SassInstruction.Known k)) {
            return rule == ReadBack.NOTHING_ELSE;
        }
        boolean sameForm = k.form() == f || k.form().sameEncoding(f);
        boolean read = switch (rule) {
            case SAME_FORM -> sameForm;
            // a decode-only form of the same encoding (a table rule's copy of a composed form) reads f's own words
            case NOTHING_ELSE -> (!k.form().decodeOnly || sameForm) && (sameForm || printsText(k, text, address));
            case SAME_TEXT -> (!k.form().decodeOnly || f.decodeOnly || sameForm)
                    && (sameForm || printsText(k, text, address));
            case LISTING -> sameForm || printsText(k, text, address);
        };
        return read || ownWordsUnderDecodeOnly(k, f, e, text, address);
    }

    private static boolean printsText(SassInstruction.Known k, String text, long address) {
        return SassLexer.normalize(SassPrinter.text(k, address, null)).equals(text);
    }

    /** {@code f} encoding the text if its words read back under {@code rule}, else null. */
    private Encoded encodedReadingBack(SassForm f, SassLexer.Lexed lexed, String text, Control control, long address,
            LabelResolver labels, String[] firstError, ReadBack rule) {
        Encoded e = encode(f, lexed.lexemes(), control, address, labels, firstError);
        return e != null && readsBack(f, e, text, address, rule) ? e : null;
    }

    /**
     * The typed instruction {@code text} assembles to: the form the assembler picks for it (placing its branch
     * targets at {@code labels}' addresses relative to {@code address}) with its operand values; branch targets keep
     * their label names. {@link SassEncoder} encodes it again at its final address.
     */
    public SassOp select(String text, long address, LabelResolver labels) {
        return encoded(text, NO_CONTROL, address, labels).op();
    }

    /** The words of an assembled instruction and the typed instruction they encode. */
    public record Encoded(long[] words, SassOp op) {}

    /** Assembles {@code text} as {@link #assemble(String, Control, long, LabelResolver)} does; also gives the op. */
    public Encoded encoded(String text, Control control, long address, LabelResolver labels) {
        if (!control.legal()) {
            throw new AssemblyException("illegal scheduling value " + control.text() + " for '" + text
                    + "': the Y bit needs a stall of 1 to 11");
        }
        return encoded(SassLexer.lex(text), text, control, address, labels);
    }

    /**
     * The same instruction as {@code op} written as {@code skeleton} (its form's skeleton with {@code .reuse} after
     * some operands, say): the form the assembler picks for the text the skeleton and the op's operands make. Empty
     * when the tables have no such form.
     */
    public Optional<SassOp> respelled(SassOp op, String skeleton) {
        return respelled(op, List.of(skeleton.split("\\{}", -1)));
    }

    /**
     * {@link #respelled(SassOp, String)} with the skeleton as its literal pieces (one more than the op's operand
     * lexemes), as a caller that builds them from the form's pieces has them.
     */
    public Optional<SassOp> respelled(SassOp op, List<String> pieces) {
        List<Lexeme> operands = SassLexer.lex(SassLexer.normalize(op.text())).lexemes();
        if (pieces.size() != operands.size() + 1) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder(pieces.get(0));
        for (int i = 0; i < operands.size(); i++) {
            text.append(operands.get(i).text()).append(pieces.get(i + 1));
        }
        try {
            return Optional.of(encoded(new SassLexer.Lexed(pieces, operands), text.toString(), NO_CONTROL, 0,
                    name -> 0).op());
        } catch (AssemblyException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private Encoded encoded(SassLexer.Lexed lexed, String text, Control control, long address, LabelResolver labels) {
        if (lexed.pieces().stream().anyMatch(p -> p.contains("{}"))) {
            // "{}" stands for an operand in a form's skeleton; written in the text it would match one with no value
            throw new AssemblyException("no " + isa.sm() + " encoding form for '" + text + "'");
        }
        String skeleton = lexed.skeleton();
        if (formless.contains(skeleton)) {
            throw new AssemblyException("no " + isa.sm() + " encoding form for '" + text + "'");
        }
        List<SassForm> candidates = isa.formsWithSkeleton(skeleton);
        String[] firstError = {null};
        for (SassForm f : candidates) {
            Encoded e = encode(f, lexed.lexemes(), control, address, labels, firstError);
            if (e == null) {
                continue;
            }
            // The words must decode with this very form: a form whose fixed bits happen to fit (e.g. a narrow branch
            // offset) but that the decoder would not pick is the wrong encoding (the same encoding under nvdisasm's
            // operand-dependent name counts: IMAD R, R, RZ, R is IMAD.MOV).
            if (!readsBack(f, e, text, address, ReadBack.SAME_FORM)) {
                if (firstError[0] == null) {
                    firstError[0] = "the values do not fit form " + f.mnemonic;
                }
                continue;
            }
            return e;
        }
        // Operand values the learned tables saw only once: a generalized form. Its words must not decode as something
        // else (the decoder either prints the same text or does not know the encoding).
        for (SassForm f : isa.generalizedWithSkeleton(skeleton)) {
            Encoded e = encodedReadingBack(f, lexed, text, control, address, labels, firstError,
                    ReadBack.NOTHING_ELSE);
            if (e != null) {
                return e;
            }
        }
        // Modifier combinations ptxas never emitted: a learned form with its modifier enums set to the text's values.
        List<SassForm> composed = isa.composedWithSkeleton(skeleton);
        for (SassForm f : composed) {
            // the words must decode with this composed form, or at least print the same text
            Encoded e = encodedReadingBack(f, lexed, text, control, address, labels, firstError, ReadBack.SAME_TEXT);
            if (e != null) {
                return e;
            }
        }
        Encoded alias = imadAlias(lexed, text, control, address, labels);
        if (alias != null) {
            return alias;
        }
        Encoded hinted = hinted(text, control, address, labels);
        if (hinted != null) {
            return hinted;
        }
        Encoded guarded = underAlwaysTrueGuard(text, skeleton, control, address, labels);
        if (guarded != null) {
            return guarded;
        }
        if (candidates.isEmpty() && composed.isEmpty() && firstError[0] == null) {
            if (!anyPoolSpells(skeleton, text)) {
                if (formless.size() >= FORMLESS_LIMIT) {
                    formless.clear();
                }
                formless.add(skeleton);
            }
            throw new AssemblyException("no " + isa.sm() + " encoding form for '" + text + "'");
        }
        throw new AssemblyException("cannot encode '" + text + "' for " + isa.sm() + ": " + firstError[0]);
    }

    /**
     * Whether any of the pools {@link #encoded(SassLexer.Lexed, String, Control, long, LabelResolver)} searches could
     * encode some text of {@code skeleton}, whatever its operands: learned, generalized and composed forms, the IMAD
     * names, hint tokens, and guarded forms under {@code @PT}. A skeleton none spells is {@link #formless}; a new pool
     * must answer here too.
     */
    private boolean anyPoolSpells(String skeleton, String text) {
        return !isa.formsWithSkeleton(skeleton).isEmpty()
                || !isa.generalizedWithSkeleton(skeleton).isEmpty()
                || !isa.composedWithSkeleton(skeleton).isEmpty()
                || ImadName.of(skeleton) != null
                || isa.hints().strip(text) != null
                || !text.startsWith("@") && guardedSpells(skeleton);
    }

    /**
     * Whether a guarded form spells {@code skeleton} under a guard: learned, generalized or composed (a composed
     * modifier on a form whose guard nvdisasm hides at PT: sm_75's {@code HADD2 R247, -R63, R249.H0_H0}).
     */
    private boolean guardedSpells(String skeleton) {
        String guarded = "@{} " + skeleton;
        return !isa.formsWithSkeleton(guarded).isEmpty() || !isa.generalizedWithSkeleton(guarded).isEmpty()
                || !isa.composedWithSkeleton(guarded).isEmpty();
    }

    /**
     * Unguarded text only a guarded form spells (nvdisasm prints a word under {@code @PT} without its guard): the
     * text under {@code @PT}, if the words print as the text.
     */
    private Encoded underAlwaysTrueGuard(String text, String skeleton, Control control, long address,
            LabelResolver labels) {
        if (text.startsWith("@") || !guardedSpells(skeleton)) {
            return null;
        }
        String under = "@PT " + text;
        Encoded e;
        try {
            e = encoded(SassLexer.lex(under), under, control, address, labels);
        } catch (AssemblyException | IllegalArgumentException x) {
            return null;
        }
        SassInstruction back = isa.decode(e.words()[0], e.words()[1]);
        return back instanceof SassInstruction.Known k
                && SassLexer.normalize(SassPrinter.text(k, address, null)).equals(text) ? e : null;
    }

    /**
     * Text with lazy hint tokens ({@link HintFields}: {@code LD.E.EL.LTC128B.U8}): the text without them assembled,
     * the fields set, if the words decode to the text.
     */
    private Encoded hinted(String text, Control control, long address, LabelResolver labels) {
        HintFields.Stripped s = isa.hints().strip(text);
        if (s == null) {
            return null;
        }
        Encoded plain;
        try {
            plain = encoded(SassLexer.lex(s.text()), s.text(), control, address, labels);
        } catch (AssemblyException | IllegalArgumentException e) {
            return null;
        }
        long[] words = plain.words().clone();
        if (!isa.hints().apply(s, words, SassIsa.keyOf(words[0], words[1]))) {
            return null;
        }
        SassInstruction back = isa.decode(words[0], words[1]);
        if (back instanceof SassInstruction.Known k
                && SassLexer.normalize(SassPrinter.text(k, address, null)).equals(text)) {
            return new Encoded(words, decodedAs(k, plain.op()));
        }
        return null;
    }

    /**
     * The encoded operation under the form its words decode with, when that form has the same slots; else as encoded
     * (a form printing a guard the decoded one hides at PT has a slot more, so its values do not line up).
     */
    private static SassOp decodedAs(SassInstruction.Known k, SassOp encoded) {
        return k.form().slotCount() == encoded.form().slotCount()
                ? new SassOp(k.form(), encoded.values(), encoded.targets()) : encoded;
    }

    /**
     * The mnemonic of a skeleton ({@code @{} IMAD.MOV.U32 {}, {}, {}, {}}) when it is one of nvdisasm's IMAD names
     * with operands: where it starts and ends, and whether it is {@code .U32}.
     */
    private record ImadName(int start, int end, boolean u32) {
        private static final List<String> NAMES = List.of("IMAD", "IMAD.MOV", "IMAD.IADD", "IMAD.SHL");

        static ImadName of(String skeleton) {
            int start = skeleton.startsWith("@") ? skeleton.indexOf(' ') + 1 : 0;
            int end = skeleton.indexOf(' ', start);
            if (start <= 0 && skeleton.startsWith("@") || end < 0) {
                return null;
            }
            String mnemonic = skeleton.substring(start, end);
            boolean u32 = mnemonic.endsWith(".U32");
            String name = u32 ? mnemonic.substring(0, mnemonic.length() - ".U32".length()) : mnemonic;
            return NAMES.contains(name) ? new ImadName(start, end, u32) : null;
        }

        /** {@code skeleton} under IMAD name {@code name}. */
        String renamed(String skeleton, String name) {
            return skeleton.substring(0, start) + name + (u32 ? ".U32" : "") + skeleton.substring(end);
        }
    }

    /**
     * Text in one of nvdisasm's operand-dependent IMAD names ({@link ImadAlias}) that no form of that name encodes
     * ({@code IMAD.MOV R21, R21, RZ, R5}): a form of another of the names, if the words decode to the same text.
     */
    private Encoded imadAlias(SassLexer.Lexed lexed, String text, Control control, long address, LabelResolver labels) {
        ImadName imad = ImadName.of(lexed.skeleton());
        if (imad == null) {
            return null;
        }
        for (String name : ImadName.NAMES) {
            String skeleton = imad.renamed(lexed.skeleton(), name);
            // composed too: IMAD.U32 on a constant bank is only composed (IMAD.MOV.U32 R142, RZ, c[0x1b][0x613c], R179)
            for (List<SassForm> pool : List.of(isa.formsWithSkeleton(skeleton), isa.generalizedWithSkeleton(skeleton),
                    isa.composedWithSkeleton(skeleton))) {
                for (SassForm f : pool) {
                    Encoded e = encode(f, lexed.lexemes(), control, address, labels, new String[1]);
                    if (e == null) {
                        continue;
                    }
                    SassInstruction back = isa.decode(e.words()[0], e.words()[1]);
                    if (back instanceof SassInstruction.Known k
                            && SassLexer.normalize(SassPrinter.text(k, address, null)).equals(text)) {
                        return new Encoded(e.words(), decodedAs(k, e.op()));
                    }
                }
            }
        }
        return null;
    }

    /** The words of {@code f} with the operand values, or null (noting why in {@code firstError}). */
    private static Encoded encode(SassForm f, List<Lexeme> lexemes, Control control, long address, LabelResolver labels,
                                  String[] firstError) {
        long[] words = {f.bitsLo, f.bitsHi};
        long[] values = new long[f.slots.length];
        String[] targets = new String[f.slots.length];
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
                    values[i] = fs.kind().encode(lex, fs.field().width(), fs.shift(), address, labels);
                    fs.insert(values[i], words);
                    if (fs.kind() == SlotKind.LABEL) {
                        // the op keeps the target, not the offset from this address: by name, or as an address
                        if (lex.type() == Lexeme.Type.LABEL) {
                            targets[i] = lex.labelName();
                            values[i] = 0;
                        } else {
                            values[i] = lex.number();
                        }
                    }
                } catch (IllegalArgumentException e) {
                    if (firstError[0] == null) {
                        firstError[0] = e.getMessage();
                    }
                    return null;
                }
            }
        }
        if (!f.repeatsAgree(values)) {
            if (firstError[0] == null) {
                firstError[0] = "form " + f.mnemonic + " prints one register twice; the operands differ";
            }
            return null;
        }
        if (f.excludeSlots.length != 0) {
            long[] fieldValues = new long[f.slots.length];
            for (int i = 0; i < f.slots.length; i++) {
                if (f.slots[i] instanceof SassSlot.Field fs) {
                    fieldValues[i] = fs.field().extract(words[0], words[1]);
                }
            }
            if (f.excluded(fieldValues)) {
                if (firstError[0] == null) {
                    firstError[0] = "nvdisasm prints these operand values with another form";
                }
                return null;
            }
        }
        // Control bits the form fixes ([125:122] when printed as .reuse) come from the text, not the annotation.
        words[1] |= control.toHi() & ~f.maskHi;
        return new Encoded(words, new SassOp(f, values, targets));
    }
}
