package org.jptxas.scheduler.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.sass.Lexeme;
import org.jptxas.sass.SassForm;
import org.jptxas.sass.SassLexer;
import org.jptxas.sass.SassOperands;
import org.jptxas.sass.SassSlot;
import org.jptxas.sass.SlotKind;
import org.jptxas.scheduler.model.RegFile;

/**
 * An instruction as {@link SassReader} needs it: opcode parts, guard and operands with the registers each names.
 * Made from a typed instruction ({@link #of(SassForm, long[])}: the form's operand layout and the field values) or,
 * for listings that arrive as text (nvdisasm's output, a file), from its text ({@link #of(String)}); both give the same
 * shape for the same instruction, which {@code SassShapeTest} checks over generated and decoded code.
 *
 * @param opcode   mnemonic and modifiers in print order: {@code [IMAD, WIDE, U32]}
 * @param guard    the guard predicate ({@code P}/{@code UP} and number, 7 for {@code PT}), or null
 * @param operands the operands in print order (destinations first)
 * @param numbers  the numbers a {@code DEPBAR} names, in print order (scoreboard, count, listed scoreboards);
 *                 empty for other instructions
 * @param timer    whether an operand is a clock or timer special register ({@code SR_CLOCKLO}, {@code SR_GLOBALTIMER})
 * @param texture  the operand layout of a texture instruction ({@code TEX}, {@code TLD}, {@code TLD4}, {@code TXQ}),
 *                 null for other instructions
 */
