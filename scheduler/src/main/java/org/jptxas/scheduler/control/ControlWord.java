package org.jptxas.scheduler.control;

/**
 * The scheduling control field of one sm_70+ instruction (bits [125:105]; Maxwell's 21-bit slot has the same layout).
 *
 * @param stall    cycles until the next instruction may issue, 0..15
 * @param yield    bit 109 as ptxas writes it: 1 on most instructions, 0 where the stall is latency-bound (the MD's
 *                 END_GROUP) and on NOPs; {@code .reuse} is legal only with 1
 * @param writeSb  scoreboard set when this instruction's results are written, 0..5, or {@link #NONE}
 * @param readSb   scoreboard set until this instruction has read its sources, 0..5, or {@link #NONE}
 * @param waitMask scoreboards (bit k = SB k) this instruction waits on before issuing
 * @param reuse    operand-reuse flags: bit 0 = slot A, 1 = B, 2 = C, 3 = the fourth slot
 */
public record ControlWord(int stall, boolean yield, int writeSb, int readSb, int waitMask, int reuse) {
    /** "No scoreboard". */
    public static final int NONE = 7;

    public ControlWord {
        if (stall < 0 || stall > 15 || writeSb < 0 || writeSb > 7 || readSb < 0 || readSb > 7 || waitMask < 0
                || waitMask > 63 || reuse < 0 || reuse > 15) {
            throw new IllegalArgumentException("control word field out of range: " + stall + "/" + writeSb + "/" + readSb
                    + "/" + waitMask + "/" + reuse);
        }
    }

    /** The 21-bit value as stored at bit 105 of the instruction (stall at bit 0 of the value). */
    public int pack() {
        return stall | (yield ? 1 : 0) << 4 | writeSb << 5 | readSb << 8 | waitMask << 11 | reuse << 17;
    }

    public static ControlWord unpack(int v) {
        return new ControlWord(v & 15, (v >> 4 & 1) == 1, v >> 5 & 7, v >> 8 & 7, v >> 11 & 63, v >> 17 & 15);
    }

    /** Reads the control field from the high qword of a 128-bit instruction. */
    public static ControlWord fromHighQword(long hi) {
        return unpack((int) (hi >>> 41 & 0x7fffff));
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        sb.append("S").append(stall).append(yield ? " Y" : " -");
        sb.append(writeSb == NONE ? " wr:-" : " wr:" + writeSb).append(readSb == NONE ? " rd:-" : " rd:" + readSb);
        sb.append(" wait:").append(String.format("%02x", waitMask));
        if (reuse != 0) {
            sb.append(" reuse:").append(Integer.toBinaryString(reuse));
        }
        return sb.toString();
    }
}
