package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.MathEmitter.RZ;
import static org.jptxas.frontend.ptx.lower.MathEmitter.abs;
import static org.jptxas.frontend.ptx.lower.MathEmitter.neg;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.ori.ir.Src;

/**
 * {@code cvt} between every integer and floating-point type pair of sm_75..sm_90 with the rounding, {@code .sat} and
 * {@code .ftz} modifiers, {@code cvt.pack}, and the packed f16x2/bf16x2 conversions, using ptxas's idioms (F2I/I2F
 * with .TRUNC/.FLOOR/.CEIL/.NTZ, F2F, FRND, F2FP.PACK_AB, HADD2.F32, PRMT/LOP3/SHF for integer width changes).
 *
 * <p>Values narrower than 32 bits live in a 32-bit register: this lowerer reads only the low bits of narrow sources
 * and writes narrow integer destinations sign- or zero-extended to 32 bits, f16/bf16 destinations in the low half.
 */
@AutoService(InstructionLowerer.class)
public final class CvtLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("cvt", "cvt.pack");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        List<PtxType> types = MathTypes.types(insn);
        MathEmitter m = new MathEmitter(cx);
        if (insn.hasModifier("pack")) {
            pack(insn, cx, m, types);
            return;
        }
        if (types.size() != 2) {
            throw cx.unsupported(insn.fullName());
        }
        PtxType dt = types.get(0), st = types.get(1);
        String rnd = MathTypes.rounding(insn);
        boolean sat = insn.hasModifier("sat");
        boolean ftz = insn.hasModifier("ftz");
        if (fp8(insn, cx, m, dt, st)) {
            return;
        }
        if (dt == PtxType.TF32 && st == PtxType.F32 && "rna".equals(MathTypes.rounding(insn)) && !insn.hasModifier("relu")) {
            // round to nearest, ties away, at bit 13 (finite inputs only), then clear the 13 low bits
            Reg d = cx.dst(insn.operands().get(0), PtxType.B32);
            Src x = cx.src(insn.operands().get(1), st);
            m.ownControl();
            Reg t = m.r(), p = m.p();
            m.mov(t, x);
            m.fsetp("GEU", p, abs(t), Float.POSITIVE_INFINITY);
            m.atNot(p).iadd3(t, t, 0x1000, RZ);
            m.lop3(d, t, 0xffffe000, RZ, 0xc0);
            if (insn.hasModifier("satfinite")) {
                // an all-ones exponent (infinity, or NaN) steps one tf32 unit down: infinity to the largest finite
                Reg q = m.p();
                m.fsetp("GEU", q, abs(d), Float.POSITIVE_INFINITY);
                m.at(q).iadd3(d, d, -0x2000, RZ);
            }
            m.finish();
            return;
        }
        if (dt == PtxType.TF32 && st == PtxType.F32 && ("rn".equals(rnd) || "rz".equals(rnd))
                && !insn.hasModifier("satfinite") && insn.operands().size() == 2) {
            // sm_90's F2FP.TF32 (as ptxas): the f32 rounded to 10 fraction bits, the 13 low bits clear
            Reg d = cx.dst(insn.operands().get(0), PtxType.B32);
            Src x = cx.src(insn.operands().get(1), st);
            m.op("F2FP", (insn.hasModifier("relu") ? "RELU." : "") + "TF32.F32.PACK_B" + ("rz".equals(rnd) ? ".RZ" : ""),
                    d, x);
            return;
        }
        if (insn.hasModifier("relu") || insn.hasModifier("satfinite") || insn.operands().size() != 2) {
            if ((dt == PtxType.F16X2 || dt == PtxType.BF16X2) && st == PtxType.F32 && insn.operands().size() == 3) {
                packF16x2(insn, cx, m, dt, rnd);
                return;
            }
            if (!((dt == PtxType.F16 || dt == PtxType.BF16) && st == PtxType.F32 && insn.operands().size() == 2)) {
                throw cx.unsupported(insn.fullName());
            }
        }
        Reg d = cx.dst(insn.operands().get(0), dt);
        Src s = cx.src(insn.operands().get(1), st);
        if (st.sizeBytes() == 8 && !(s.value() instanceof Reg)) {
            // a 64-bit immediate source: F2F/F2I/I2F/FRND have no 64-bit immediate slot, so it goes to a pair
            Reg pair = cx.newReg(org.jptxas.ori.ir.RegFile.R, 2);
            MovLowerer.move(cx, pair, s, st);
            s = Src.of(pair);
        }
        boolean dInt = MathTypes.isInt(dt), sInt = MathTypes.isInt(st);
        if (dInt && sInt) {
            intToInt(m, d, dt, s, st, sat);
        } else if (dInt) {
            floatToInt(cx, insn, m, d, dt, s, st, rnd, ftz);
        } else if (sInt) {
            intToFloat(cx, insn, m, d, dt, s, st, rnd, sat);
        } else {
            floatToFloat(cx, insn, m, d, dt, s, st, rnd, sat, ftz);
        }
    }

    /** The fp8 pair conversions of sm_89+: f16x2 from e4m3x2/e5m2x2 (UNPACK_B), e4m3x2/e5m2x2 from two f32. */
    private static boolean fp8(Instruction insn, LoweringContext cx, MathEmitter m, PtxType dt, PtxType st)
            throws CompilationException {
        boolean fromFp8 = st == PtxType.E4M3X2 || st == PtxType.E5M2X2;
        boolean toFp8 = dt == PtxType.E4M3X2 || dt == PtxType.E5M2X2;
        if (!fromFp8 && !toFp8) {
            return false;
        }
        if (fromFp8 && dt == PtxType.F16X2) {
            Reg d = cx.dst(insn.operands().get(0), dt);
            Src a = cx.src(insn.operands().get(1), st);
            String f = st == PtxType.E4M3X2 ? "E4M3" : "E5M2";
            // nvdisasm's order: .RELU before the types (F2FP.RELU.F16.E4M3.UNPACK_B)
            m.op("F2FP", (insn.hasModifier("relu") ? "RELU." : "") + "F16." + f + ".UNPACK_B", d, a);
            return true;
        }
        if (toFp8 && st == PtxType.F16X2 && insn.operands().size() == 2 && insn.hasModifier("satfinite")) {
            // ptxas: the pair converted into the low half, the high half from RZ (MERGE_C)
            Reg d = cx.dst(insn.operands().get(0), dt);
            Src a = cx.src(insn.operands().get(1), st);
            String f = dt == PtxType.E4M3X2 ? "E4M3" : "E5M2";
            m.op("F2FP", "SATFINITE." + (insn.hasModifier("relu") ? "RELU." : "") + f + ".F16.UNPACK_B_MERGE_C", d, a,
                    RZ);
            return true;
        }
        if (toFp8 && st == PtxType.F32 && insn.operands().size() == 3 && insn.hasModifier("satfinite")) {
            Reg d = cx.dst(insn.operands().get(0), dt);
            Src a = cx.src(insn.operands().get(1), st);
            Src b = cx.src(insn.operands().get(2), st);
            String f = dt == PtxType.E4M3X2 ? "E4M3" : "E5M2";
            m.op("F2FP", "SATFINITE." + (insn.hasModifier("relu") ? "RELU." : "") + f + ".F32.PACK_AB_MERGE_C", d, a,
                    b, RZ);
            return true;
        }
        throw cx.unsupported(insn.fullName());
    }

    // ---- integer <- integer ----

    /** Extends the low {@code bits} of {@code s} to 32 bits: PRMT for sign extension, LOP3 for zero extension. */
    static void extend(MathEmitter m, Reg d, Object s, int bits, boolean signed) {
        if (bits >= 32) {
            m.mov(d, s);
        } else if (signed) {
            m.op("PRMT", "", d, s, bits == 8 ? 0x8880 : 0x9910, RZ);
        } else {
            m.lop3(d, s, bits == 8 ? 0xff : 0xffff, RZ, 0xc0);
        }
    }

    private static Object lo(Src s) {
        if (s.value() instanceof Reg r) {
            return r.comps() == 2 ? r.component(0) : r;
        }
        return (int) ((Imm) s.value()).bits();
    }

    private static Object hi(Src s) {
        if (s.value() instanceof Reg r && r.comps() == 2) {
            return r.component(1);
        }
        if (s.value() instanceof Imm imm) {
            return (int) (imm.bits() >>> 32);
        }
        return RZ;
    }

    private static void intToInt(MathEmitter m, Reg d, PtxType dt, Src s, PtxType st, boolean sat) {
        int dw = MathTypes.bits(dt), sw = MathTypes.bits(st);
        boolean ds = MathTypes.isSigned(dt), ss = MathTypes.isSigned(st);
        if (sat && needsSaturation(dw, ds, sw, ss)) {
            saturate(m, d, dt, s, st);
            return;
        }
        if (sw == 64 && dw == 64) {
            m.mov(d.component(0), lo(s));
            m.mov(d.component(1), hi(s));
            return;
        }
        if (dw == 64) {
            Reg l = m.r();
            extend(m, l, lo(s), sw, ss);
            if (ss) {
                Reg h = m.r();
                m.shf("R.S32.HI", h, RZ, 0x1f, l);
                m.mov(d.component(1), h);
            } else {
                m.mov(d.component(1), RZ);
            }
            m.mov(d.component(0), l);
            return;
        }
        // dw <= 32: the low dw bits of the source, extended as the destination type says
        if (dw < sw || sw >= 32) {
            extend(m, d, lo(s), dw, ds);
        } else {
            // widening or same width: extend from the source width, then (narrow destination) re-extend
            Reg w = m.r();
            extend(m, w, lo(s), sw, ss);
            extend(m, d, w, dw, ds);
        }
    }

    private static boolean needsSaturation(int dw, boolean ds, int sw, boolean ss) {
        if (ds == ss) {
            return dw < sw;
        }
        if (ss) {
            return true; // negative values clamp to 0
        }
        return dw <= sw; // unsigned into signed of the same or narrower width
    }

    /** Clamps the source (read with its own signedness and width) into the destination's range. */
    private static void saturate(MathEmitter m, Reg d, PtxType dt, Src s, PtxType st) {
        int dw = MathTypes.bits(dt), sw = MathTypes.bits(st);
        boolean ds = MathTypes.isSigned(dt), ss = MathTypes.isSigned(st);
        long min = ds ? -(1L << (dw - 1)) : 0;
        long max = ds ? (1L << (dw - 1)) - 1 : (dw == 64 ? -1L : (1L << dw) - 1);
        m.ownControl();
        if (sw <= 32) {
            Reg v = m.r();
            extend(m, v, lo(s), sw, ss);
            Reg p = m.p();
            if (ss) {
                long srcMin = -(1L << (sw - 1)), srcMax = (1L << (sw - 1)) - 1;
                if (min > srcMin) {
                    m.isetp("LT", p, v, (int) min);
                    m.at(p).mov(v, (int) min);
                }
                if (max >= 0 && max < srcMax) {
                    m.isetp("GT", p, v, (int) max);
                    m.at(p).mov(v, (int) max);
                }
            } else {
                long srcMax = (1L << sw) - 1;
                if (Long.compareUnsigned(max, srcMax) < 0) {
                    m.isetp("GT.U32", p, v, (int) max);
                    m.at(p).mov(v, (int) max);
                }
            }
            if (dw == 64) {
                m.mov(d.component(0), v);
                Reg h = m.r();
                if (ds && ss) {
                    m.shf("R.S32.HI", h, RZ, 0x1f, v);
                } else {
                    m.mov(h, RZ);
                }
                m.mov(d.component(1), h);
            } else {
                extend(m, d, v, dw, ds);
            }
            m.finish();
            return;
        }
        // 64-bit source: compare (hi, lo) against the bounds with ISETP.EX chains
        Object sl = lo(s), sh = hi(s);
        String u = ss ? "" : ".U32";
        Reg below = m.p(), above = m.p();
        long lowBound = ss ? Math.max(min, Long.MIN_VALUE) : 0;
        boolean checkLow = ss && (min > Long.MIN_VALUE || !ds);
        Reg vl = m.r(), vh = m.r();
        m.mov(vl, sl);
        m.mov(vh, sh);
        if (checkLow) {
            m.isetp("LT.U32", below, vl, (int) lowBound);
            m.emit("ISETP", "LT.AND.EX", List.of(below, MathEmitter.PT), vh, (int) (lowBound >>> 32),
                    MathEmitter.PT, below);
        }
        boolean checkHigh = ss ? max >= 0 && max < Long.MAX_VALUE : Long.compareUnsigned(max, -1L) < 0;
        if (checkHigh) {
            m.isetp("GT.U32", above, vl, (int) max);
            m.emit("ISETP", "GT" + u + ".AND.EX", List.of(above, MathEmitter.PT), vh, (int) (max >>> 32),
                    MathEmitter.PT, above);
        }
        if (checkLow) {
            m.at(below).mov(vl, (int) lowBound);
            m.at(below).mov(vh, (int) (lowBound >>> 32));
        }
        if (checkHigh) {
            m.at(above).mov(vl, (int) max);
            m.at(above).mov(vh, (int) (max >>> 32));
        }
        if (dw == 64) {
            m.mov(d.component(0), vl);
            m.mov(d.component(1), vh);
        } else {
            extend(m, d, vl, dw, ds);
        }
        m.finish();
    }

    // ---- integer <- float ----

    private static String intRounding(String rnd) {
        if (rnd == null) {
            return "";
        }
        return switch (rnd) {
            case "rzi" -> "TRUNC";
            case "rmi" -> "FLOOR";
            case "rpi" -> "CEIL";
            default -> "";
        };
    }

    private static String intName(PtxType t) {
        return switch (t) {
            case S8 -> "S8";
            case S16 -> "S16";
            case S32 -> "S32";
            case S64 -> "S64";
            case U8, B8 -> "U8";
            case U16, B16 -> "U16";
            case U32, B32 -> "U32";
            default -> "U64";
        };
    }

    private static void floatToInt(LoweringContext cx, Instruction insn, MathEmitter m, Reg d, PtxType dt, Src s,
            PtxType st, String rnd, boolean ftz) throws CompilationException {
        List<String> mods = new ArrayList<>();
        if (ftz && st == PtxType.F32) {
            mods.add("FTZ");
        }
        String it = intName(dt);
        if (!it.equals("S32")) {
            mods.add(it);
        }
        switch (st) {
            case F64 -> mods.add("F64");
            case F16 -> mods.add("F16");
            case BF16 -> mods.add("BF16");
            default -> {
            }
        }
        String r = intRounding(rnd);
        if (!r.isEmpty()) {
            mods.add(r);
        }
        int dw = MathTypes.bits(dt);
        if (st != PtxType.F64 && dw <= 32) {
            mods.add("NTZ");
        }
        String mod = String.join(".", mods);
        if (dw == 64) {
            m.op("F2I", mod, d, s);
        } else if (dw == 32) {
            m.op("F2I", mod, d, s);
        } else {
            Reg t = m.r();
            m.op("F2I", mod, t, s);
            extend(m, d, t, dw, MathTypes.isSigned(dt));
        }
    }

    // ---- float <- integer ----

    private static String floatRounding(String rnd) {
        if (rnd == null) {
            return "";
        }
        return switch (rnd) {
            case "rz" -> "RZ";
            case "rm" -> "RM";
            case "rp" -> "RP";
            default -> "";
        };
    }

    private static void intToFloat(LoweringContext cx, Instruction insn, MathEmitter m, Reg d, PtxType dt, Src s,
            PtxType st, String rnd, boolean sat) throws CompilationException {
        List<String> mods = new ArrayList<>();
        switch (dt) {
            case F64 -> mods.add("F64");
            case F16 -> mods.add("F16");
            case BF16 -> mods.add("BF16");
            case F32 -> {
            }
            default -> throw cx.unsupported(insn.fullName());
        }
        String it = intName(st);
        if (!it.equals("S32")) {
            mods.add(it);
        }
        String r = floatRounding(rnd);
        if (!r.isEmpty()) {
            mods.add(r);
        }
        if (sat && dt == PtxType.BF16) {
            throw cx.unsupported(insn.fullName());
        }
        if (sat && dt == PtxType.F64) {
            Reg t = m.r2();
            m.op("I2F", String.join(".", mods), t, s);
            doubleSaturate(m, d, t);
            return;
        }
        Reg t = sat ? m.r() : d;
        m.op("I2F", String.join(".", mods), t, s);
        if (sat && dt == PtxType.F16) {
            halfSaturate(m, d, t, true);
        } else if (sat) {
            m.fadd("SAT", d, RZ, t);
        }
    }

    // ---- float <- float ----

    private static void floatToFloat(LoweringContext cx, Instruction insn, MathEmitter m, Reg d, PtxType dt, Src s,
            PtxType st, String rnd, boolean sat, boolean ftz) throws CompilationException {
        String fr = floatRounding(rnd);
        boolean integral = rnd != null && rnd.endsWith("i");
        if (dt == st) {
            switch (dt) {
                case F32 -> {
                    Reg t = d;
                    if (integral) {
                        t = sat ? m.r() : d;
                        List<String> mods = new ArrayList<>();
                        if (ftz) {
                            mods.add("FTZ");
                        }
                        String ir = intRounding(rnd);
                        if (!ir.isEmpty()) {
                            mods.add(ir);
                        }
                        m.op("FRND", String.join(".", mods), t, s);
                        if (sat) {
                            m.fadd(ftz ? "FTZ.SAT" : "SAT", d, RZ, t);
                        }
                    } else if (sat) {
                        m.fadd(ftz ? "FTZ.SAT" : "SAT", d, RZ, s);
                    } else if (ftz) {
                        m.fadd("FTZ", d, s, neg(RZ));
                    } else {
                        m.mov(d, s);
                    }
                }
                case F64 -> {
                    if (integral) {
                        String ir = intRounding(rnd);
                        Reg t = sat ? m.r2() : d;
                        m.op("FRND", ir.isEmpty() ? "F64" : "F64." + ir, t, s);
                        if (sat) {
                            doubleSaturate(m, d, t);
                        }
                    } else if (sat) {
                        Reg t = m.r2();
                        m.mov(t.component(0), lo(s));
                        m.mov(t.component(1), hi(s));
                        doubleSaturate(m, d, t);
                    } else {
                        m.mov(d.component(0), lo(s));
                        m.mov(d.component(1), hi(s));
                    }
                }
                case F16, BF16 -> {
                    boolean bf = dt == PtxType.BF16;
                    if (bf && sat) {
                        throw cx.unsupported(insn.fullName());
                    }
                    Object x = s;
                    if (integral) {
                        String ir = intRounding(rnd);
                        Reg t = sat ? m.r() : d;
                        m.op("FRND", (bf ? "BF16" : "F16") + (ir.isEmpty() ? "" : "." + ir), t, s);
                        if (!sat) {
                            return;
                        }
                        x = t;
                    }
                    // as ptxas: an add of -0 (a NaN becomes the canonical one), .SAT clamping to [0, 1]; bf16 as
                    // x * 1 + -0 in add.bf16's form (ptxas's -0 * 0 + x reads its operands' low halves)
                    if (bf) {
                        m.op("HFMA2", "BF16_V2", d, x, 0x3f803f80, m.imm(0x80008000));
                    } else {
                        halfSaturate(m, d, x, sat);
                    }
                }
                default -> throw cx.unsupported(insn.fullName());
            }
            return;
        }
        if (integral) {
            throw cx.unsupported(insn.fullName());
        }
        switch (dt) {
            case F64 -> {
                Reg wide = sat ? m.r2() : d;
                switch (st) {
                    case F32 -> {
                        Object x = s;
                        if (ftz) {
                            Reg t = m.r();
                            m.fmul("FTZ", t, s, 1.0f);
                            x = t;
                        }
                        m.op("F2F", "F64.F32", wide, x);
                    }
                    case F16 -> {
                        Reg t = m.r();
                        halfToFloat(m, t, s);
                        m.op("F2F", "F64.F32", wide, t);
                    }
                    case BF16 -> {
                        if (ftz) {
                            throw cx.unsupported(insn.fullName());
                        }
                        m.op("F2F", "F64.BF16", wide, s);
                    }
                    default -> throw cx.unsupported(insn.fullName());
                }
                if (sat) {
                    doubleSaturate(m, d, wide);
                }
            }
            case F32 -> {
                switch (st) {
                    case F64 -> {
                        Reg t = sat ? m.r() : d;
                        m.op("F2F", fr.isEmpty() ? "F32.F64" : "F32.F64." + fr, t, s);
                        if (ftz) {
                            // a result below 2^-126 before rounding flushes to a signed zero
                            m.ownControl();
                            Reg p = m.p();
                            // |s| >= 2^-126 (or NaN) from the high word alone: 2^-126 is 0x38100000_00000000
                            Reg ah = m.r();
                            m.lop3(ah, hi(s), 0x7fffffff, RZ, 0xc0);
                            m.isetp("GE.U32", p, ah, 0x38100000);
                            m.atNot(p).fmul("", t, t, Float.MIN_NORMAL);
                        }
                        if (sat) {
                            m.fadd("SAT", d, RZ, t);
                        }
                        m.finish();
                    }
                    case F16 -> {
                        Reg t = sat ? m.r() : d;
                        m.op("HADD2_F32", "", t, neg(RZ), s);
                        if (sat) {
                            m.fadd("SAT", d, RZ, t);
                        }
                    }
                    case BF16 -> {
                        Reg t = sat || ftz ? m.r() : d;
                        m.shf("L.U32", t, s, 0x10, RZ);
                        if (ftz) { // x * 1 with FTZ: a subnormal to a signed zero, a NaN to the canonical one
                            Reg u = sat ? m.r() : d;
                            m.fmul("FTZ", u, t, 1.0f);
                            t = u;
                        }
                        if (sat) {
                            m.fadd("SAT", d, RZ, t);
                        }
                    }
                    default -> throw cx.unsupported(insn.fullName());
                }
            }
            case F16, BF16 -> {
                boolean bf = dt == PtxType.BF16;
                switch (st) {
                    case F32 -> {
                        if ((fr.equals("RM") || fr.equals("RP")) && !bf && !insn.hasModifier("relu")
                                && !insn.hasModifier("satfinite")) {
                            // ptxas: F2F.F16.F32.RM/.RP (its .ftz is not applied), .sat as a saturating add after
                            Reg t = sat ? m.r() : d;
                            m.op("F2F", "F16.F32." + fr, t, s);
                            if (sat) {
                                halfSaturate(m, d, t, true);
                            }
                            return;
                        }
                        if (!fr.isEmpty() && !fr.equals("RZ")) {
                            throw cx.unsupported(insn.fullName());
                        }
                        Object x = s;
                        if (sat) {
                            Reg t = m.r();
                            m.fadd("SAT", t, RZ, s);
                            x = t;
                        }
                        if (!bf && insn.hasModifier("satfinite") && !cx.profile().has(TargetFeature.F2FP_SATFINITE)) {
                            halfSatfinite(m, d, x, fr);
                            return;
                        }
                        m.op("F2FP", packModifiers(insn, bf, fr), d, RZ, x);
                    }
                    case F16, BF16 -> {
                        // sm_90's F2F between the two 16-bit formats (st != dt here)
                        if (sat || ftz || insn.hasModifier("relu")
                                || insn.hasModifier("satfinite")) {
                            throw cx.unsupported(insn.fullName());
                        }
                        String pair = bf ? "BF16.F16" : "F16.BF16";
                        m.op("F2F", fr.isEmpty() ? pair : pair + "." + fr, d, s);
                    }
                    case F64 -> {
                        if (bf && sat) {
                            throw cx.unsupported(insn.fullName());
                        }
                        if (bf) {
                            m.op("F2F", fr.isEmpty() ? "BF16.F64" : "BF16.F64." + fr, d, s);
                            return;
                        }
                        Reg t = sat ? m.r() : d;
                        m.op("F2F", fr.isEmpty() ? "F16.F64" : "F16.F64." + fr, t, s);
                        if (sat) {
                            halfSaturate(m, d, t, true);
                        }
                    }
                    default -> throw cx.unsupported(insn.fullName());
                }
            }
            default -> throw cx.unsupported(insn.fullName());
        }
    }

    // ---- packing ----

    private static void packF16x2(Instruction insn, LoweringContext cx, MathEmitter m, PtxType dt, String rnd)
            throws CompilationException {
        String fr = floatRounding(rnd);
        if (!fr.isEmpty() && !fr.equals("RZ")) {
            throw cx.unsupported(insn.fullName());
        }
        Reg d = cx.dst(insn.operands().get(0), dt);
        Src a = cx.src(insn.operands().get(1), PtxType.F32);
        Src b = cx.src(insn.operands().get(2), PtxType.F32);
        m.op("F2FP", packModifiers(insn, dt == PtxType.BF16X2, fr), d, a, b);
    }

    /**
     * cvt{.rn,.rz}.satfinite.f16.f32 where F2FP has no .SATFINITE (sm_75; ptxas writes an F2FP form there that
     * nvdisasm 12.5 cannot print): F2F.F16.F32 (the PACK_AB with an RZ high half), then an infinite half steps one
     * unit down to the largest finite one, keeping its sign (0x7c00 - 1 = 0x7bff); a NaN stays NaN.
     */
    private static void halfSatfinite(MathEmitter m, Reg d, Object x, String fr) {
        m.ownControl();
        m.op("F2FP", fr.isEmpty() ? "PACK_AB" : "PACK_AB." + fr, d, RZ, x);
        Reg magnitude = m.r(), infinite = m.p();
        m.lop3(magnitude, d, 0x7fff, RZ, 0xc0);
        m.isetp("EQ.U32", infinite, magnitude, 0x7c00);
        m.at(infinite).iadd3(d, d, -1, RZ);
        m.finish();
    }

    /** F2FP's modifiers in nvdisasm's order: {@code {.SATFINITE}{.RELU}{.BF16}.PACK_AB{.RZ}}. */
    private static String packModifiers(Instruction insn, boolean bf, String fr) {
        List<String> mods = new ArrayList<>();
        if (insn.hasModifier("satfinite")) {
            mods.add("SATFINITE");
        }
        if (insn.hasModifier("relu")) {
            mods.add("RELU");
        }
        if (bf) {
            mods.add("BF16");
        }
        mods.add("PACK_AB");
        if (!fr.isEmpty()) {
            mods.add(fr);
        }
        return String.join(".", mods);
    }

    /**
     * An f64 clamped to [0, 1] on the integer pipe (ptxas uses DSETP.MAX/MIN): a negative value (-0 too) or a NaN
     * gives +0, a value from 1 up (infinity too) gives 1. {@code x} is a register pair.
     */
    private static void doubleSaturate(MathEmitter m, Reg d, Reg x) {
        Reg lo = x.component(0), hi = x.component(1);
        m.ownControl();
        Reg negative = m.p(), atLeastOne = m.p(), nan = m.p();
        Reg rl = m.r(), rh = m.r();
        m.isetp("LT", negative, hi, 0);
        m.isetp("GE.U32", atLeastOne, hi, 0x3ff00000);
        // bits above +infinity's (hi:lo) compare: a positive NaN
        m.isetp("GT.U32", nan, lo, 0);
        m.emit("ISETP", "GT.U32.AND.EX", List.of(nan, MathEmitter.PT), hi, 0x7ff00000, MathEmitter.PT, nan);
        m.sel(rl, RZ, lo, atLeastOne);
        m.sel(rh, 0x3ff00000, hi, atLeastOne);
        m.at(negative).mov(rl, RZ);
        m.at(negative).mov(rh, RZ);
        m.at(nan).mov(rl, RZ);
        m.at(nan).mov(rh, RZ);
        m.mov(d.component(0), rl);
        m.mov(d.component(1), rh);
        m.finish();
    }

    /** {@code HADD2{.SAT} d, x, -RZ}: ptxas's canonicalizing (and with .SAT clamping) copy of an f16. */
    private static void halfSaturate(MathEmitter m, Reg d, Object x, boolean sat) {
        m.op("HADD2", sat ? "SAT" : "", d, x, neg(RZ));
    }

    /**
     * f16 (low half of {@code s}) to f32, exactly, on the integer and FMUL pipes (the quad-pair MMA's elements;
     * cvt.f32.f16 is ptxas's one {@code HADD2.F32 d, -RZ, s.H0_H0}). The magnitude bits moved to an f32's place and
     * scaled by 2^112 give every finite value (subnormal halves become normal floats); an all-ones exponent
     * (infinity) stays all ones in the f32; the sign goes back last, and a NaN becomes the canonical NaN.
     */
    static void halfToFloat(MathEmitter m, Reg d, Object s) {
        Reg mag = m.r(), bits = m.r(), scaled = m.r(), special = m.p(), sign = m.r(), abs = m.r();
        m.lop3(mag, s, 0x7fff, RZ, 0xc0);
        m.shf("L.U32", bits, mag, 13, RZ);
        m.fmul("", scaled, bits, 0x1p112f);
        m.isetp("GE.U32", special, mag, 0x7c00);
        Reg inf = m.r();
        m.lop3(inf, bits, 0x7f800000, RZ, 0xfc);
        m.sel(abs, inf, scaled, special);
        Reg h = m.r();
        m.lop3(h, s, 0x8000, RZ, 0xc0);
        m.shf("L.U32", sign, h, 16, RZ);
        // a NaN comes out as the canonical f32 NaN, payload and sign dropped, as HADD2.F32 gives it
        Reg signed = m.r(), number = m.p();
        m.lop3(signed, abs, sign, RZ, 0xfc);
        m.isetp("LE.U32", number, mag, 0x7c00);
        m.sel(d, signed, 0x7fffffff, number);
    }

    /**
     * {@code cvt.pack.sat.{u8,s8,u16,s16}.{s32,u32}{.b32} d, a, b{, c}}: I2IP. The 2- and 4-bit lane types
     * ({@code .u2/.s2/.u4/.s4}, which are no PTX variable types and so stay modifiers) name the lanes in the mnemonic;
     * the source is then always printed {@code .S32} (I2IP.S2.S32.SAT, as ptxas writes it).
     */
    private static void pack(Instruction insn, LoweringContext cx, MathEmitter m, List<PtxType> types)
            throws CompilationException {
        String narrow = NARROW_LANES.stream().filter(insn::hasModifier).findFirst().orElse(null);
        PtxType ab = narrow != null ? PtxType.S32 : types.get(1);
        // cvt.pack takes registers wider than its types: a 64-bit source gives its low word, a 64-bit destination
        // gets the packed word zero-extended (as ptxas 13 writes it)
        Reg whole = cx.dst(insn.operands().get(0), PtxType.B32);
        Reg d = whole.comps() == 2 ? whole.component(0) : whole;
        Src a = cx.src(insn.operands().get(1), ab);
        Src b = cx.src(insn.operands().get(2), ab);
        Object c = insn.operands().size() > 3 ? cx.src(insn.operands().get(3), PtxType.B32) : RZ;
        String lanes = narrow != null ? narrow.toUpperCase(java.util.Locale.ROOT) : intName(types.get(0));
        m.op("I2IP", lanes + "." + intName(ab) + ".SAT", d, a, b, c);
        if (whole.comps() == 2) {
            m.mov(whole.component(1), 0);
        }
    }

    /** cvt.pack's destination lane types narrower than a byte. */
    private static final List<String> NARROW_LANES = List.of("u2", "s2", "u4", "s4");
}
