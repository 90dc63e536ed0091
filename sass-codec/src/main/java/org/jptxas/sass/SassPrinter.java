package org.jptxas.sass;

/** Prints instructions in nvdisasm 12.5's syntax (the text between the address comment and {@code " ;"}). */
public final class SassPrinter {
    private SassPrinter() {}

    /**
     * The instruction text, e.g. {@code @!P0 BRA `(.L_x_1)}; {@code labels} names branch targets (null: print the
     * absolute target address as raw-mode nvdisasm does).
     */
    public static String text(SassInstruction inst, long address, LabelNamer labels) {
        StringBuilder sb = new StringBuilder(48);
        append(inst, address, labels, sb);
        return sb.toString();
    }

    public static void append(SassInstruction inst, long address, LabelNamer labels, StringBuilder sb) {
        int start = sb.length();
        if (inst instanceof SassInstruction.Known k) {
            SassForm f = k.form();
            String[] pieces = f.pieces;
            SassSlot[] slots = f.slots;
            long[] values = k.values();
            // a guarded form that matched a word under PT prints as the unguarded instruction
            int first = f.guardAlwaysTrue(values) ? 1 : 0;
            for (int i = first; i < slots.length; i++) {
                sb.append(i == first && first == 1 ? pieces[i].stripLeading() : pieces[i]);
                SassSlot s = slots[i];
                if (s instanceof SassSlot.Field fs) {
                    fs.kind().render(values[i], fs.field().width(), fs.shift(), address, labels, sb);
                } else {
                    sb.append(((SassSlot.Literal) s).text());
                }
            }
            sb.append(pieces[slots.length]);
            while (sb.length() > start && sb.charAt(sb.length() - 1) == ' ') {
                sb.setLength(sb.length() - 1);
            }
        } else {
            sb.append("UNKNOWN ").append("0x").append(SassIsa.hex128(inst.lo(), inst.hi()));
        }
    }

    /**
     * The text of one operand of {@code inst} ({@code operand} from its form's {@link SassForm#operands()}), as the
     * instruction text shows it, without the blanks around it.
     */
    public static String operandText(SassInstruction.Known inst, SassOperands.Operand operand, long address,
                                     LabelNamer labels) {
        StringBuilder sb = new StringBuilder(16);
        SassSlot[] slots = inst.form().slots;
        for (int k = 0; k <= operand.slots().size(); k++) {
            sb.append(operand.texts().get(k));
            if (k == operand.slots().size()) {
                break;
            }
            int s = operand.slots().get(k);
            if (slots[s] instanceof SassSlot.Field fs) {
                fs.kind().render(inst.values()[s], fs.field().width(), fs.shift(), address, labels, sb);
            } else {
                sb.append(((SassSlot.Literal) slots[s]).text());
            }
        }
        return sb.toString().strip();
    }
}
