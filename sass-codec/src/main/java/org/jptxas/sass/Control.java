package org.jptxas.sass;

/**
 * The scheduling control bits [121:105] of a 128-bit Volta-family instruction: stall count [108:105], the bit at
 * [109] (set = may switch warps, printed {@code Y}), write scoreboard [112:110] and read scoreboard [115:113]
 * (7 = none) and the scoreboard wait mask [121:116]; plus {@code opex}, bits [125:122] when the instruction's form
 * does not print them (where nvdisasm prints them, as {@code .reuse} flags, they belong to the form and are 0 here).
 *
 * <p>Text form (used by the assembler and {@code jnvdisasm -ctrl}): {@code [B0-2---:R-:W1:Y:S04]}: the waited
 * scoreboards, the read and write scoreboard ({@code -} = none), {@code Y} or {@code -}, and the stall; a nonzero
 * {@code opex} appends {@code :X}<i>hex digit</i>.
 */
public record Control(int stall, boolean yield, int writeBarrier, int readBarrier, int waitMask, int opex) {
    public static final int SHIFT = 105 - 64;
    /** Bits [121:105] in the high word. */
    public static final long HI_MASK = 0x1ffffL << SHIFT;
    /** Bits [125:122] in the high word. */
    public static final long OPEX_MASK = 0xfL << (122 - 64);
    public static final int NONE = 7;

    public Control(int stall, boolean yield, int writeBarrier, int readBarrier, int waitMask) {
        this(stall, yield, writeBarrier, readBarrier, waitMask, 0);
    }

    public Control {
        check("opex", opex, 15);
        check("stall", stall, 15);
        check("write scoreboard", writeBarrier, 7);
        check("read scoreboard", readBarrier, 7);
        check("wait mask", waitMask, 63);
    }

    private static void check(String what, int v, int max) {
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(what + " " + v + " is out of range 0.." + max);
        }
    }

    /**
     * Whether the bit at [109] may be set with this stall count. nvdisasm checks the 5-bit {bit 109, stall} value
     * against each instruction class's table; probing every class ptxas emits (sm_75 … sm_90) shows bit 109 set is
     * legal only with stalls 1 … 11, and {@code .reuse} only with bit 109 set.
     */
    public static boolean yieldAllowed(int stall) {
        return stall >= 1 && stall <= 11;
    }

    /** Whether these bits are a value nvdisasm (and the hardware) accept for any instruction class. */
    public boolean legal() {
        return !yield || yieldAllowed(stall);
    }

    public static Control fromHi(long hi) {
        int c = (int) ((hi >>> SHIFT) & 0x1ffff);
        return new Control(c & 15, ((c >> 4) & 1) != 0, (c >> 5) & 7, (c >> 8) & 7, (c >> 11) & 63,
                (int) ((hi >>> 58) & 15));
    }

    /** These control bits placed in the high word (other bits zero). */
    public long toHi() {
        long c = stall | (yield ? 16 : 0) | (writeBarrier << 5) | (readBarrier << 8) | ((long) waitMask << 11);
        return (c << SHIFT) | ((long) opex << 58);
    }

    /**
     * Whether these bits say nothing: no stall, no yield bit, no scoreboard set or waited on, no opex (or every bit
     * zero). nvdisasm writes an instruction with such bits without the blank before its ';' (the padding NOPs and the
     * closing self-branch ptxas writes, an {@code ERRBAR} or {@code MEMBAR} ptxas gives no stall); over the oracle
     * listings of the corpus, the suite and the probe kernels no other control value does so.
     */
    public boolean saysNothing() {
        boolean none = stall == 0 && !yield && waitMask == 0 && opex == 0;
        return none && (writeBarrier == NONE && readBarrier == NONE || writeBarrier == 0 && readBarrier == 0);
    }

    public String text() {
        StringBuilder sb = new StringBuilder(24).append("[B");
        for (int i = 0; i < 6; i++) {
            sb.append((waitMask >> i & 1) != 0 ? (char) ('0' + i) : '-');
        }
        sb.append(":R").append(readBarrier == NONE ? "-" : String.valueOf(readBarrier));
        sb.append(":W").append(writeBarrier == NONE ? "-" : String.valueOf(writeBarrier));
        sb.append(yield ? ":Y" : ":-");
        sb.append(":S").append(stall < 10 ? "0" : "").append(stall);
        if (opex != 0) {
            sb.append(":X").append(Integer.toHexString(opex));
        }
        sb.append(']');
        return sb.toString();
    }

    /** Parses {@link #text()}'s form; throws {@link IllegalArgumentException} with the reason. */
    public static Control parse(String s) {
        String t = s.strip();
        int opex = 0;
        if (t.length() == 24 && t.startsWith(":X", 20)) {
            opex = Character.digit(t.charAt(22), 16);
            if (opex < 0) {
                throw new IllegalArgumentException("bad opex digit in " + s);
            }
            t = t.substring(0, 20) + "]";
        }
        if (!(t.startsWith("[B") && t.endsWith("]")) || t.length() != 21) {
            throw new IllegalArgumentException("control annotation must look like [B------:R-:W-:Y:S04], not " + s);
        }
        int wait = 0;
        for (int i = 0; i < 6; i++) {
            char c = t.charAt(2 + i);
            if (c == (char) ('0' + i)) {
                wait |= 1 << i;
            } else if (c != '-') {
                throw new IllegalArgumentException("bad wait mask in " + s);
            }
        }
        if (!t.startsWith(":R", 8) || !t.startsWith(":W", 11) || t.charAt(14) != ':' || !t.startsWith(":S", 16)) {
            throw new IllegalArgumentException("control annotation must look like [B------:R-:W-:Y:S04], not " + s);
        }
        int rd = barrier(t.charAt(10), s);
        int wr = barrier(t.charAt(13), s);
        char y = t.charAt(15);
        if (y != 'Y' && y != '-') {
            throw new IllegalArgumentException("yield must be Y or -, in " + s);
        }
        int stall;
        try {
            stall = Integer.parseInt(t.substring(18, 20));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad stall in " + s);
        }
        return new Control(stall, y == 'Y', wr, rd, wait, opex);
    }

    private static int barrier(char c, String s) {
        if (c == '-') {
            return NONE;
        }
        if (c < '0' || c > '6') {
            throw new IllegalArgumentException("bad scoreboard '" + c + "' in " + s);
        }
        return c - '0';
    }
}
