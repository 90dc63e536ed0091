package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.IntFunction;
import org.jptxas.isel.codegen.RecentMemo;
import org.jptxas.sass.FloatText;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BlockLabel;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Operand;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Sym;

/**
 * Prints an allocated instruction as the nvdisasm text of one target, such that the target's
 * {@link SassAssembler} encodes it.
 *
 * <p>What nvdisasm omits and how it spells an immediate depend on the encoding form, so the printer asks the target's
 * form table instead of keeping hand lists: it builds the candidate spellings (every operand present first, then
 * without default-valued {@code PT}/{@code RZ} operands; an immediate as signed hex, unsigned hex, binary32 or the
 * high half of a binary64; a 64-bit address with and without {@code .64}) and keeps the first the assembler accepts.
 * The assembler accepts only text that decodes back with the same form, i.e. nvdisasm's own spelling, so the result
 * is the canonical text. The search costs several trial assemblies per instruction, and the same instruction is printed
 * many times (the legalizer's encodability checks, selection, every function of a batch), so the outcome is memoized
 * per printer, keyed by everything it depends on; the memo only ever maps a key to the one answer the search gives,
 * so the printer stays observably immutable. Thread-safe.
 */
public final class SassTextPrinter {
    /** Where branch targets are placed while checking a candidate (any reachable address works). */
    private static final long PROBE_TARGET = 0x100;
    /** Bound on the omission subsets tried: more than this many default operands are never all optional. */
    private static final int MAX_OMITTABLE = 6;
    private static final org.jptxas.sass.Control PROBE_CONTROL = new org.jptxas.sass.Control(0, false, 7, 7, 0);

    /**
     * Bound on each generation of the memos (see {@link RecentMemo}): the large corpus functions have up to about 80,000
     * distinct instructions, which all stay.
     */
    private static final int MEMO_GENERATION = 1 << 17;

    private final SassIsa isa;
    private final SassAssembler assembler;
    /** Outcome per instruction: the {@link SassLine}, or the first assembler error (a {@link String}) if none. */
    private final RecentMemo<PrintKey, Object> memo = new RecentMemo<>(MEMO_GENERATION);
    /** The spelling that won per instruction shape: most instructions of a big function differ only in registers. */
    private final RecentMemo<PrintShape, Winner> shapes = new RecentMemo<>(MEMO_GENERATION);

    public SassTextPrinter(SassIsa isa) {
        this.isa = Objects.requireNonNull(isa, "isa");
        this.assembler = new SassAssembler(isa);
    }

    /** The printer of a described target's encoding table. */
    public static SassTextPrinter of(org.jptxas.spi.TargetDescription description) {
        return new SassTextPrinter(description.isa());
    }

    public SassIsa isa() {
        return isa;
    }

    /** An Ori instruction whose spelling is already the target's (sm_80 Ori on sm_80). */
    public SassLine print(Instr ins, IntFunction<String> blockLabels) {
        return print(SelectedInstr.passThrough(ins), blockLabels);
    }

    /**
     * The text of {@code s}; {@code blockLabels} names a block id's label ({@code .L_x_3}).
     *
     * @throws SelectionException when no spelling of the instruction is encodable on this target
     */
    public SassLine print(SelectedInstr s, IntFunction<String> blockLabels) {
        List<Src> ops = s.operands();
        List<String> labels = List.of();
        for (Src src : ops) {
            if (src.value() instanceof Reg r && r.virtual()) {
                throw new SelectionException(s.line(), "virtual register " + r + " reached the SASS printer in '" + s + "'");
            }
            if (src.value() instanceof BlockLabel bl) {
                labels = labels.isEmpty() ? new ArrayList<>(1) : labels;
                labels.add(blockLabels.apply(bl.block()));
            }
        }
        PrintKey key = new PrintKey(s.guard(), s.mnemonic(), ops, s.descriptor(), labels);
        Object outcome = memo.get(key);
        if (outcome == null) {
            outcome = memo.put(key, searchByShape(s, blockLabels));
        }
        if (outcome instanceof SassLine line) {
            return line;
        }
        throw new SelectionException(s.line(), "no " + isa.sm() + " encoding for '" + s + "'"
                + (s.line() > 0 ? " (PTX line " + s.line() + ")" : "") + ": " + outcome);
    }

