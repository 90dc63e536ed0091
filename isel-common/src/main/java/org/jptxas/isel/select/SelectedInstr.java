package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * One SASS instruction as instruction selection produced it: the full dotted mnemonic of the target
 * ({@code LDG.E.64.SYS}), the operands in SASS print order (destinations wrapped as plain {@link Src}) and the guard.
 * Operands nvdisasm omits at their default value are still present; {@link SassTextPrinter} drops them.
 * {@code descriptor}: index of an operand printed as a memory descriptor {@code desc[UR4]} glued to the address
 * after it (sm_90 global memory), or -1.
 */
public record SelectedInstr(Guard guard, String mnemonic, List<Src> operands, int descriptor, int line) {
    public SelectedInstr {
        Objects.requireNonNull(guard, "guard");
        Objects.requireNonNull(mnemonic, "mnemonic");
        operands = List.copyOf(operands);
        if (descriptor != -1 && (descriptor < 0 || descriptor >= operands.size() - 1)) {
            throw new IllegalArgumentException("descriptor index " + descriptor + " out of range for " + mnemonic);
        }
    }

    /** The Ori instruction spelled as it is, for sm_80: {@code IMAD_WIDE} with {@code U32} is {@code IMAD.WIDE.U32}. */
    public static SelectedInstr passThrough(Instr ins) {
        return new SelectedInstr(ins.guard(), mnemonicOf(ins.op().name(), ins.mods()), operandsOf(ins), -1, ins.line());
    }

    /** A SASS mnemonic as printed ({@code UCGABAR_ARV}), followed by {@code .mod} for each modifier. */
    public static String sassMnemonicOf(String sassName, List<String> mods) {
        StringBuilder sb = new StringBuilder(sassName);
        for (String m : mods) {
            sb.append('.').append(m);
        }
        return sb.toString();
    }

    /** {@code name} with {@code _} read as {@code .}, followed by {@code .mod} for each modifier. */
    public static String mnemonicOf(String opName, List<String> mods) {
        StringBuilder sb = new StringBuilder(opName.replace('_', '.'));
        for (String m : mods) {
            sb.append('.').append(m);
        }
        return sb.toString();
    }

    /** Destinations then sources of an Ori instruction, as print-order operands. */
    public static List<Src> operandsOf(Instr ins) {
        List<Src> ops = new ArrayList<>(ins.dsts().size() + ins.srcs().size());
        for (Reg d : ins.dsts()) {
            ops.add(Src.of(d));
        }
        ops.addAll(ins.srcs());
        return ops;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        if (!guard.isAlways()) {
            sb.append(guard).append(' ');
        }
        sb.append(mnemonic);
        String sep = " ";
        for (int i = 0; i < operands.size(); i++) {
            sb.append(sep).append(i == descriptor ? "desc[" + operands.get(i) + "]" : operands.get(i));
            sep = i == descriptor ? "" : ", ";
        }
        return sb.toString();
    }
}
