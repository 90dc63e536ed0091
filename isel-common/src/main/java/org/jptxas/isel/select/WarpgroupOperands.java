package org.jptxas.isel.select;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.Src;

/**
 * Hopper's warpgroup instructions in Ori and in SASS. In Ori a multiply ({@code HGMMA}, {@code IGMMA},
 * {@code QGMMA}, {@code BGMMA}) names every register of its accumulator block, as destinations
 * {@code D0..Dn-1} and as the trailing sources {@code C0..Cn-1}, after {@code A, [B,] scale-d}; {@code WARPGROUP}
 * names every accumulator of the function (ARRIVE as sources, DEPBAR.LE as destinations and sources after its
 * count), so liveness and code motion see what the hardware does. SASS names the block by its first register and the
 * descriptor operands in {@code gdesc[URx]} with the operand flags after it; the flags and the group marker travel as
 * lower-case Ori modifiers ({@code tnspB}, {@code gsb0}), which {@link #spelling} moves to where nvdisasm prints them.
 */
public final class WarpgroupOperands {
    private WarpgroupOperands() {}

    /**
     * The flags nvdisasm prints after {@code gdesc[URx]}, in its order; with A in registers {@code negA} is a minus
     * before A ({@code HGMMA.64x8x16.F32 R56, -R220, gdesc[UR4].negB, R56}).
     */
    private static final List<String> DESCRIPTOR_FLAGS = List.of("negA", "negB", "tnspA", "tnspB");
    static final String GSB0 = "gsb0";

    public static boolean isMultiply(String opcode) {
        return opcode.equals("HGMMA") || opcode.equals("IGMMA") || opcode.equals("QGMMA") || opcode.equals("BGMMA");
    }

    /** The operands SASS prints, in its order: {@code D0, A, [B,] C0, scale-d}; WARPGROUP's count. */
    static List<Src> printed(Instr ins) {
        List<Src> out = new ArrayList<>();
        if (isMultiply(ins.op().name())) {
            int n = ins.dsts().size();
            int lead = ins.srcs().size() - n; // A, [B,] scale-d
            out.add(Src.of(ins.dsts().get(0)));
            out.addAll(ins.srcs().subList(0, lead - 1));
            out.add(ins.srcs().get(lead));
            out.add(ins.srcs().get(lead - 1));
            return out;
        }
        for (Src s : ins.srcs()) {
            if (s.value() instanceof Imm) {
                out.add(s);
            }
        }
        return out;
    }

    /** How a selected warpgroup instruction is printed: its mnemonic without the flags, and where they go. */
    record Spelling(String mnemonic, List<String> flags, boolean gsb0, boolean depbar) {
        /** The flags after {@code gdesc[URx]}: all of them, or with A in registers all but {@code negA}. */
        String descriptorSuffix(boolean registerA) {
            StringBuilder sb = new StringBuilder();
            for (String f : flags) {
                if (!(registerA && f.equals("negA"))) {
                    sb.append('.').append(f);
                }
            }
            return sb.toString();
        }
    }

    /** The spelling of {@code mnemonic}, or null when it is no warpgroup instruction. */
    static Spelling spelling(String mnemonic) {
        int dot = mnemonic.indexOf('.');
        String opcode = dot < 0 ? mnemonic : mnemonic.substring(0, dot);
        if (mnemonic.startsWith("WARPGROUP.DEPBAR")) {
            return new Spelling(mnemonic, List.of(), false, true);
        }
        if (!isMultiply(opcode)) {
            return null;
        }
        StringBuilder m = new StringBuilder(opcode);
        boolean gsb0 = false;
        List<String> flags = new ArrayList<>();
        for (String t : mnemonic.substring(opcode.length()).split("\\.")) {
            if (t.isEmpty()) {
                continue;
            }
            if (DESCRIPTOR_FLAGS.contains(t)) {
                flags.add(t);
            } else if (t.equals(GSB0)) {
                gsb0 = true;
            } else {
                m.append('.').append(t);
            }
        }
        List<String> ordered = DESCRIPTOR_FLAGS.stream().filter(flags::contains).toList();
        return new Spelling(m.toString(), ordered, gsb0, false);
    }

    /** Whether {@code src} is the descriptor operand nvdisasm writes as {@code gdesc[URx]}. */
    static boolean isDescriptor(Src src) {
        return src.value() instanceof Reg r && r.file() == org.jptxas.ori.ir.RegFile.UR;
    }
}
