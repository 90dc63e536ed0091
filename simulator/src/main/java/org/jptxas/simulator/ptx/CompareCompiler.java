package org.jptxas.simulator.ptx;

import org.jptxas.frontend.ptx.ast.Expr;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.simulator.numeric.Ieee;
import org.jptxas.simulator.ptx.InstructionCompiler.Compare;
import org.jptxas.simulator.ptx.InstructionCompiler.FloatCompare;
import org.jptxas.simulator.ptx.InstructionCompiler.Unsupported;
import static org.jptxas.simulator.ptx.Values.ext;
import static org.jptxas.simulator.ptx.Values.f32;
import static org.jptxas.simulator.ptx.Values.f64;
import static org.jptxas.simulator.ptx.Values.isFloat;
import static org.jptxas.simulator.ptx.Values.isSigned;
import static org.jptxas.simulator.ptx.Values.write;

/** Compares and selects: setp, set, selp, slct, testp, and the comparisons they share. */
final class CompareCompiler {
    private final InstructionCompiler ic;

    CompareCompiler(InstructionCompiler ic) {
        this.ic = ic;
    }

    Insn selp() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t), b = ic.src(ic.op(2), t), c = ic.src(ic.op(3), PtxType.PRED);
        return ic.simple(th -> write(th, d, c.get(th) != 0 ? a.get(th) : b.get(th)));
    }

    Insn setp() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        String cmp = ic.mods.get(0);
        String bool = ic.mods.size() > 1 && (ic.mods.contains("and") || ic.mods.contains("or") || ic.mods.contains("xor"))
                ? (ic.mods.contains("and") ? "and" : ic.mods.contains("or") ? "or" : "xor") : null;
        int p, q = -1;
        if (ic.op(0) instanceof Operand.Pair pair) {
            p = ic.dst(pair.first());
            q = ic.dst(pair.second());
        } else {
            p = ic.dst(ic.op(0));
        }
        Src a = ic.src(ic.op(1), t), b = ic.src(ic.op(2), t);
        Src c;
        boolean cNeg;
        if (bool != null) {
            Operand co = ic.op(3);
            cNeg = co instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
            c = ic.src(cNeg ? ((Expr.Unary) co).operand() : co, PtxType.PRED);
        } else {
            c = null;
            cNeg = false;
        }
        if (t == PtxType.F16X2 || t == PtxType.BF16X2) {
            return ic.simple(HalfPairCompare.setp(new HalfPairCompare.Sources(a, b, c, cNeg, bool, ic.has("ftz"),
                    comparison(cmp, pairLane(t))), p, q));
        }
        Compare compare = comparison(cmp, t);
        int qq = q;
        boolean ftz = ic.has("ftz");
        return ic.simple(th -> {
            long x = a.get(th), y = b.get(th);
            if (ftz && t == PtxType.F32) {
                x = Float.floatToRawIntBits(Ieee.ftz(f32(x))) & 0xffffffffL;
                y = Float.floatToRawIntBits(Ieee.ftz(f32(y))) & 0xffffffffL;
            } else if (ftz && t == PtxType.F16) {
                x = ftzHalf(x);
                y = ftzHalf(y);
            }
            boolean r = compare.test(x, y);
            boolean nr = !r;
            if (bool != null) {
                boolean k = (c.get(th) != 0) != cNeg;
                r = combine(bool, r, k);
                nr = combine(bool, nr, k);
            }
            write(th, p, r ? 1 : 0);
            if (qq >= 0) {
                write(th, qq, nr ? 1 : 0);
            }
        });
    }

    /** An f16 source under .ftz (set/setp on f16): a subnormal is a zero of its sign. */
    private static long ftzHalf(long h) {
        return (h & 0x7c00) == 0 ? h & 0x8000 : h & 0xffff;
    }

    /** The lane type of a packed pair. */
    private static PtxType pairLane(PtxType pair) {
        return pair == PtxType.BF16X2 ? PtxType.BF16 : PtxType.F16;
    }

    private static boolean combine(String op, boolean a, boolean b) {
        return switch (op) {
            case "and" -> a && b;
            case "or" -> a || b;
            default -> a ^ b;
        };
    }

    private Compare comparison(String cmp, PtxType t) throws Unsupported {
        if (isFloat(t)) {
            boolean half = t == PtxType.F16 || t == PtxType.BF16;
            boolean bf = t == PtxType.BF16;
            if (t == PtxType.F16X2 || t == PtxType.BF16X2) {
                throw ic.unsupported();
            }
            FloatCompare fcmp = floatComparison(cmp);
            if (t == PtxType.F32) {
                return (x, y) -> fcmp.test(f32(x), f32(y));
            }
            if (half) {
                return (x, y) -> fcmp.test(Values.half(x, bf), Values.half(y, bf));
            }
            return (x, y) -> fcmp.test(f64(x), f64(y));
        }
        boolean signed = isSigned(t);
        return switch (cmp) {
            case "eq" -> (x, y) -> ext(x, t) == ext(y, t);
            case "ne" -> (x, y) -> ext(x, t) != ext(y, t);
            case "lt" -> signed ? (x, y) -> ext(x, t) < ext(y, t) : (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) < 0;
            case "le" -> signed ? (x, y) -> ext(x, t) <= ext(y, t) : (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) <= 0;
            case "gt" -> signed ? (x, y) -> ext(x, t) > ext(y, t) : (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) > 0;
            case "ge" -> signed ? (x, y) -> ext(x, t) >= ext(y, t) : (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) >= 0;
            case "lo" -> (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) < 0;
            case "ls" -> (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) <= 0;
            case "hi" -> (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) > 0;
            case "hs" -> (x, y) -> Long.compareUnsigned(ext(x, t), ext(y, t)) >= 0;
            default -> throw ic.unsupported();
        };
    }

    private FloatCompare floatComparison(String cmp) throws Unsupported {
        return switch (cmp) {
            case "eq" -> (x, y) -> x == y;
            case "ne" -> (x, y) -> x != y && !Double.isNaN(x) && !Double.isNaN(y);
            case "lt" -> (x, y) -> x < y;
            case "le" -> (x, y) -> x <= y;
            case "gt" -> (x, y) -> x > y;
            case "ge" -> (x, y) -> x >= y;
            case "equ" -> (x, y) -> x == y || Double.isNaN(x) || Double.isNaN(y);
            case "neu" -> (x, y) -> x != y;
            case "ltu" -> (x, y) -> !(x >= y);
            case "leu" -> (x, y) -> !(x > y);
            case "gtu" -> (x, y) -> !(x <= y);
            case "geu" -> (x, y) -> !(x < y);
            case "num" -> (x, y) -> !Double.isNaN(x) && !Double.isNaN(y);
            case "nan" -> (x, y) -> Double.isNaN(x) || Double.isNaN(y);
            default -> throw ic.unsupported();
        };
    }

    Insn testp() throws ProgramException, Unsupported {
        PtxType t = ic.type();
        if (ic.mods.size() < 2) {
            // no class (the ISA requires one): ptxas 13 accepts it and leaves the predicate as it was
            return ic.simple(th -> { });
        }
        String what = ic.mods.get(0);
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), t);
        boolean f32 = t == PtxType.F32;
        return ic.simple(th -> {
            double x = f32 ? f32(a.get(th)) : f64(a.get(th));
            boolean sub = x != 0 && Math.abs(x) < (f32 ? Float.MIN_NORMAL : Double.MIN_NORMAL);
            boolean r = switch (what) {
                case "finite" -> !Double.isNaN(x) && !Double.isInfinite(x);
                case "infinite" -> Double.isInfinite(x);
                case "number" -> !Double.isNaN(x);
                case "notanumber" -> Double.isNaN(x);
                // "as a special case, positive and negative zero are considered normal numbers" (PTX ISA)
                case "normal" -> !Double.isNaN(x) && !Double.isInfinite(x) && !sub;
                case "subnormal" -> sub;
                default -> throw new InterpreterError("unsupported testp." + what);
            };
            write(th, d, r ? 1 : 0);
        });
    }

    /** set.CmpOp{.BoolOp}.dtype.stype: all ones (integer) or 1.0f for true. */
    Insn set() throws ProgramException, Unsupported {
        if (ic.types.size() < 2) {
            throw ic.unsupported();
        }
        PtxType dt = ic.types.get(0), st = ic.types.get(1);
        String bool = ic.mods.contains("and") ? "and" : ic.mods.contains("or") ? "or" : ic.mods.contains("xor") ? "xor" : null;
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), st), b = ic.src(ic.op(2), st);
        if (st == PtxType.F16X2 || st == PtxType.BF16X2) {
            Operand co = bool != null ? ic.op(3) : null;
            boolean cNeg = co instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT;
            Src c = co == null ? null : ic.src(cNeg ? ((Expr.Unary) co).operand() : co, PtxType.PRED);
            return ic.simple(HalfPairCompare.set(new HalfPairCompare.Sources(a, b, c, cNeg, bool, ic.has("ftz"),
                    comparison(ic.mods.get(0), pairLane(st))), dt, d));
        }
        Compare compare = comparison(ic.mods.get(0), st);
        Src c = bool != null ? ic.src(ic.op(3), PtxType.PRED) : null;
        // true: 1.0 in a floating destination's own format (f16 0x3c00, bf16 0x3f80: PTX ISA, half set), else all ones
        long yes = switch (dt) {
            case F32 -> Float.floatToRawIntBits(1.0f) & 0xffffffffL;
            case F16 -> 0x3c00;
            case BF16 -> 0x3f80;
            default -> 0xffffffffL;
        };
        boolean ftz = ic.has("ftz") && st == PtxType.F32, ftzHalf = ic.has("ftz") && st == PtxType.F16;
        return ic.simple(th -> {
            long x = a.get(th), y = b.get(th);
            if (ftz) { // as setp: subnormal f32 sources compare as zeros of their sign
                x = Float.floatToRawIntBits(Ieee.ftz(f32(x))) & 0xffffffffL;
                y = Float.floatToRawIntBits(Ieee.ftz(f32(y))) & 0xffffffffL;
            } else if (ftzHalf) {
                x = ftzHalf(x);
                y = ftzHalf(y);
            }
            boolean r = compare.test(x, y);
            if (bool != null) {
                r = combine(bool, r, c.get(th) != 0);
            }
            write(th, d, r ? yes : 0);
        });
    }

    Insn slct() throws ProgramException, Unsupported {
        if (ic.types.size() < 2) {
            throw ic.unsupported();
        }
        PtxType dt = ic.types.get(0), ct = ic.types.get(1);
        int d = ic.dst(ic.op(0));
        Src a = ic.src(ic.op(1), dt), b = ic.src(ic.op(2), dt), c = ic.src(ic.op(3), ct);
        if (ct == PtxType.F32) {
            // .ftz: a subnormal c is a zero of its sign, and -0 >= 0
            boolean ftz = ic.has("ftz");
            return ic.simple(th -> {
                float x = f32(c.get(th));
                write(th, d, (ftz ? Ieee.ftz(x) : x) >= 0 ? a.get(th) : b.get(th));
            });
        }
        return ic.simple(th -> write(th, d, (int) c.get(th) >= 0 ? a.get(th) : b.get(th)));
    }
}
