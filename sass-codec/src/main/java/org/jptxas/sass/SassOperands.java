package org.jptxas.sass;

import java.util.ArrayList;
import java.util.List;

/**
 * How a form's text falls into a guard, a mnemonic and operands, as nvdisasm writes it: the operands are split at
 * top-level commas (not inside brackets, braces or parentheses), each a run of literal text and slots. Computed once
 * per form from its pieces and slots (no instruction text is read); {@link SassOp} and decoded instructions give the
 * slots their values, so passes read an instruction's registers, addresses and immediates as typed values.
 */
public final class SassOperands {
    /** One operand: {@code texts[i]} is the literal text before {@code slots[i]}, the last entry the text after. */
    public record Operand(List<String> texts, List<Integer> slots) {
        /** The operand's text with its slots shown as {@code {}} (its shape). */
        public String shape() {
            return String.join("{}", texts);
        }

        /** Whether the operand is a memory address ({@code [...]}, {@code desc[...][...]}, {@code c[...][...]}). */
        public boolean hasBracket() {
            for (String t : texts) {
                if (t.indexOf('[') >= 0) {
                    return true;
                }
            }
            return false;
        }

        /** The literal text right after slot number {@code k} of this operand (its suffixes: {@code .64.reuse}). */
        public String after(int k) {
            return texts.get(k + 1);
        }

        /** The literal text right before slot number {@code k} of this operand (its prefixes: {@code -|}). */
        public String before(int k) {
            return texts.get(k);
        }
    }

    private final int guardSlot;
    private final boolean guardNegated;
    private final List<Operand> operands;

    private SassOperands(int guardSlot, boolean guardNegated, List<Operand> operands) {
        this.guardSlot = guardSlot;
        this.guardNegated = guardNegated;
        this.operands = List.copyOf(operands);
    }

    /** The slot of the guard predicate ({@code @P0}, {@code @!UP1}), or -1 when the form has none. */
    public int guardSlot() {
        return guardSlot;
    }

    /** Whether the guard is written negated ({@code @!P0}). */
    public boolean guardNegated() {
        return guardNegated;
    }

    public List<Operand> operands() {
        return operands;
    }

    static SassOperands of(SassForm f) {
        String[] pieces = f.pieces;
        int n = f.slots.length;
        int first = 0;
        int guard = -1;
        boolean negated = false;
        if (n > 0 && (pieces[0].equals("@") || pieces[0].equals("@!"))) {
            guard = 0;
            negated = pieces[0].equals("@!");
            first = 1;
        }
        // the piece after the guard (or the first) starts with the mnemonic; the operands follow its blank
        String lead = pieces[first].stripLeading();
        int blank = lead.indexOf(' ');
        String afterMnemonic = blank < 0 ? "" : lead.substring(blank + 1);
        List<Operand> out = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        List<Integer> slots = new ArrayList<>();
        StringBuilder part = new StringBuilder();
        int depth = 0;
        for (int k = first; k <= n; k++) {
            String piece = k == first ? afterMnemonic : pieces[k];
            for (int i = 0; i < piece.length(); i++) {
                char ch = piece.charAt(i);
                if (ch == '[' || ch == '{' || ch == '(') {
                    depth++;
                } else if (ch == ']' || ch == '}' || ch == ')') {
                    depth--;
                }
                if (ch == ',' && depth == 0) {
                    texts.add(part.toString());
                    out.add(operand(texts, slots));
                    texts = new ArrayList<>();
                    slots = new ArrayList<>();
                    part.setLength(0);
                } else {
                    part.append(ch);
                }
            }
            if (k < n) {
                texts.add(part.toString());
                part.setLength(0);
                slots.add(k);
            }
        }
        texts.add(part.toString());
        if (!slots.isEmpty() || texts.stream().anyMatch(t -> !t.isBlank())) {
            out.add(operand(texts, slots));
        }
        return new SassOperands(guard, negated, out);
    }

    /** An operand with the blanks around it trimmed. */
    private static Operand operand(List<String> texts, List<Integer> slots) {
        List<String> t = new ArrayList<>(texts);
        t.set(0, t.get(0).stripLeading());
        t.set(t.size() - 1, t.get(t.size() - 1).stripTrailing());
        return new Operand(List.copyOf(t), List.copyOf(slots));
    }
}