public record SassShape(List<String> opcode, Reg guard, boolean guardNegated, List<Operand> operands,
                        List<Long> numbers, boolean timer, Texture texture) {

    /**
     * What a texture instruction's operands say about its registers (see {@link TextureOperands}).
     *
     * @param dimensions    the coordinates its dimension operand names (an array's layer counted; 1 for TXQ)
     * @param writeMask     the enabled result components (0xf when not printed)
     * @param uniformHandle whether an operand is a uniform register (the handle is a uniform pair)
     */
    public record Texture(int dimensions, int writeMask, boolean uniformHandle) {}

    /**
     * A register an operand names.
     *
     * @param width       registers it spans as printed: 2 for a {@code .64} suffix, 4 for {@code .128}, else 1
     * @param addressBase whether it opens an address ({@code [R2]}, {@code [R2+0x10]}) without a width suffix
     */
    public record Reg(RegFile file, int number, int width, boolean addressBase) {}

    /**
     * One operand.
     *
     * @param memory     an address: it has brackets
     * @param descriptor a {@code desc[UR4][...]} address
     * @param predicate  a lone predicate register, possibly negated ({@code P0}, {@code !UPT})
     * @param negated    written with a leading {@code !}
     * @param leadingGpr past its sign, absolute-value and negation marks it starts with a GPR ({@code -|R2|})
     * @param bare       a register alone, without marks or suffixes ({@code R2}, {@code RZ}, {@code PT})
     * @param simple     a register without suffixes, at most negated and in absolute-value bars ({@code -|R2|})
     */
    public record Operand(List<Reg> regs, boolean memory, boolean descriptor, boolean predicate, boolean negated,
                          boolean leadingGpr, boolean bare, boolean simple) {}

    public String mnemonic() {
        return opcode.get(0);
    }

    /** Whether any operand is a {@code desc[...]} address. */
    public boolean hasDescriptor() {
        for (Operand o : operands) {
            if (o.descriptor()) {
                return true;
            }
        }
        return false;
    }

    /** The first register opening an address without a width suffix, or null. */
    public Reg addressBase() {
        for (Operand o : operands) {
            for (Reg r : o.regs()) {
                if (r.addressBase()) {
                    return r;
                }
            }
        }
        return null;
    }

    // ---- from text ----

    private static final Pattern REG = Pattern.compile(
            "(?<![\\w.])(UR|UP|R|P|B)(\\d+|Z|T)((?:\\.(?:64|128|reuse|H0|H1|B0|B1|B2|B3|X4|F32|U32|H0_H0|H1_H1))*)");
    private static final Pattern BARE = Pattern.compile("(UR|UP|R|P|B)(\\d+|Z|T)");
    private static final Pattern SIMPLE = Pattern.compile("[-~]?\\|?(UR|UP|R|P|B)(\\d+|Z|T)\\|?");
    private static final Pattern NUMBER = Pattern.compile("0x[0-9a-fA-F]+|\\d+");
    private static final Pattern HEX = Pattern.compile("-?0x[0-9a-fA-F]{1,16}");

    /** The shape of an instruction's text as nvdisasm prints it (without address, {@code ;} and control). */
    public static SassShape of(String line) {
        String text = line.strip();
        Reg guard = null;
        boolean negated = false;
        if (text.startsWith("@")) {
            int sp = text.indexOf(' ');
            negated = text.startsWith("@!");
            guard = predicate(text.substring(negated ? 2 : 1, sp));
            text = text.substring(sp + 1).strip();
        }
        int sp = text.indexOf(' ');
        String opcodeText = sp < 0 ? text : text.substring(0, sp);
        String rest = sp < 0 ? "" : text.substring(sp + 1);
        List<Operand> operands = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<Long> immediates = new ArrayList<>();
        for (String op : splitOperands(rest)) {
            List<Reg> regs = new ArrayList<>(2);
            scan(op, regs);
            boolean bare = BARE.matcher(op).matches();
            operands.add(new Operand(List.copyOf(regs), op.contains("["), op.startsWith("desc["), isPred(op),
                    op.startsWith("!"), startsWithGpr(op), bare, bare || SIMPLE.matcher(op).matches()));
            names.add(regs.isEmpty() ? op : null);
            immediates.add(HEX.matcher(op).matches() ? hex(op) : null);
        }
        String mnemonic = opcodeText.split("\\.")[0];
        List<Long> numbers = List.of();
        if (opcodeText.startsWith("DEPBAR")) {
            numbers = new ArrayList<>();
            Matcher m = NUMBER.matcher(rest);
            while (m.find()) {
                numbers.add(Long.decode(m.group()));
            }
        }
        return new SassShape(List.of(opcodeText.split("\\.")), guard, negated, List.copyOf(operands),
                List.copyOf(numbers), rest.contains("SR_CLOCK") || rest.contains("SR_GLOBALTIMER"),
                TextureOperands.layout(mnemonic, names, immediates, usesUniform(operands)));
    }

    /** The value of {@code 0x...} or {@code -0x...} (64 bits, two's complement). */
    private static long hex(String t) {
        boolean negative = t.startsWith("-");
        long v = Long.parseUnsignedLong(t.substring(negative ? 3 : 2), 16);
        return negative ? -v : v;
    }

    /** Whether an operand names a uniform register. */
    private static boolean usesUniform(List<Operand> operands) {
        for (Operand o : operands) {
            for (Reg r : o.regs()) {
                if (r.file() == RegFile.UR) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The registers named in {@code text}, appended to {@code out}. */
    private static void scan(String text, List<Reg> out) {
        Matcher x = REG.matcher(text);
        while (x.find()) {
            RegFile f = switch (x.group(1)) {
                case "R" -> RegFile.R;
                case "UR" -> RegFile.UR;
                case "P" -> RegFile.P;
                case "UP" -> RegFile.UP;
                default -> RegFile.B;
            };
            String num = x.group(2);
            int reg;
            if (num.equals("Z") || num.equals("T")) {
                reg = f.zero();
                if (reg < 0) {
                    continue;
                }
            } else {
                reg = Integer.parseInt(num);
            }
            String suffix = x.group(3);
            boolean base = suffix.isEmpty() && !num.equals("Z") && x.start() > 0 && text.charAt(x.start() - 1) == '['
                    && (x.end() == text.length() || text.charAt(x.end()) != '.');
            out.add(new Reg(f, reg, width(suffix), base));
        }
    }

    private static int width(String suffix) {
        return suffix.contains(".128") ? 4 : suffix.contains(".64") ? 2 : 1;
    }

    private static Reg predicate(String token) {
        boolean uniform = token.startsWith("UP");
        String num = token.substring(uniform ? 2 : 1);
        RegFile f = uniform ? RegFile.UP : RegFile.P;
        return new Reg(f, num.equals("T") ? f.zero() : Integer.parseInt(num), 1, false);
    }

    /** {@code !?U?P(\d|T)}: a predicate register, possibly negated, alone. */
    private static boolean isPred(String op) {
        int k = op.startsWith("!") ? 1 : 0;
        if (op.startsWith("U", k)) {
            k++;
        }
        if (op.length() != k + 2 || op.charAt(k) != 'P') {
            return false;
        }
        char c = op.charAt(k + 1);
        return c == 'T' || c >= '0' && c <= '9';
    }

    /** Whether the operand, past its sign, absolute-value and negation marks, starts with {@code R}. */
    private static boolean startsWithGpr(String op) {
        int k = marks(op);
        return op.startsWith("R", k);
    }

    private static int marks(CharSequence op) {
        int k = 0;
        while (k < op.length() && "-|!~".indexOf(op.charAt(k)) >= 0) {
            k++;
        }
        return k;
    }

    /** Splits at top-level commas (not inside brackets, braces or parentheses). */
    public static List<String> splitOperands(String s) {
        List<String> out = new ArrayList<>();
        int depth = 0;
        StringBuilder cur = new StringBuilder();
        for (char ch : s.toCharArray()) {
            if (ch == '[' || ch == '{' || ch == '(') {
                depth++;
            } else if (ch == ']' || ch == '}' || ch == ')') {
                depth--;
            }
            if (ch == ',' && depth == 0) {
                out.add(cur.toString().strip());
                cur.setLength(0);
            } else {
                cur.append(ch);
            }
        }
        if (!cur.toString().isBlank()) {
            out.add(cur.toString().strip());
        }
        return out;
    }

    // ---- from a typed instruction ----

    /**
     * The shape of the instruction of form {@code form} with field values {@code values} (unsigned field content per
     * slot, as {@link org.jptxas.sass.SassOp} and the decoder give them). Registers and numbers come from the field
     * values and from the form's literal slots, each read as the assembler reads it ({@link SassLexer#register}:
     * {@code RZ}, {@code PT}, {@code SB0} fixed by the form's bits); no instruction text is made or read. The
     * form's literal text around the slots says only where an operand is an address ({@code [}), negated or in
     * absolute-value bars, and which special register a fieldless operand names.
     */
    public static SassShape of(SassForm form, long[] values) {
        SassOperands layout = form.operands();
        Reg guard = null;
        if (layout.guardSlot() >= 0 && !form.guardAlwaysTrue(values)) {
            guard = guardOf(form.slot(layout.guardSlot()), values[layout.guardSlot()]);
        }
        List<Operand> operands = new ArrayList<>(layout.operands().size());
        boolean depbar = form.mnemonic().startsWith("DEPBAR");
        List<Long> numbers = depbar ? new ArrayList<>() : null;
        boolean timer = false;
        List<String> names = new ArrayList<>();
        List<Long> immediates = new ArrayList<>();
        StringBuilder run = new StringBuilder();
        for (SassOperands.Operand o : layout.operands()) {
            List<Reg> regs = new ArrayList<>(2);
            boolean memory = false;
            String lead = null; // the literal text before the first field slot
            SlotKind firstKind = null;
            RegFile literalFile = null; // the file of a register the form fixes, when it is the operand's only slot
            int fields = 0;
            run.setLength(0);
            for (int k = 0; k <= o.slots().size(); k++) {
                run.append(o.texts().get(k));
                if (k == o.slots().size()) {
                    break;
                }
                int s = o.slots().get(k);
                String after = o.texts().get(k + 1);
                if (form.slot(s) instanceof SassSlot.Literal lit) {
                    RegFile file = literal(lit.text(), run, after, regs, numbers);
                    if (o.slots().size() == 1) {
                        literalFile = file;
                    }
                    run.append(lit.text());
                    continue;
                }
                SassSlot.Field f = (SassSlot.Field) form.slot(s);
                fields++;
                if (lead == null) {
                    lead = run.toString();
                    firstKind = f.kind();
                }
                memory |= run.indexOf("[") >= 0;
                timer |= namesTimer(run);
                RegFile file = fileOf(f.kind());
                if (file != null) {
                    String suffix = suffix(after);
                    int reg = (int) values[s];
                    if (reg == f.kind().zeroValue(f.field().positions().length) && f.kind() != SlotKind.BAR) {
                        reg = file.zero(); // URZ is all ones of its field: 255 in Blackwell's 8-bit fields, as the text reads
                    }
                    boolean zero = reg == file.zero() && f.kind() != SlotKind.BAR;
                    boolean base = suffix.isEmpty() && !zero && run.length() > 0 && run.charAt(run.length() - 1) == '[';
                    regs.add(new Reg(file, reg, width(suffix), base));
                } else if (depbar) {
                    numbers.add(values[s]);
                }
                run.setLength(0);
            }
            memory |= run.indexOf("[") >= 0;
            timer |= namesTimer(run);
            String whole = lead == null ? run.toString() : lead;
            RegFile file = fields == 0 ? literalFile : fileOf(firstKind);
            boolean predicate = false;
            boolean leadingGpr;
            boolean bare = false;
            boolean simple = false;
            if (fields == 0 && literalFile == null) {
                leadingGpr = startsWithGpr(whole);
            } else {
                String before = o.texts().get(0);
                String first = fields == 0 ? before : lead;
                boolean register = o.slots().size() == 1 && file != null && regs.size() == 1;
                String after = o.texts().get(1);
                bare = register && first.isEmpty() && after.isEmpty();
                simple = register && isMarks(first) && (after.isEmpty() || after.equals("|"));
                predicate = fields <= 1 && o.slots().size() == 1 && (file == RegFile.P || file == RegFile.UP)
                        && (first.isEmpty() || first.equals("!")) && after.isEmpty();
                int m = marks(first);
                leadingGpr = m < first.length() ? first.startsWith("R", m) : file == RegFile.R;
            }
            operands.add(new Operand(List.copyOf(regs), memory, whole.startsWith("desc["), predicate,
                    whole.startsWith("!"), leadingGpr, bare, simple));
            names.add(fields == 0 && regs.isEmpty() ? whole : null);
            immediates.add(immediate(form, o, values));
        }
        return new SassShape(List.of(form.mnemonic().split("\\.")), guard, layout.guardNegated(),
                List.copyOf(operands), depbar ? List.copyOf(numbers) : List.of(), timer,
                TextureOperands.layout(form.mnemonic().split("\\.")[0], names, immediates, usesUniform(operands)));
    }

    /**
     * Reads a literal slot of text {@code text} (a register or number the form's bits fix), which follows the
     * operand text {@code before} and precedes {@code after}: a register goes to {@code regs} (as the listing reader
     * counts it: not after a {@code .}), a number (or a scoreboard's) to {@code numbers} when not null. Returns the
     * register's file, or null.
     */
    private static RegFile literal(String text, CharSequence before, String after, List<Reg> regs, List<Long> numbers) {
        Lexeme r = SassLexer.register(text);
        boolean afterDot = before.length() > 0 && before.charAt(before.length() - 1) == '.';
        RegFile file = r == null || afterDot ? null : fileOfPrefix(r.prefix());
        if (file != null) {
            int number = (int) r.number();
            boolean zero = text.endsWith("Z") || text.endsWith("T");
            if (!(zero && file.zero() < 0)) {
                String suffix = suffix(after);
                boolean base = suffix.isEmpty() && !text.endsWith("Z") && before.length() > 0
                        && before.charAt(before.length() - 1) == '[';
                regs.add(new Reg(file, zero ? file.zero() : number, width(suffix), base));
            }
        }
        if (numbers != null) {
            if (r != null) {
                if (!text.endsWith("Z") && !text.endsWith("T")) {
                    numbers.add(r.number());
                }
            } else if (text.startsWith("0x")) {
                numbers.add(hex(text));
            } else if (!text.isEmpty() && Character.isDigit(text.charAt(0))) {
                numbers.add(Long.parseLong(text));
            }
        }
        return file;
    }

    /** The value an operand that is one hexadecimal number prints (a field, or fixed by the form), else null. */
    private static Long immediate(SassForm form, SassOperands.Operand o, long[] values) {
        if (o.slots().size() != 1 || !o.texts().get(0).isEmpty() || !o.texts().get(1).isEmpty()) {
            return null;
        }
        int s = o.slots().get(0);
        if (form.slot(s) instanceof SassSlot.Field f) {
            return switch (f.kind()) {
                case HEX -> values[s] << f.shift();
                case SHEX -> {
                    int w = f.field().width();
                    yield (w >= 64 ? values[s] : values[s] << (64 - w) >> (64 - w)) << f.shift();
                }
                default -> null;
            };
        }
        String t = ((SassSlot.Literal) form.slot(s)).text();
        return t.startsWith("0x") || t.startsWith("-0x") ? hex(t) : null;
    }

    /** {@code [-~]?\|?}: the marks a plain register operand may start with. */
    private static boolean isMarks(String lead) {
        int k = !lead.isEmpty() && (lead.charAt(0) == '-' || lead.charAt(0) == '~') ? 1 : 0;
        if (k < lead.length() && lead.charAt(k) == '|') {
            k++;
        }
        return k == lead.length();
    }

    /** Whether literal operand text names a clock or timer special register. */
    private static boolean namesTimer(CharSequence run) {
        if (run.length() == 0) {
            return false;
        }
        String text = run.toString();
        return text.contains("SR_CLOCK") || text.contains("SR_GLOBALTIMER");
    }

    private static RegFile fileOfPrefix(String prefix) {
        return switch (prefix) {
            case "R" -> RegFile.R;
            case "UR" -> RegFile.UR;
            case "P" -> RegFile.P;
            case "UP" -> RegFile.UP;
            case "B" -> RegFile.B;
            default -> null;
        };
    }

    private static Reg guardOf(SassSlot slot, long value) {
        if (slot instanceof SassSlot.Field f) {
            RegFile file = f.kind() == SlotKind.UPRED ? RegFile.UP : RegFile.P;
            return new Reg(file, (int) value, 1, false);
        }
        return predicate(((SassSlot.Literal) slot).text());
    }

    private static RegFile fileOf(SlotKind kind) {
        return switch (kind) {
            case GPR -> RegFile.R;
            case UGPR -> RegFile.UR;
            case PRED -> RegFile.P;
            case UPRED -> RegFile.UP;
            case BAR -> RegFile.B;
            default -> null;
        };
    }

    /** The width suffixes a register field's text continues with ({@code .64.reuse} of {@code .64.reuse], R2}). */
    private static String suffix(String after) {
        int k = 0;
        while (k < after.length() && after.charAt(k) == '.') {
            int e = k + 1;
            while (e < after.length() && (Character.isLetterOrDigit(after.charAt(e)) || after.charAt(e) == '_')) {
                e++;
            }
            k = e;
        }
        return after.substring(0, k);
    }
}
