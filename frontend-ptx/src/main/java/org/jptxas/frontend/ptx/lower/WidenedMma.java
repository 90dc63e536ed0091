package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.part;

import java.util.List;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * The {@code mma.sync} forms a target has no tensor instruction for but can build from two it has, as ptxas 13 does
 * on sm_90: each multiply splits k into two halves, runs one wider or simpler multiply per half into a fresh
 * accumulator, and adds C at the end. Any split works when A and B split alike, since the sum over k does not care
 * about its order; each split below keeps a register's elements in place where it can.
 *
 * <ul>
 *   <li>s4/u4 (no 4-bit IMMA): the 8-bit IMMA of the same registers and half the k. ptxas sign- or zero-extends the
 *       even and the odd nibbles into bytes. Here each nibble moves to the high half of its byte instead
 *       ({@code w & 0xf0f0f0f0}, {@code (w << 4) & 0xf0f0f0f0}): as an s8 or u8 that byte is 16 times the nibble,
 *       its sign included, so the two IMMAs sum 256 times the products (at most 2^20 in magnitude), exactly divided
 *       by an arithmetic shift. {@code .satfinite} saturates only the final addition of C.</li>
 *   <li>b1 {@code .xor.popc} (BMMA has only {@code .AND.POPC}): popc(a ^ b) = popc(a & ~b) + popc(~a & b).</li>
 *   <li>e4m3/e5m2 (no QMMA): F2FP.F16.E4M3.UNPACK_B widens the low and the high byte pair of each register to an
 *       f16 pair, which is the f16 m16n8k16 fragment of half the k (the high pair shifted down first: Ori's operands
 *       carry no {@code .H1} selector); two HMMA.16816 chain their accumulators from
 *       zero and C is added last (FADD, or HADD2 for f16), in ptxas's order.</li>
 * </ul>
 */
final class WidenedMma {
    private WidenedMma() {}

    /** The s4/u4 multiply of {@code f} (IMMA.16864/16832/8832 .S4/.U4 [.SAT]) from 8-bit IMMA; its D tuple. */
    static Reg int4(LoweringContext cx, MmaLowerer.Form f, Reg a, Reg b, Reg c) {
        MathEmitter m = new MathEmitter(cx);
        String shape = switch (f.mods().get(0)) {
            case "16864" -> "16832";
            case "16832" -> "16816";
            default -> "8816";
        };
        // A's and B's signedness each carry over to its bytes
        List<String> mods = List.of(shape, f.mods().get(1).equals("S4") ? "S8" : "U8",
                f.mods().get(2).equals("S4") ? "S8" : "U8");
        Reg p = cx.newReg(RegFile.R, f.d());
        Reg high = cx.newReg(RegFile.R, f.d());
        // the even nibbles, then the odd ones accumulating on the even ones' sum
        cx.emit("IMMA", mods, List.of(p),
                List.of(Src.of(nibbles(m, a, f.a(), true)), Src.of(nibbles(m, b, f.b(), true)), Src.of(Reg.RZ)));
        cx.emit("IMMA", mods, List.of(high),
                List.of(Src.of(nibbles(m, a, f.a(), false)), Src.of(nibbles(m, b, f.b(), false)), Src.of(p)));
        Reg d = cx.newReg(RegFile.R, f.d());
        for (int e = 0; e < f.d(); e++) {
            Reg products = m.r();
            m.shf("R.S32.HI", products, Reg.RZ, 8, part(high, e));
            if (f.mods().contains("SAT")) {
                IntArith.addSat32(cx, part(d, e), Src.of(part(c, e)), Src.of(products), false);
            } else {
                m.iadd3(part(d, e), part(c, e), products, Reg.RZ);
            }
        }
        return d;
    }

