package org.jptxas.isel.codegen;

import java.util.Objects;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassOp;
import org.jptxas.ori.ir.Sym;

/**
 * One SASS instruction of a function being generated: the typed instruction the encoder takes ({@code op}), with the
 * text nvdisasm prints for it (without address and {@code ;}: {@code @P0 BRA `(.L_3)}, {@code MOV R2, 32@lo(g)}) for
 * listings and diagnostics. The accessors read the op. Selection types every line; the rewrites after it (call-frame
 * fix-ups, layout padding, latency NOPs) change or build the op and print the text from it. Every line has its op:
 * no pass reads an instruction back from its text.
 *
 * @param label     the label defined at this instruction (a branch target), or null
 * @param text      the instruction text; branch targets are written {@code `(label)}
 * @param assembly  what the assembler encodes: {@code text} with a relocated field as {@code 0x0}
 * @param control   the control bits, null until a {@link ControlPass} has run
 * @param symbol    the relocated symbol operand, or null: it encodes as zero plus a relocation
 * @param ptxLine   the PTX line the instruction came from (0: none)
 * @param op        the typed instruction {@code assembly} stands for, which the encoder takes
 * @param jumpTable the table a BRX branches through (its immediate is fixed at layout), or null
 * @param returnPoint for a return address relocated against the section's own function
 *                  ({@code MOV R20, 32@lo((f + .L_x_0@srel))}), what it adds to the function: the return point's
 *                  label, or its offset ({@code 0x40}) where no instruction follows the call; null for other lines
 */
public record CodeLine(String label, String text, String assembly, Control control, Sym symbol, int ptxLine,
                       SassOp op, JumpTables.Table jumpTable, String returnPoint) {
    public CodeLine {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(assembly, "assembly");
        Objects.requireNonNull(op, "op");
    }

    /** A line that branches through no jump table and is no relocated return address. */
    public CodeLine(String label, String text, String assembly, Control control, Sym symbol, int ptxLine, SassOp op) {
        this(label, text, assembly, control, symbol, ptxLine, op, null, null);
    }

    /** The typed line {@code op}, printed as its text (no relocated operand). */
    public static CodeLine of(SassOp op) {
        String text = op.text();
        return new CodeLine(null, text, text, null, null, 0, op);
    }

    public CodeLine withControl(Control c) {
        return new CodeLine(label, text, assembly, c, symbol, ptxLine, op, jumpTable, returnPoint);
    }

    public CodeLine withSymbol(Sym s) {
        return new CodeLine(label, text, assembly, control, s, ptxLine, op, jumpTable, returnPoint);
    }

    /** Whether the line's text and assembly are its op's text (no relocated operand shown another way). */
    public boolean printsItsOp() {
        return text.equals(assembly) && assembly.equals(op.text());
    }

    /**
     * The line as the typed instruction {@code other} (another spelling of its operands: its {@code .reuse} form, a
     * branch to a renamed label), printed from it; only for a line that {@link #printsItsOp}.
     */
    public CodeLine withOp(SassOp other) {
        if (!printsItsOp()) {
            throw new IllegalStateException("'" + text + "' is printed with a relocated operand");
        }
        String t = other.text();
        return new CodeLine(label, t, t, control, symbol, ptxLine, other, jumpTable, returnPoint);
    }

    public CodeLine withLabel(String l) {
        return new CodeLine(l, text, assembly, control, symbol, ptxLine, op, jumpTable, returnPoint);
    }

    /** The mnemonic with its modifiers, without guard: {@code IMAD.WIDE.U32}. */
    public String opcode() {
        return op.mnemonic();
    }

    /** The base mnemonic: {@code IMAD}. */
    public String mnemonic() {
        String op = opcode();
        int dot = op.indexOf('.');
        return dot < 0 ? op : op.substring(0, dot);
    }

    /** Whether the instruction has a guard other than {@code @PT}. */
    public boolean guarded() {
        return op.guarded();
    }

    /** The label this instruction branches to ({@code `(label)}), or null. */
    public String branchTarget() {
        return op.target();
    }

    /** Control never continues with the next instruction: an unguarded BRA, JMP, BRX, JMX, EXIT or RET. */
    public boolean endsControl() {
        if (guarded()) {
            return false;
        }
        return switch (mnemonic()) {
            case "BRA", "JMP", "BRX", "JMX", "EXIT", "RET" -> true;
            default -> false;
        };
    }
}
