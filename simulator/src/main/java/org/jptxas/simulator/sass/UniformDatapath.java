package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.CBank;
import org.jptxas.simulator.sass.SassOperand.UPred;
import org.jptxas.simulator.sass.SassOperand.UReg;

/**
 * The uniform datapath (S2UR, ULDC, UIADD3, ...): computed once per warp into its uniform registers and predicates.
 */
final class UniformDatapath {
    private final SassMachine machine;
    private final OperandAccess operands;

    UniformDatapath(SassMachine machine) {
        this.machine = machine;
        this.operands = machine.operands;
    }

    void uniform(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "S2UR" -> writeU(w, o.get(0), machine.special(((SassOperand.Special) o.get(1)).name(), t));
            case "ULDC" -> {
                CBank c = (CBank) o.get(1);
                if (op.has("64")) {
                    long v = operands.cbank(c, t, 8);
                    writeU(w, o.get(0), (int) v);
                    int i = ((UReg) o.get(0)).index();
                    if (i != 63) {
                        w.ur[i + 1] = (int) (v >>> 32);
                    }
                } else {
                    writeU(w, o.get(0), (int) operands.cbank(c, t, 4));
                }
            }
            case "UMOV" -> writeU(w, o.get(0), operands.read(o.get(1), t, w));
            case "ULEA" -> {
                if (!op.modifiers().isEmpty() || o.size() != 4) {
                    throw machine.unimplemented(op);
                }
                writeU(w, o.get(0), (operands.read(o.get(1), t, w) << (operands.read(o.get(3), t, w) & 31)) + operands.read(o.get(2), t, w));
            }
            case "UIADD3" -> {
                if (op.has("64")) { // UIADD3.64 URd, URa, b, URc: 64-bit pairs (sm_90), a 32-bit immediate sign-extended
                    long sum = 0;
                    for (int k = 1; k < 4; k++) {
                        sum += o.get(k) instanceof UReg u ? (u.index() == 63 ? 0 : Integer.toUnsignedLong(w.ur[u.index()])
                                | (long) w.ur[u.index() + 1] << 32) : (long) operands.read(o.get(k), t, w);
                    }
                    writeU(w, o.get(0), (int) sum);
                    if (((UReg) o.get(0)).index() != 63) {
                        w.ur[((UReg) o.get(0)).index() + 1] = (int) (sum >>> 32);
                    }
                    break;
                }
                int i = 1;
                SassOperand p0 = null, p1 = null;
                if (o.get(i) instanceof UPred) {
                    p0 = o.get(i++);
                    if (o.get(i) instanceof UPred) {
                        p1 = o.get(i++);
                    }
                }
                long sum = machine.integer.addend(o.get(i), t, w) + machine.integer.addend(o.get(i + 1), t, w) + machine.integer.addend(o.get(i + 2), t, w);
                if (op.has("X")) {
                    for (int k = i + 3; k < o.size(); k++) {
                        sum += operands.pred(o.get(k), t, w) ? 1 : 0;
                    }
                }
                writeU(w, o.get(0), (int) sum);
                long carry = sum >>> 32; // two carry-outs each count one, as IADD3's
                if (p0 != null && ((UPred) p0).index() != 7) {
                    w.up[((UPred) p0).index()] = p1 != null ? carry >= 1 : (carry & 1) != 0;
                }
                if (p1 != null && ((UPred) p1).index() != 7) {
                    w.up[((UPred) p1).index()] = carry >= 2;
                }
            }
            case "UISETP" -> uisetp(op, t, w);
            case "USEL" -> {
                if (!op.modifiers().isEmpty()) {
                    throw machine.unimplemented(op);
                }
                writeU(w, o.get(0), operands.pred(o.get(3), t, w) ? operands.read(o.get(1), t, w) : operands.read(o.get(2), t, w));
            }
            case "UPRMT" -> {
                if (!op.modifiers().isEmpty()) {
                    throw machine.unimplemented(op);
                }
                writeU(w, o.get(0), IntegerOps.permute(operands.read(o.get(1), t, w), operands.read(o.get(2), t, w), operands.read(o.get(3), t, w)));
            }
            case "USGXT" -> writeU(w, o.get(0), org.jptxas.simulator.numeric.BitFields.signOrZeroExtend(
                    operands.read(o.get(1), t, w), operands.read(o.get(2), t, w), op.has("W"), !op.has("U32")));
            case "USHF" -> writeU(w, o.get(0), FunnelShift.shift(FunnelShift.mode(op), operands.read(o.get(1), t, w),
                    operands.read(o.get(2), t, w), operands.read(o.get(3), t, w)));
            case "ULOP3" -> {
                // ULOP3.LUT[.PAND] {UPp,} URd, a, b, c, lut {, UPq}: as LOP3, the result's non-zero test OR (.PAND: AND) UPq
                int i = o.get(0) instanceof UPred ? 2 : 1;
                int a = operands.read(o.get(i), t, w), b = operands.read(o.get(i + 1), t, w), c = operands.read(o.get(i + 2), t, w);
                int lut = operands.read(o.get(i + 3), t, w);
                int r = 0;
                for (int bit = 0; bit < 8; bit++) {
                    if ((lut >>> bit & 1) != 0) {
                        r |= ((bit & 4) != 0 ? a : ~a) & ((bit & 2) != 0 ? b : ~b) & ((bit & 1) != 0 ? c : ~c);
                    }
                }
                writeU(w, o.get(i - 1), r);
                if (i == 2) {
                    boolean q = o.size() > i + 4 && operands.pred(o.get(i + 4), t, w);
                    writeUP(w, o.get(0), op.has("PAND") ? r != 0 && q : r != 0 || q);
                }
            }
            case "UBREV" -> writeU(w, o.get(0), Integer.reverse(operands.read(o.get(1), t, w)));
            case "UFLO" -> {
                int x = operands.read(o.get(1), t, w);
                int msb = x == 0 ? -1 : 31 - Integer.numberOfLeadingZeros(x);
                writeU(w, o.get(0), op.has("SH") ? (msb < 0 ? -1 : 31 - msb) : msb);
            }
            case "UIMAD" -> {
                if (op.has("WIDE")) {
                    HopperAsyncOps.uimadWide(op, w, x -> operands.read(x, t, w));
                } else if (op.has("X") && op.modifiers().size() == 1) { // UIMAD.X URd, a, b, c, UPcin
                    writeU(w, o.get(0), operands.read(o.get(1), t, w) * operands.read(o.get(2), t, w) + operands.read(o.get(3), t, w)
                            + (operands.pred(o.get(4), t, w) ? 1 : 0));
                } else if (!op.modifiers().isEmpty()) {
                    throw machine.unimplemented(op);
                } else {
                    writeU(w, o.get(0), operands.read(o.get(1), t, w) * operands.read(o.get(2), t, w) + operands.read(o.get(3), t, w));
                }
            }
            case "R2UR" -> writeU(w, o.get(0), operands.read(o.get(1), t, w));
            case "UPOPC" -> writeU(w, o.get(0), Integer.bitCount(operands.read(o.get(1), t, w)));
            case "UP2UR" -> { // UP2UR{.B1-.B3} URd, UPR, URb, mask: UP0..UP6 into the masked bits of b's byte (as P2R)
                int shift = 8 * bytePlace(op);
                int mask = operands.read(o.get(3), t, w) << shift;
                int v = 0;
                for (int k = 0; k < 7; k++) {
                    v |= (w.up[k] ? 1 : 0) << k;
                }
                writeU(w, o.get(0), (operands.read(o.get(2), t, w) & ~mask) | (v << shift & mask));
            }
            case "UR2UP" -> { // UR2UP UPR, URa{.B1-.B3}{, mask}: UP0..UP6 from the byte's bits under the mask (all)
                int place = o.get(1) instanceof SassOperand.UByte b ? b.place() : 0;
                SassOperand source = o.get(1) instanceof SassOperand.UByte b ? b.source() : o.get(1);
                if (!op.modifiers().isEmpty() || !(source instanceof UReg) || o.size() > 3) {
                    throw machine.unimplemented(op);
                }
                int bits = operands.read(source, t, w) >>> (8 * place);
                int mask = o.size() == 3 ? operands.read(o.get(2), t, w) : 0x7f;
                for (int k = 0; k < 7; k++) {
                    if ((mask >>> k & 1) != 0) {
                        w.up[k] = (bits >>> k & 1) != 0;
                    }
                }
            }
            case "UBLKCP", "UBLKPF", "UBLKRED", "UTMACMDFLUSH", "UTMACCTL", "UTMALDG", "UTMASTG", "UTMAPF",
                    "UTMAREDG" -> machine.hopper().uniform(op, w);
            default -> throw machine.unimplemented(op);
        }
    }

    /** The byte a predicate move's .B1/.B2/.B3 names (0 without one). */
    private int bytePlace(SassOp op) {
        int place = 0;
        for (String m : op.modifiers()) {
            place = switch (m) {
                case "B1" -> 1;
                case "B2" -> 2;
                case "B3" -> 3;
                default -> throw machine.unimplemented(op);
            };
        }
        return place;
    }

    static void writeU(Warp w, SassOperand d, int v) {
        int i = ((UReg) d).index();
        if (i != 63) {
            w.ur[i] = v;
        }
    }

    /** UISETP: ISETP over uniform registers into uniform predicates, once per warp. */
    private void uisetp(SassOp op, Thread t, Warp w) {
        machine.integer.integerSetPredicate(op, t, w, (d, v) -> writeUP(w, d, v));
    }

    private static void writeUP(Warp w, SassOperand d, boolean v) {
        int i = ((UPred) d).index();
        if (i != 7) {
            w.up[i] = v;
        }
    }
}