    /**
     * {@link #search(SelectedInstr, IntFunction)}'s outcome, trying first the spelling that won for an instruction of
     * the same shape (see {@link PrintShape}): when that spelling encodes, the search would have returned it, since
     * the spellings before it failed for reasons the shape fixes (operand kinds, omitted operands, immediate values).
     */
    private Object searchByShape(SelectedInstr s, IntFunction<String> blockLabels) {
        PrintShape shape = PrintShape.of(s);
        Winner winner = shape == null ? null : shapes.get(shape);
        if (winner != null) {
            Spellings sp = spellings(s, blockLabels);
            try {
                return line(s, render(s, sp.alternatives, winner.omit(), winner.choice()), sp.reloc, sp.label);
            } catch (SassAssembler.AssemblyException e) {
                // this instruction's registers do not fit the spelling its shape took: search all of them
            }
        }
        Winner[] won = {null};
        Object outcome = search(s, blockLabels, won);
        if (won[0] != null && shape != null) {
            shapes.put(shape, won[0]);
        }
        return outcome;
    }

    /** The spelling choice a search settled on: the omitted operands and each present operand's spelling. */
    private record Winner(boolean[] omit, int[] choice) {}

    /** What the candidate spellings of an instruction are made of. */
    private record Spellings(List<List<Spelling>> alternatives, List<Integer> omittable, Sym reloc, String label) {}

    private static Spellings spellings(SelectedInstr s, IntFunction<String> blockLabels) {
        List<Src> ops = s.operands();
        int n = ops.size();
        List<List<Spelling>> alternatives = new ArrayList<>(n);
        List<Integer> omittable = new ArrayList<>();
        Sym reloc = null;
        String label = null;
        for (int i = 0; i < n; i++) {
            Src src = ops.get(i);
            alternatives.add(withHalfSelector(s.mnemonic(), src,
                    withLaneOffset(s.mnemonic(), i, withLayout(s.mnemonic(), i, spell(src, blockLabels)))));
            if (isDefault(src) && omittable.size() < MAX_OMITTABLE && i != s.descriptor()) {
                omittable.add(i);
            }
            if (src.value() instanceof Sym sym) {
                if (sym.part() == Sym.Part.WHOLE) {
                    label = sym.name();
                } else {
                    reloc = sym;
                }
            } else if (src.value() instanceof BlockLabel bl) {
                label = blockLabels.apply(bl.block());
            }
        }
        return new Spellings(alternatives, omittable, reloc, label);
    }

    /**
     * The canonical line of {@code s}, or the first assembler error when no spelling encodes; {@code won} receives
     * the winning choice when it needed no {@code .reuse} flags (those depend on which registers overlap).
     */
    private Object search(SelectedInstr s, IntFunction<String> blockLabels, Winner[] won) {
        List<Src> ops = s.operands();
        int n = ops.size();
        Spellings spelt = spellings(s, blockLabels);
        List<List<Spelling>> alternatives = spelt.alternatives;
        List<Integer> omittable = spelt.omittable;
        Sym reloc = spelt.reloc;
        String label = spelt.label;
        String[] firstError = {null};
        SassLine line = search(s, alternatives, omittable, reloc, label, firstError, won);
        if (line != null) {
            return line;
        }
        // Last resort: some forms were only ever seen with operand-reuse flags. Setting .reuse on a source is a
        // cache hint; it is safe when no other operand of the instruction names the register (so the instruction
        // does not overwrite what it asks the next one to reuse).
        List<Integer> reusable = new ArrayList<>();
        for (int i = 1; i < n && reusable.size() < 3; i++) {
            if (reusable(ops, i)) {
                reusable.add(i);
            }
        }
        for (int mask = 1; mask < (1 << reusable.size()); mask++) {
            List<List<Spelling>> withReuse = new ArrayList<>(alternatives);
            for (int b = 0; b < reusable.size(); b++) {
                if ((mask & (1 << b)) != 0) {
                    int i = reusable.get(b);
                    withReuse.set(i, alternatives.get(i).stream()
                            .map(sp -> new Spelling(sp.display + ".reuse", sp.assembly + ".reuse")).toList());
                }
            }
            line = search(s, withReuse, omittable, reloc, label, firstError, new Winner[1]);
            if (line != null) {
                return line;
            }
        }
        return String.valueOf(firstError[0]);
    }