    /** Each register's even ({@code low}) or odd nibbles in the high halves of its bytes: 16 times their value. */
    private static Reg nibbles(MathEmitter m, Reg t, int n, boolean low) {
        Reg out = m.cx().newReg(RegFile.R, n);
        for (int k = 0; k < n; k++) {
            Reg w = part(t, k);
            if (low) {
                Reg shifted = m.r();
                m.shf("L.U32", shifted, w, 4, Reg.RZ);
                w = shifted;
            }
            m.lop3(part(out, k), w, 0xf0f0f0f0, Reg.RZ, 0xc0);
        }
        return out;
    }

    /** The b1 {@code .xor.popc} multiply of {@code f} from two BMMA .AND.POPC of inverted operands; its D tuple. */
    static Reg xorPopc(LoweringContext cx, MmaLowerer.Form f, Reg a, Reg b, Reg c) {
        MathEmitter m = new MathEmitter(cx);
        List<String> mods = List.of(f.mods().get(0), "AND", "POPC");
        Reg first = cx.newReg(RegFile.R, f.d());
        Reg both = cx.newReg(RegFile.R, f.d());
        cx.emit("BMMA", mods, List.of(first), List.of(Src.of(a), Src.of(inverted(m, b, f.b())), Src.of(Reg.RZ)));
        cx.emit("BMMA", mods, List.of(both), List.of(Src.of(inverted(m, a, f.a())), Src.of(b), Src.of(first)));
        Reg d = cx.newReg(RegFile.R, f.d());
        for (int e = 0; e < f.d(); e++) {
            m.iadd3(part(d, e), part(c, e), part(both, e), Reg.RZ);
        }
        return d;
    }

    private static Reg inverted(MathEmitter m, Reg t, int n) {
        Reg out = m.cx().newReg(RegFile.R, n);
        for (int k = 0; k < n; k++) {
            m.lop3(part(out, k), Reg.RZ, part(t, k), Reg.RZ, 0x33);
        }
        return out;
    }

    /**
     * The fp8 multiply of {@code f} (QMMA.16832 / QMMA.16816 .{F32|F16}.A.B) from two HMMA.16816 / HMMA.1688 on
     * unpacked f16; its D tuple.
     */
    static Reg fp8(LoweringContext cx, MmaLowerer.Form f, Reg a, Reg b, Reg c) {
        MathEmitter m = new MathEmitter(cx);
        String acc = f.mods().get(1);
        String half = f.mods().get(0).equals("16832") ? "16816" : "1688";
        Reg first = cx.newReg(RegFile.R, f.d());
        Reg both = cx.newReg(RegFile.R, f.d());
        cx.emit("HMMA", List.of(half, acc), List.of(first), List.of(Src.of(unpacked(m, a, f.a(), f.mods().get(2), false)),
                Src.of(unpacked(m, b, f.b(), f.mods().get(3), false)), Src.of(Reg.RZ)));
        cx.emit("HMMA", List.of(half, acc), List.of(both), List.of(Src.of(unpacked(m, a, f.a(), f.mods().get(2), true)),
                Src.of(unpacked(m, b, f.b(), f.mods().get(3), true)), Src.of(first)));
        Reg d = cx.newReg(RegFile.R, f.d());
        for (int e = 0; e < f.d(); e++) {
            if (acc.equals("F32")) {
                m.fadd("", part(d, e), part(c, e), part(both, e));
            } else {
                m.op("HADD2", "", part(d, e), part(c, e), part(both, e));
            }
        }
        return d;
    }

    /**
     * Each register's low or high byte pair as an f16 pair. ptxas reads the high pair as the source's {@code .H1};
     * Ori's operands carry no lane selector, so it is shifted down first.
     */
    private static Reg unpacked(MathEmitter m, Reg t, int n, String type, boolean high) {
        Reg out = m.cx().newReg(RegFile.R, n);
        for (int k = 0; k < n; k++) {
            Reg w = part(t, k);
            if (high) {
                Reg shifted = m.r();
                m.shf("R.U32.HI", shifted, Reg.RZ, 16, w);
                w = shifted;
            }
            m.op("F2FP", "F16." + type + ".UNPACK_B", part(out, k), w);
        }
        return out;
    }
}
