package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.lang3.StringUtils;

/**
 * Renders instruction lines in nvdisasm's layout: {@code /*addr*}{@code /}, the guard right-aligned in 18 columns,
 * the instruction and {@code " ;"}; with encodings, the two {@code /* 0x... *}{@code /} comments aligned two columns
 * after the longest instruction of the listing. Branch targets are named {@code .L_x_N} (numbered across the whole
 * output, as nvdisasm does) or by the function name at the section start.
 */
public final class SassListing {
    private final SassIsa isa;
    private final boolean hex;
    private final boolean control;
    private int nextLabel;
    /** When >= 0, end-of-function labels are numbered from here (after every branch label of the file). */
    private int nextEndLabel = -1;
    private int unranked;

    /**
     * One rendered code block. {@code width} is the longest plain instruction line (where indirect-branch annotations
     * start); {@code annotatedWidth} also counts the annotated lines (the encoding comments go two columns after it).
     */
    public record Block(List<String> lines, Map<Long, String> labels, String endLabel, int unknown, int width,
                        int annotatedWidth) {}

    /**
     * A code block's annotations, made by the caller from the cubin: {@code labels} (address -> label) name the
     * indirect branches and their targets (from the jump-table attribute) where no branch label is, and each
     * instruction in {@code notes} prints its note as nvdisasm does in place of {@code " ;"}, starting at the file's
     * plain width: {@code BRX R2 -0x90 (*"BRANCH_TARGETS .L_x_6,..."*);} or a relocation's
     * {@code YIELD (*"RELOCATOR OPCODE,YIELD,280"*);}.
     */
    public record Annotations(Map<Long, String> labels, Map<Long, String> notes) {
        public static final Annotations NONE = new Annotations(Map.of(), Map.of());

        /** These labels with the notes of both (a note of this one wins at the same address). */
        public Annotations with(Map<Long, String> more) {
            if (more.isEmpty()) {
                return this;
            }
            Map<Long, String> all = new java.util.HashMap<>(more);
            all.putAll(notes);
            return new Annotations(labels, Map.copyOf(all));
        }
    }

    /**
     * Numbers end-of-function labels from {@code first} on, as nvdisasm does once all branch labels of the file are
     * numbered ({@code first} = the branch-label count, {@link #branchLabels()} of a first pass).
     */
    public SassListing endLabelsFrom(int first) {
        this.nextEndLabel = first;
        return this;
    }

    /** When set, the end label of function {@code f} is numbered from the {@code endLabelsFrom} base plus its rank. */
    private Map<String, Integer> endLabelRank = Map.of();

    /**
     * The end-label number of each function, counted from {@link #endLabelsFrom}: nvdisasm numbers end labels in
     * symbol-table order, not in section order, so the caller, who has the symbols, ranks them.
     */
    public SassListing endLabelRanks(Map<String, Integer> ranks) {
        this.endLabelRank = Map.copyOf(ranks);
        return this;
    }

    /** Branch labels numbered so far (with the {@link #labelsFrom} base). */
    public int branchLabels() {
        return nextLabel;
    }

    /**
     * Numbers branch labels from {@code first} on: nvdisasm numbers the labels it creates for relocation targets in
     * code before any branch target.
     */
    public SassListing labelsFrom(int first) {
        this.nextLabel = first;
        return this;
    }

    /**
     * Rewrites an instruction's text, e.g. to print a relocated operand as its symbol ({@code address} is the
     * instruction's; {@code labels} names code addresses as the listing does).
     */
    @FunctionalInterface
    public interface TextHook {
        String text(long address, SassInstruction inst, String text, LabelNamer labels);
    }

    public SassListing(SassIsa isa, boolean hex, boolean control) {
        this.isa = isa;
        this.hex = hex;
        this.control = control;
    }

    /**
     * Renders {@code code} (a multiple of 16 bytes). With {@code functionName} (cubin mode) branch targets get label
     * lines; without (raw mode) they print as addresses.
     */
    public Block render(byte[] code, long baseAddress, String functionName) {
        return render(code, baseAddress, functionName, 0);
    }

    /**
     * As {@link #render(byte[], long, String)}, with the encoding comments at least {@code minWidth + 2} columns in:
     * nvdisasm aligns them after the longest instruction of the whole file ({@link Block#width()}).
     */
    public Block render(byte[] code, long baseAddress, String functionName, int minWidth) {
        return render(code, baseAddress, functionName, Map.of(), minWidth);
    }

    /**
     * As above, with {@code symbols}: other function symbols inside the section (address → name, e.g. internal
     * subroutines), which name their addresses instead of {@code .L_x_N} and get their own label lines.
     */
    public Block render(byte[] code, long baseAddress, String functionName, Map<Long, String> symbols, int minWidth) {
        return render(code, baseAddress, functionName, symbols, Map.of(), null, minWidth);
    }

    /**
     * As above, with labels named beforehand ({@code preset}: address -> {@code .L_x_N}, e.g. the return addresses
     * of relocated calls; branch targets there keep that name; one at the code's end is its end label) and
     * {@code hook} (null: none) rewriting instruction texts.
     */
    public Block render(byte[] code, long baseAddress, String functionName, Map<Long, String> symbols,
                        Map<Long, String> preset, TextHook hook, int minWidth) {
        return render(code, baseAddress, functionName, symbols, preset, hook, Annotations.NONE, minWidth,
                minWidth);
    }