    /** The first candidate spelling the target encodes, fewest omissions first; null if none. */
    private SassLine search(SelectedInstr s, List<List<Spelling>> alternatives, List<Integer> omittable, Sym reloc,
                            String probeLabel, String[] firstError, Winner[] won) {
        int n = alternatives.size();
        for (int dropped = 0; dropped <= omittable.size(); dropped++) {
            for (int mask = 0; mask < (1 << omittable.size()); mask++) {
                if (Integer.bitCount(mask) != dropped) {
                    continue;
                }
                boolean[] omit = new boolean[n];
                for (int b = 0; b < omittable.size(); b++) {
                    omit[omittable.get(b)] = (mask & (1 << b)) != 0;
                }
                int[] choice = new int[n];
                while (true) {
                    Candidate c = render(s, alternatives, omit, choice);
                    try {
                        SassLine line = line(s, c, reloc, probeLabel);
                        won[0] = new Winner(omit, choice);
                        return line;
                    } catch (SassAssembler.AssemblyException e) {
                        if (firstError[0] == null) {
                            firstError[0] = e.getMessage();
                        }
                    }
                    if (!next(choice, alternatives, omit)) {
                        break;
                    }
                }
            }
        }
        return null;
    }

    /** The line of candidate {@code c}, as the decoder prints its words. */
    private SassLine line(SelectedInstr s, Candidate c, Sym reloc, String probeLabel) {
        SassAssembler.Encoded encoded = assembler.encoded(c.assembly, PROBE_CONTROL, 0, name -> PROBE_TARGET);
        long[] words = encoded.words();
        String text;
        SassInstruction back = isa.decode(words[0], words[1]);
        if (reloc != null || !(back instanceof SassInstruction.Known)) {
            // A generalized form's words the decoder does not know: the candidate is the text.
            text = c.display;
        } else {
            text = SassPrinter.text(back, 0, a -> a == PROBE_TARGET ? probeLabel : null);
        }
        return new SassLine(text, reloc == null ? text : c.assembly, reloc, encoded.op());
    }

    /** A general register source no other operand of the instruction overlaps. */
    private static boolean reusable(List<Src> ops, int i) {
        if (!(ops.get(i).value() instanceof Reg r) || r.file() != RegFile.R || r.isZero() || ops.get(i).abs()) {
            return false;
        }
        for (int j = 0; j < ops.size(); j++) {
            if (j != i && overlaps(ops.get(j).value(), r)) {
                return false;
            }
        }
        return true;
    }

    private static boolean overlaps(Operand o, Reg r) {
        if (o instanceof Reg q) {
            return q.file() == r.file() && !q.isZero() && q.index() < r.index() + r.comps()
                    && r.index() < q.index() + q.comps();
        }
        if (o instanceof Addr a) {
            return overlaps(a.base(), r) || (a.uniformBase() != null && overlaps(a.uniformBase(), r));
        }
        return o instanceof CBank c && c.index() != null && overlaps(c.index(), r);
    }

    /** Advances the mixed-radix counter over the present operands' spellings; false when exhausted. */
    private static boolean next(int[] choice, List<List<Spelling>> alternatives, boolean[] omit) {
        for (int i = choice.length - 1; i >= 0; i--) {
            if (omit[i]) {
                continue;
            }
            if (++choice[i] < alternatives.get(i).size()) {
                return true;
            }
            choice[i] = 0;
        }
        return false;
    }

    private record Candidate(String display, String assembly) {}

