package org.jptxas.scheduler.sass;

import java.util.List;
import java.util.Set;

/**
 * Register widths of the operands of {@code TEX}, {@code TLD}, {@code TLD4} and {@code TXQ} ({@code TEX.SCR.LL Rd2,
 * Rd, Ra, Rb, 0x0, 0x5c, 3D, 0x1}; sm_90: {@code TEX.LL Rd2, Rd, Ra, Rb, UR4, 0x0, 2D}; {@code TXQ Rd2, Rd, Ra,
 * TEX_HEADER_DIMENSION, 0x0, 0x58, 0x1}), which neither modifiers nor suffixes show: the write mask (printed when not
 * 0xf) packs the enabled components, the first two into the pair Rd and the rest into Rd2; the coordinates (one per
 * dimension, one more for an array layer) and the level of detail ({@code .LL}) fill Ra, at most two, then Rb, and
 * exactly two values go one in each ({@code TLD4.SCR.R Rd2, Rd, Rx, Ry, ...}: ptxas names unrelated registers; its
 * 2D {@code TLD} names y in Ra + 1 and Rb alike); where the handle is a uniform pair ({@code UR4}: its high word too),
 * Ra holds every coordinate and Rb only the level. TXQ's Ra is the level of detail alone. Learned from ptxas 13's
 * code (nvdisasm 12.5): it fills these registers so.
 */
final class TextureOperands {
    private TextureOperands() {}

    static final Set<String> OPCODES = Set.of("TEX", "TLD", "TLD4", "TXQ");

    /** Widths of operands 0..3 (Rd2, Rd, Ra, Rb) and of a uniform handle. */
    record Widths(int[] gpr, int uniform) {}

    /**
     * The layout of a texture instruction's operands, from what each operand is: {@code names[k]} the text of an
     * operand without fields or registers (the dimension, {@code 2D}, {@code ARRAY_CUBE}: the form's own literal), or
     * null; {@code immediates[k]} the value of an operand that is one hexadecimal number, or null. Null for other
     * mnemonics.
     */
    static SassShape.Texture layout(String mnemonic, List<String> names, List<Long> immediates, boolean uniform) {
        if (!OPCODES.contains(mnemonic)) {
            return null;
        }
        int n = names.size();
        int dims = 2;
        int mask = 0xf;
        for (int k = 0; k < n; k++) {
            int d = dimensions(names.get(k));
            if (d > 0) {
                dims = d;
                if (k + 1 < n && immediates.get(k + 1) != null) {
                    mask = (int) (immediates.get(k + 1) & 0xf);
                }
            }
        }
        if (mnemonic.equals("TXQ")) {
            // Rd2, Rd, Ra, query, then the handle (two operands) and the mask when not 0xf
            dims = 1;
            mask = n == 7 && immediates.get(6) != null ? (int) (immediates.get(6) & 0xf) : 0xf;
        }
        return new SassShape.Texture(dims, mask, uniform);
    }

    /** The coordinates a dimension operand ({@code 1D} … {@code 3D}, {@code CUBE}, {@code ARRAY_} any) names, or 0. */
    private static int dimensions(String name) {
        if (name == null) {
            return 0;
        }
        boolean array = name.startsWith("ARRAY_");
        int d = switch (array ? name.substring("ARRAY_".length()) : name) {
            case "1D" -> 1;
            case "2D" -> 2;
            case "3D", "CUBE" -> 3;
            default -> 0;
        };
        return d == 0 ? 0 : d + (array ? 1 : 0);
    }

    static Widths of(String mnemonic, Set<String> mods, SassShape.Texture layout) {
        int n = Integer.bitCount(layout.writeMask());
        int level = mods.contains("LL") || mods.contains("LB") ? 1 : 0;
        int dims = layout.dimensions();
        int total = dims + level;
        boolean uniform = layout.uniformHandle();
        int ra = uniform ? dims : total == 2 ? 1 : Math.min(2, total);
        int rb = uniform ? level : Math.max(1, total - ra);
        return new Widths(new int[] {Math.max(1, n - 2), Math.min(2, n), ra, rb}, 2);
    }
}
