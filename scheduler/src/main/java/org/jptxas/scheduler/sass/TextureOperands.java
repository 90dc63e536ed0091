package org.jptxas.scheduler.sass;

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

    /** Widths of operands 0..3 (Rd2, Rd, Ra, Rb) and of a uniform handle, from the instruction's text. */
    record Widths(int[] gpr, int uniform) {}

    static Widths of(String mnemonic, Set<String> mods, String text) {
        String[] ops = text.substring(text.indexOf(' ') + 1).replace(";", "").split(",");
        int dims = 2;
        int mask = 0xf;
        boolean uniform = false;
        for (int k = 0; k < ops.length; k++) {
            String t = ops[k].strip();
            if (t.startsWith("UR")) {
                uniform = true;
            }
            if (t.matches("(ARRAY_)?([123]D|CUBE)")) {
                dims = t.contains("CUBE") ? 3 : t.charAt(t.length() - 2) - '0';
                dims += t.startsWith("ARRAY_") ? 1 : 0;
                if (k + 1 < ops.length && ops[k + 1].strip().startsWith("0x")) {
                    mask = Integer.decode(ops[k + 1].strip()) & 0xf;
                }
            }
        }
        if (mnemonic.equals("TXQ")) {
            // Rd2, Rd, Ra, query, then the handle (two operands) and the mask when not 0xf
            dims = 1;
            mask = ops.length == 7 ? Integer.decode(ops[6].strip()) & 0xf : 0xf;
        }
        int n = Integer.bitCount(mask);
        int level = mods.contains("LL") || mods.contains("LB") ? 1 : 0;
        int total = dims + level;
        int ra = uniform ? dims : total == 2 ? 1 : Math.min(2, total);
        int rb = uniform ? level : Math.max(1, total - ra);
        return new Widths(new int[] {Math.max(1, n - 2), Math.min(2, n), ra, rb}, 2);
    }
}