    private static Candidate render(SelectedInstr s, List<List<Spelling>> alternatives, boolean[] omit, int[] choice) {
        StringBuilder d = new StringBuilder(48);
        StringBuilder a = new StringBuilder(48);
        if (!s.guard().isAlways()) {
            String g = "@" + (s.guard().negated() ? "!" : "") + regName(s.guard().predicate()) + " ";
            d.append(g);
            a.append(g);
        }
        WarpgroupOperands.Spelling wg = WarpgroupOperands.spelling(s.mnemonic());
        String mnemonic = wg == null ? s.mnemonic() : wg.mnemonic();
        d.append(mnemonic);
        a.append(mnemonic);
        if (s.mnemonic().equals("DEPBAR")) { // DEPBAR {5,4,3,2,1,0}: the scoreboards waited for, as a set
            String set = " {" + String.join(",", alternatives.stream().map(x -> String.valueOf(
                    Long.decode(x.get(0).display))).toList()) + "}";
            return new Candidate(d.append(set).toString(), a.append(set).toString());
        }
        String sep = " ";
        for (int i = 0; i < alternatives.size(); i++) {
            if (omit[i]) {
                continue;
            }
            Spelling sp = alternatives.get(i).get(choice[i]);
            if (wg != null) {
                sp = warpgroup(wg, i, s.operands(), sp);
            }
            if (i == s.descriptor()) {
                d.append(sep).append("desc[").append(sp.display).append(']');
                a.append(sep).append("desc[").append(sp.assembly).append(']');
                sep = "";
                continue;
            }
            if (i > 0 && (s.mnemonic().startsWith("RET.") || sp.display.startsWith("`(") && s.mnemonic().startsWith("CALL."))) {
                sep = " "; // nvdisasm writes what a return or call register is relative to without a comma
            }
            d.append(sep).append(sp.display);
            a.append(sep).append(sp.assembly);
            sep = ", ";
        }
        if (wg != null && wg.gsb0()) {
            d.append(sep).append(WarpgroupOperands.GSB0);
            a.append(sep).append(WarpgroupOperands.GSB0);
        }
        return new Candidate(d.toString(), a.toString());
    }

    /**
     * A warpgroup instruction's operand: {@code gdesc[URx].flags}, with A in registers its {@code -Ra} for
     * {@code .negA}, and DEPBAR's group {@code gsb0, N}.
     */
    private static Spelling warpgroup(WarpgroupOperands.Spelling wg, int i, List<Src> operands, Spelling sp) {
        Src src = operands.get(i);
        if (wg.depbar() && i == 0) {
            return new Spelling("gsb0, " + sp.display, "gsb0, " + sp.assembly);
        }
        boolean registerA = operands.size() > 1 && operands.get(1).value() instanceof Reg a && a.file() == RegFile.R;
        if (!wg.depbar() && registerA && i == 1 && wg.flags().contains("negA")) {
            return new Spelling("-" + sp.display, "-" + sp.assembly);
        }
        if (!wg.depbar() && WarpgroupOperands.isDescriptor(src)) {
            String suffix = wg.descriptorSuffix(registerA);
            return new Spelling("gdesc[" + sp.display + "]" + suffix, "gdesc[" + sp.assembly + "]" + suffix);
        }
        return sp;
    }

    /** How an operand may be written: nvdisasm's text and the text the assembler takes for it. */
    private record Spelling(String display, String assembly) {
        Spelling(String text) {
            this(text, text);
        }
    }

    /** A predicate or zero register at its default value, which some forms leave out of the text. */
    private static boolean isDefault(Src src) {
        return src.value() instanceof Reg r && r.isZero() && !src.hasModifiers();
    }

    /**
     * nvdisasm names the fragment layouts of an integer, binary or fp8 warp-level multiply's A and B ({@code IMMA.16832.S8.S8 R0,
     * R4.ROW, R8.COL, R0}) and of Turing's quad-pair {@code HMMA.884}; the layouts are fixed (mma.sync is always
     * {@code .row.col}), so the text carries them.
     */
    private static List<Spelling> withLayout(String mnemonic, int operand, List<Spelling> spellings) {
        boolean named = mnemonic.startsWith("IMMA.") || mnemonic.startsWith("BMMA.") || mnemonic.startsWith("QMMA.")
                || mnemonic.startsWith("HMMA.884.");
        if (!named || operand < 1 || operand > 2) {
            return spellings;
        }
        String layout = operand == 1 ? ".ROW" : ".COL";
        return spellings.stream().map(x -> new Spelling(x.display() + layout, x.assembly() + layout)).toList();
    }

