package org.jptxas.frontend.ptx.lower;

import java.util.List;
import java.util.Optional;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;

/** Reading the type and rounding words of math instructions' names. */
final class MathTypes {
    private MathTypes() {
    }

    /** The last type word of the name ({@code div.rn.f32} → F32). */
    static PtxType type(Instruction insn) {
        List<String> mods = insn.modifiers();
        for (int i = mods.size() - 1; i >= 0; i--) {
            Optional<PtxType> t = PtxType.fromName(mods.get(i));
            if (t.isPresent()) {
                return t.get();
            }
        }
        throw new IllegalArgumentException("no type in " + insn.fullName());
    }

    /** Every type word of the name in order ({@code cvt.rn.f32.s32} → [F32, S32]). */
    static List<PtxType> types(Instruction insn) {
        return insn.modifiers().stream().map(PtxType::fromName).flatMap(Optional::stream).toList();
    }

    /** The rounding word ({@code rn}, {@code rz}, {@code rm}, {@code rp}, {@code rni}, ...), or null. */
    static String rounding(Instruction insn) {
        for (String m : insn.modifiers()) {
            switch (m) {
                case "rn", "rz", "rm", "rp", "rna", "rs", "rni", "rzi", "rmi", "rpi" -> {
                    return m;
                }
                default -> {
                }
            }
        }
        return null;
    }

    static boolean isSigned(PtxType t) {
        return switch (t) {
            case S8, S16, S32, S64 -> true;
            default -> false;
        };
    }

    static boolean isInt(PtxType t) {
        return switch (t) {
            case S8, S16, S32, S64, U8, U16, U32, U64, B8, B16, B32, B64 -> true;
            default -> false;
        };
    }

    static int bits(PtxType t) {
        return t.sizeBytes() * 8;
    }
}