    /**
     * As above, with the block's {@code annotations}; their notes start at column {@code minWidth} and the encoding
     * comments at least two columns after {@code minAnnotatedWidth}.
     */
    public Block render(byte[] code, long baseAddress, String functionName, Map<Long, String> symbols,
                        Map<Long, String> preset, TextHook hook, Annotations indirect, int minWidth,
                        int minAnnotatedWidth) {
        int n = code.length / 16;
        SassInstruction[] insts = new SassInstruction[n];
        TreeMap<Long, String> labels = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            insts[i] = isa.decode(SassIsa.le64(code, 16 * i), SassIsa.le64(code, 16 * i + 8));
        }
        String endLabel = null;
        if (functionName != null) {
            labels.putAll(symbols);
            labels.putAll(preset);
            for (int i = 0; i < n; i++) {
                if (insts[i] instanceof SassInstruction.Known k) {
                    for (long t : k.branchTargets(baseAddress + 16L * i)) {
                        // nvdisasm numbers labels in order of first reference.
                        if (t >= baseAddress && t <= baseAddress + 16L * n && t != baseAddress && !labels.containsKey(t)) {
                            labels.put(t, ".L_x_" + nextLabel++);
                        }
                    }
                }
            }
            Integer rank = endLabelRank.get(functionName);
            String presetEnd = preset.get(baseAddress + 16L * n);
            endLabel = nextEndLabel < 0 ? null : presetEnd != null ? presetEnd
                    : rank != null ? ".L_x_" + (nextEndLabel + rank) : ".L_x_" + (nextEndLabel + endLabelRank.size() + unranked++);
            // jump-table labels come after every branch label of the file: they name only unlabelled addresses
            indirect.labels().forEach(labels::putIfAbsent);
            labels.put(baseAddress, functionName);
            labels.putAll(symbols);
        }
        List<String> texts = new ArrayList<>(n);
        int width = minWidth;
        int unknown = 0;
        boolean padding = false;
        for (int i = 0; i < n; i++) {
            long addr = baseAddress + 16L * i;
            StringBuilder sb = new StringBuilder(96);
            sb.append("        /*").append(String.format("%04x", addr)).append("*/");
            LabelNamer namer = functionName == null ? null : labels::get;
            String text = SassPrinter.text(insts[i], addr, namer);
            if (hook != null) {
                text = hook.text(addr, insts[i], text, namer);
            }
            if (insts[i] instanceof SassInstruction.Unknown) {
                unknown++;
            }
            String guard = "";
            // Only a P-register guard goes in the guard column; uniform-predicate guards stay inline.
            if (text.startsWith("@P") || text.startsWith("@!P")) {
                int sp = text.indexOf(' ');
                guard = text.substring(0, sp);
                text = text.substring(sp + 1);
            }
            // a closing self-loop: followed by a NOP or nothing (one followed by code, e.g. after a trap in the
            // middle of a function, is printed as any other)
            boolean selfLoop = insts[i] instanceof SassInstruction.Known k && guard.isEmpty()
                    && k.branchTargets(addr).equals(List.of(addr))
                    && (i + 1 == n || insts[i + 1] instanceof SassInstruction.Known next
                            && next.form().mnemonic().equals("NOP"));
            // nvdisasm writes the closing self-loop and the padding NOPs after it without the blank before ';'.
            padding = selfLoop || (padding && text.equals("NOP"));
            boolean tight = padding || insts[i].control().saysNothing();
            sb.append(StringUtils.leftPad(guard, 18)).append(' ').append(text)
                    .append(FloatText.trailingBlank(text) ? " " : "").append(tight ? ";" : " ;");
            if (control) {
                sb.append(' ').append(insts[i].control().text());
            }
            width = Math.max(width, sb.length());
            texts.add(sb.toString());
        }
        int annotatedWidth = Math.max(width, minAnnotatedWidth);
        if (functionName != null) {
            for (int i = 0; i < n; i++) {
                String note = indirect.notes().get(baseAddress + 16L * i);
                if (note != null && texts.get(i).endsWith(" ;")) {
                    // the annotation takes the place of " ;", at the file's plain width
                    String t = texts.get(i);
                    String annotated = StringUtils.rightPad(t.substring(0, t.length() - 2), width)
                            + "(*\"" + note + "\"*);";
                    texts.set(i, annotated);
                    // nvdisasm puts the encoding comment one column after an annotated line, two after a plain one
                    annotatedWidth = Math.max(annotatedWidth, annotated.length() - 1);
                }
            }
        }
        List<String> lines = new ArrayList<>(n * 2 + labels.size());
        for (int i = 0; i < n; i++) {
            long addr = baseAddress + 16L * i;
            String label = labels.get(addr);
            if (label != null && !label.equals(functionName)) {
                lines.add(label + ":");
            }
            String t = texts.get(i);
            if (hex) {
                SassInstruction inst = insts[i];
                lines.add(StringUtils.rightPad(t, annotatedWidth + 2) + String.format("/* 0x%016x */", inst.lo()));
                lines.add(" ".repeat(annotatedWidth + 2) + String.format("/* 0x%016x */", inst.hi()));
            } else {
                lines.add(t);
            }
        }
        if (endLabel != null) {
            lines.add(endLabel + ":");
        }
        return new Block(lines, labels, endLabel, unknown, width, annotatedWidth);
    }
}