    /**
     * HADD2.F32 converts its sources' low halves (cvt.f32.f16): a register source prints the {@code .H0_H0}
     * selector where the target's forms name it, as ptxas writes them: on the value always, on the negated zero only
     * where no form leaves it out ({@code HADD2.F32 R7, -RZ, R2.H0_H0}; sm_75's {@code HADD2.F32 R0, R0.H0_H0,
     * -RZ.H0_H0}).
     */
    private static List<Spelling> withHalfSelector(String mnemonic, Src src, List<Spelling> spellings) {
        if (!(mnemonic.equals("HADD2.F32") || mnemonic.startsWith("HADD2.F32."))
                || !(src.value() instanceof Reg r && r.file() == RegFile.R)) {
            return spellings;
        }
        List<Spelling> selected = new ArrayList<>(spellings.size());
        for (Spelling x : spellings) {
            selected.add(new Spelling(x.display() + ".H0_H0", x.assembly() + ".H0_H0"));
        }
        List<Spelling> out = new ArrayList<>(2 * spellings.size());
        out.addAll(r.isZero() ? spellings : selected);
        out.addAll(r.isZero() ? selected : spellings);
        return out;
    }

    /**
     * I2IP into 2- and 4-bit lanes prints c with the bit offset its low bits land at past the two lanes' saturated
     * values' nibble or byte ({@code I2IP.S2.S32.SAT R0, R1, R2, R3.28}: c's low 28 bits above a 4-bit pair; {@code .24}
     * for 4-bit lanes); the offset is fixed by the lane type, so the text carries it.
     */
    private static List<Spelling> withLaneOffset(String mnemonic, int operand, List<Spelling> spellings) {
        if (operand != 3 || !mnemonic.startsWith("I2IP.")) {
            return spellings;
        }
        String lanes = mnemonic.substring(5, Math.min(mnemonic.length(), 8));
        String suffix = switch (lanes) {
            case "U2.", "S2." -> ".28";
            case "U4.", "S4." -> ".24";
            default -> null;
        };
        return suffix == null ? spellings
                : spellings.stream().map(x -> new Spelling(x.display() + suffix, x.assembly() + suffix)).toList();
    }

    private static List<Spelling> spell(Src src, IntFunction<String> blockLabels) {
        Operand v = src.value();
        if (v instanceof Reg r) {
            return List.of(new Spelling(decorate(src, regName(r))));
        }
        if (v instanceof Imm imm) {
            List<Spelling> out = new ArrayList<>(4);
            for (String t : immediateTexts(imm.bits(), src.neg())) {
                out.add(t.endsWith("QNAN ") && !src.neg() ? nanSpelling(t, imm.bits()) : new Spelling(t));
            }
            return out;
        }
        if (v instanceof CBank c) {
            if (c.index() == null && c.offset() == 0) {
                // Forms with an index register print offset 0 as c[0x0][RZ] (LDC).
                return List.of(new Spelling(decorate(src, cbankText(c))),
                        new Spelling(decorate(src, "c[0x" + Integer.toHexString(c.bank()) + "][RZ]")));
            }
            return List.of(new Spelling(decorate(src, cbankText(c))));
        }
        if (v instanceof Addr addr) {
            if (addr.base().isZero() && addr.uniformBase() == null && addr.offset() == 0) {
                return List.of(new Spelling("[RZ]"), new Spelling(addressText(addr, false)));
            }
            if (addr.wide() && !addr.base().isZero()) {
                return List.of(new Spelling(addressText(addr, true)), new Spelling(addressText(addr, false)));
            }
            return List.of(new Spelling(addressText(addr, false)));
        }
        if (v instanceof SpecialReg sr) {
            return List.of(new Spelling(sr.name()));
        }
        if (v instanceof org.jptxas.ori.ir.BarrierReg b) {
            return List.of(new Spelling(b.toString()));
        }
        if (v instanceof BlockLabel bl) {
            return List.of(new Spelling("`(" + blockLabels.apply(bl.block()) + ")"));
        }
        if (v instanceof Sym sym) {
            // The relocated half keeps Ori's spelling (32@lo(g), 32@hi(g+8)), which the driver replaces by 0x0.
            return sym.part() == Sym.Part.WHOLE ? List.of(new Spelling("`(" + sym.name() + ")"))
                    : List.of(new Spelling(sym.toString(), "0x0"));
        }
        throw new IllegalArgumentException("operand " + v);
    }

    /**
     * A NaN immediate: nvdisasm's {@code ±QNAN} shown, its field bits assembled (the low 32 bits of a binary32 or
     * of the high half of a binary64 spelled whole), so a PTX immediate's payload reaches the word as ptxas writes it.
     */
    private static Spelling nanSpelling(String text, long bits) {
        long field = (bits >>> 32) == 0 ? bits : bits >>> 32;
        return new Spelling(text, FloatText.nanAssembly(field) + " ");
    }

