package org.jptxas.simulator.sass;

/**
 * PRMT's byte permutes: the default mode (a selector nibble per result byte, bit 3 replicating the byte's sign) and
 * the modes {@code .F4E} (forward 4-extract), {@code .B4E} (backward), {@code .RC8}/{@code .RC16} (replicate a byte or
 * a half) and {@code .ECL}/{@code .ECR} (edge clamp left/right), which read only the selector's low two bits. The
 * eight source bytes are a (0..3) and b (4..7).
 */
final class PermuteOps {
    /** The modes besides the default. */
    static final java.util.Set<String> MODES = java.util.Set.of("F4E", "B4E", "RC8", "ECL", "ECR", "RC16");

    private PermuteOps() {}

    /** PRMT{.mode} of a and b under the selector {@code sel}; {@code mode} is "" for the default. */
    static int permute(String mode, int a, int sel, int b) {
        long pool = Integer.toUnsignedLong(b) << 32 | Integer.toUnsignedLong(a);
        if (mode.isEmpty()) {
            int r = 0;
            for (int k = 0; k < 4; k++) {
                int s = sel >>> (4 * k) & 0xf;
                int v = (int) (pool >>> (8 * (s & 7))) & 0xff;
                if ((s & 8) != 0) {
                    v = (v & 0x80) != 0 ? 0xff : 0;
                }
                r |= v << (8 * k);
            }
            return r;
        }
        int s = sel & 3;
        int[] bytes = switch (mode) {
            case "F4E" -> new int[] {s, s + 1, s + 2, s + 3};
            case "B4E" -> new int[] {s, s - 1, s - 2, s - 3};
            case "RC8" -> new int[] {s, s, s, s};
            case "ECL" -> new int[] {s, Math.max(s, 1), Math.max(s, 2), 3};
            case "ECR" -> new int[] {0, Math.min(s, 1), Math.min(s, 2), s};
            case "RC16" -> new int[] {(s & 1) * 2, (s & 1) * 2 + 1, (s & 1) * 2, (s & 1) * 2 + 1};
            default -> throw new IllegalArgumentException(mode);
        };
        int r = 0;
        for (int k = 0; k < 4; k++) {
            r |= (int) (pool >>> (8 * (bytes[k] & 7)) & 0xff) << (8 * k);
        }
        return r;
    }
}