    private static String decorate(Src src, String text) {
        String t = src.abs() ? "|" + text + "|" : text;
        if (src.neg()) {
            t = "-" + t;
        }
        if (src.not()) {
            // A predicate is inverted (!P0), a register's bits complemented (~R3).
            t = (src.value() instanceof Reg r && r.file().isPredicate() ? "!" : "~") + t;
        }
        return t;
    }

    static String regName(Reg r) {
        return r.isZero() ? r.file().zeroName() : r.file().prefix() + r.index();
    }

    /**
     * The spellings an immediate may take, one per slot kind: signed hex, unsigned hex, binary32, and the high half
     * of a binary64 (or a whole binary64 whose low half is zero).
     */
    static List<String> immediateTexts(long bits, boolean neg) {
        RecentMemo<Long, List<String>> memo = neg ? NEGATED_TEXTS : TEXTS;
        List<String> texts = memo.get(bits);
        return texts != null ? texts : memo.put(bits, List.copyOf(computeImmediateTexts(bits, neg)));
    }

    /**
     * The spellings per immediate value, kept: formatting a float the way nvdisasm does is costly and every miss of
     * the print memo spells its immediates anew, most of them values seen before (0, 1, 0x3f800000...).
     */
    private static final RecentMemo<Long, List<String>> TEXTS = new RecentMemo<>(1 << 16);
    private static final RecentMemo<Long, List<String>> NEGATED_TEXTS = new RecentMemo<>(1 << 16);

    private static List<String> computeImmediateTexts(long bits, boolean neg) {
        List<String> out = new ArrayList<>(4);
        if (bits >= Integer.MIN_VALUE && bits < 0) {
            out.add("-0x" + Long.toHexString(-bits));
            bits &= 0xffffffffL;
        } else if ((bits >>> 31) == 1 && (bits >>> 32) == 0) {
            out.add("-0x" + Long.toHexString(0x100000000L - bits));
        }
        out.add("0x" + Long.toHexString(bits));
        if ((bits >>> 32) == 0) {
            out.add(floatText(FloatText.format(Float.intBitsToFloat((int) bits))));
            if (bits != 0) {
                out.add(floatText(FloatText.format(Double.longBitsToDouble(bits << 32))));
            }
        } else if ((bits & 0xffffffffL) == 0) {
            out.add(floatText(FloatText.format(Double.longBitsToDouble(bits))));
        }
        if (neg) {
            out.replaceAll(t -> t.startsWith("-") ? t.substring(1) : "-" + t);
        }
        return out;
    }

    /** nvdisasm follows INF and QNAN with a blank. */
    private static String floatText(String t) {
        return FloatText.trailingBlank(t) ? t + " " : t;
    }

    static String cbankText(CBank c) {
        StringBuilder sb = new StringBuilder("c[0x").append(Integer.toHexString(c.bank())).append("][");
        if (c.index() != null) {
            sb.append(regName(c.index()));
            if (c.offset() != 0) {
                sb.append("+0x").append(Integer.toHexString(c.offset()));
            }
        } else {
            sb.append("0x").append(Integer.toHexString(c.offset()));
        }
        return sb.append(']').toString();
    }

    /** {@code [R2.64+UR4+0x10]}; {@code dot64} spells a 64-bit base with {@code .64} (sm_80 on; sm_75 has none). */
    static String addressText(Addr addr, boolean dot64) {
        StringBuilder sb = new StringBuilder("[");
        boolean any = false;
        if (!addr.base().isZero()) {
            sb.append(regName(addr.base()));
            if (dot64) {
                sb.append(".64");
            }
            any = true;
        }
        // an explicit URZ beside a register base is spelled: the [R+URZ] forms (SYNCS) have no [R] twin
        if (addr.uniformBase() != null && (!addr.uniformBase().isZero() || any)) {
            sb.append(any ? "+" : "").append(regName(addr.uniformBase()));
            any = true;
        }
        long off = addr.offset();
        if (!any) {
            sb.append(off < 0 ? "-0x" + Long.toHexString(-off) : "0x" + Long.toHexString(off));
        } else if (off != 0) {
            sb.append(off < 0 ? "+-0x" + Long.toHexString(-off) : "+0x" + Long.toHexString(off));
        }
        return sb.append(']').toString();
    }
}
