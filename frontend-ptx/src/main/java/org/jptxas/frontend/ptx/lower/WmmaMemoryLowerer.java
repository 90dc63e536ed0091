package org.jptxas.frontend.ptx.lower;

import static org.jptxas.frontend.ptx.lower.Fragments.elements;
import static org.jptxas.frontend.ptx.lower.Fragments.part;
import static org.jptxas.frontend.ptx.lower.Fragments.registers;
import static org.jptxas.frontend.ptx.lower.Fragments.tuple;

import com.google.auto.service.AutoService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.isa.WmmaFragment;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.ir.SpecialReg;

/**
 * {@code wmma.load.{a,b,c}} and {@code wmma.store.d} of the {@link WmmaFragment}s, as ptxas writes them: each lane's
 * first element at {@code (lane / 4) * X + (lane % 4) * Y} elements from the address (X, Y the stride or a constant,
 * as the layout places the fragment), one access per register ({@code LDG/LD/LDS}, or a 64-bit one for two f32
 * accumulator registers side by side in memory), the registers 8 rows or columns apart at
 * {@code IMAD.WIDE.U32 stride, 8 * size, address} when the stride is a register, and immediate offsets otherwise. An
 * f16 fragment whose pairs lie across the memory layout (A column-major, B row-major, C/D column-major) is read as
 * the transposed 8 x 8 blocks and turned with {@code MOVM.16.MT88} (before the store when writing); an 8-bit one
 * byte by byte ({@code .U8}), the four bytes joined by two shift-adds and a {@code PRMT 0x5410}. Sub-byte fragments
 * (s4/u4, b1) are addressed in 32-bit words, their stride in elements rounded down to whole words (a register
 * stride shifted right), as ptxas does. f64 registers are 64-bit accesses (128-bit for two side by side). ptxas reads an
 * f16 A or B fragment from shared memory with {@code LDSM}; this lowering uses {@code LDS} (+ {@code MOVM}), the same
 * values.
 */
@AutoService(InstructionLowerer.class)
public final class WmmaMemoryLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("wmma.load", "wmma.store");
    }

    /**
     * One memory access: registers {@code first} (and {@code first + 1} when {@code pair}), element offset
     * {@code strides * stride + elements} of the lane's first element.
     */
    record Access(int first, boolean pair, long strides, long elements) {}

    /**
     * How a fragment is accessed: the lane's offset {@code (lane / 4) * (uStrides * stride + uElements) + (lane % 4) *
     * (vStrides * stride + vElements)}, whether its 8 x 8 blocks are transposed, and the accesses.
     */
    record Plan(int uStrides, int uElements, int vStrides, int vElements, boolean transposed, List<Access> accesses) {
        /** Whether the fragment is 8-bit and read across its layout, a byte at a time. */
        boolean bytewise(WmmaFragment f) {
            return transposed && f.elementsPerRegister() == 4;
        }
    }

    /**
     * The offset of element {@code e} of register {@code reg} for {@code stride}, in the units the accesses count:
     * elements, or 32-bit words for sub-byte fragments ({@code stride} in words too).
     */
    static long units(WmmaFragment f, int lane, int reg, int e, long stride) {
        int scale = unitElements(f);
        return f.offset(lane, reg, e, stride * scale) / scale;
    }

    /** Elements per addressing unit: the elements of a word for sub-byte fragments, else 1. */
    private static int unitElements(WmmaFragment f) {
        return f.element().bits() < 8 ? f.elementsPerRegister() : 1;
    }

    static Plan plan(WmmaFragment f) {
        int n = f.distinctRegisters();
        boolean transposed = f.element().bits() >= 8 && f.elementsPerRegister() > 1 && f.offset(0, 0, 1, 0) != 1;
        int[] pattern = transposed && f.elementsPerRegister() == 2 ? new int[] {1, 0, 0, 2} : lanePattern(f);
        List<Access> accesses = new ArrayList<>();
        for (int r = 0; r < n; r++) {
            long strides = units(f, 0, r, 0, 1) - units(f, 0, r, 0, 0), elements = units(f, 0, r, 0, 0);
            if (transposed) { // the block's origin in memory, read in memory's own orientation
                accesses.add(new Access(r, false, strides, elements));
                continue;
            }
            boolean pair = f.elementsPerRegister() == 1 && r % 2 == 0 && r + 1 < n && adjacent(f, r);
            accesses.add(new Access(r, pair, strides, elements));
            if (pair) {
                r++;
            }
        }
        return new Plan(pattern[0], pattern[1], pattern[2], pattern[3], transposed, accesses);
    }

    /** The lane's first-element offset as {@code {uStrides, uElements, vStrides, vElements}}. */
    private static int[] lanePattern(WmmaFragment f) {
        long u0 = units(f, 4, 0, 0, 0) - units(f, 0, 0, 0, 0), u1 = units(f, 4, 0, 0, 1) - units(f, 0, 0, 0, 1);
        long v0 = units(f, 1, 0, 0, 0) - units(f, 0, 0, 0, 0), v1 = units(f, 1, 0, 0, 1) - units(f, 0, 0, 0, 1);
        return new int[] {(int) (u1 - u0), (int) u0, (int) (v1 - v0), (int) v0};
    }

    /** Whether register {@code r + 1}'s element follows register {@code r}'s in memory for every lane and stride. */
    private static boolean adjacent(WmmaFragment f, int r) {
        for (int lane = 0; lane < 32; lane++) {
            for (long s = 0; s < 2; s++) {
                if (units(f, lane, r + 1, 0, s) != units(f, lane, r, 0, s) + 1) {
                    return false;
                }
            }
        }
        return true;
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        WmmaFragment f = WmmaFragment.of(insn.modifiers());
        if (f == null) {
            throw cx.unsupported("this shape, layout or type");
        }
        List<Operand> ops = insn.operands();
        if (ops.size() != 2 && ops.size() != 3) {
            throw cx.unsupported("operand count");
        }
        Operand fragment = ops.get(f.load() ? 0 : 1);
        if (elements(fragment).size() != f.registers()) {
            throw cx.unsupported("fragment of " + elements(fragment).size() + " registers");
        }
        StateSpace space = switch (f.space()) {
            case "global" -> StateSpace.GLOBAL;
            case "shared" -> StateSpace.SHARED;
            default -> null;
        };
        Addr addr = cx.address((Operand.Address) ops.get(f.load() ? 1 : 0), space);
        boolean wide = space != StateSpace.SHARED;
        if (wide && !addr.wide()) {
            throw cx.unsupported("a 32-bit address");
        }
        Src stride = ops.size() == 3 ? cx.srcAllowingConstant(ops.get(2), PtxType.U32) : null;
        Long fixed = stride == null ? Long.valueOf(f.defaultStride())
                : stride.value() instanceof org.jptxas.ori.ir.Imm i ? Long.valueOf(i.bits() & 0xffffffffL) : null;
        Plan p = plan(f);
        MathEmitter m = new MathEmitter(cx);
        int scale = unitElements(f);
        int size = scale > 1 ? 4 : f.element().bytes();
        if (scale > 1 && fixed != null) {
            fixed /= scale;
        } else if (scale > 1) { // the stride in whole words
            Reg words = m.r();
            m.shf("R.U32.HI", words, MathEmitter.RZ, Integer.numberOfTrailingZeros(scale), stride);
            stride = Src.of(words);
        }
        Reg lane = m.r();
        cx.emit("S2R", List.of(), List.of(lane), List.of(Src.of(new SpecialReg("SR_LANEID"))));
        Reg u = m.r(), v = m.r();
        m.shf("R.U32.HI", u, MathEmitter.RZ, 2, lane);
        m.lop3(v, lane, 3, MathEmitter.RZ, 0xc0);
        Reg vTerm = m.r(), laneOffset = m.r();
        m.imad(vTerm, v, coefficient(m, p.vStrides(), p.vElements(), fixed, stride), MathEmitter.RZ);
        m.imad(laneOffset, u, coefficient(m, p.uStrides(), p.uElements(), fixed, stride), vTerm);
        Reg first = wide ? m.r2() : m.r();
        if (wide) {
            cx.emit("IMAD_WIDE", List.of("U32"), List.of(first),
                    List.of(Src.of(laneOffset), Ptx.imm(size), Src.of(addr.base())));
        } else {
            m.imad(first, laneOffset, size, addr.base().isZero() ? MathEmitter.RZ : addr.base());
        }
        TreeMap<Long, Reg> rowBases = new TreeMap<>(); // stride multiples -> address, for a register stride
        rowBases.put(0L, first);
        List<Operand> els = elements(fragment);
        List<Src> values = f.load() ? null : f.wideRegisters() ? wideRegisters(cx, els) : registers(cx, fragment, f.registers());
        String op = space == StateSpace.GLOBAL ? (f.load() ? "LDG" : "STG")
                : space == StateSpace.SHARED ? (f.load() ? "LDS" : "STS") : (f.load() ? "LD" : "ST");
        Src strideWords = stride;
        java.util.function.LongFunction<Reg> rowBase = strides -> strides == 0 ? first
                : rowBases.computeIfAbsent(strides, k -> {
                    Reg b = wide ? m.r2() : m.r();
                    if (wide) {
                        cx.emit("IMAD_WIDE", List.of("U32"), List.of(b),
                                List.of(strideWords, Ptx.imm(size * k), Src.of(first)));
                    } else {
                        m.imad(b, strideWords, (int) (size * k), first);
                    }
                    return b;
                });
        List<String> space0 = space != StateSpace.SHARED ? List.of("E") : List.of();
        PtxType registerType = f.wideRegisters() ? PtxType.B64 : PtxType.B32;
        for (Access a : p.accesses()) {
            if (p.bytewise(f)) {
                Reg word = loadBytes(cx, m, f, a.first(), op, space0, addr.offset(), fixed, rowBase, size);
                for (int r = a.first(); r < f.registers(); r += f.distinctRegisters()) {
                    if (!(els.get(r) instanceof Operand.Sink)) {
                        cx.emit("MOV", List.of(), List.of(cx.dst(els.get(r), PtxType.B32)), List.of(Src.of(word)));
                    }
                }
                continue;
            }
            long offset = addr.offset() + size * a.elements();
            Reg base = first;
            if (fixed != null) {
                offset += size * a.strides() * fixed;
            } else {
                base = rowBase.apply(a.strides());
            }
            int count = a.pair() ? 2 : 1, words = count * (f.wideRegisters() ? 2 : 1);
            List<String> mods = new ArrayList<>(space0);
            if (words > 1) {
                mods.add(Integer.toString(32 * words));
            }
            Addr at = Addr.of(base, offset);
            if (f.load()) {
                Reg t = cx.newReg(RegFile.R, words);
                cx.emit(op, mods, List.of(t), List.of(Src.of(at)));
                for (int k = 0; k < count; k++) {
                    Reg value = part(t, k);
                    if (p.transposed()) {
                        value = m.r();
                        cx.emit("MOVM", List.of("16", "MT88"), List.of(value), List.of(Src.of(part(t, k))));
                    }
                    for (int r = a.first() + k; r < f.registers(); r += f.distinctRegisters()) {
                        if (els.get(r) instanceof Operand.Sink) {
                            continue;
                        }
                        Reg d = cx.dst(els.get(r), registerType);
                        if (f.wideRegisters()) {
                            for (int h = 0; h < 2; h++) {
                                cx.emit("MOV", List.of(), List.of(d.component(h)), List.of(Src.of(t.component(2 * k + h))));
                            }
                        } else {
                            cx.emit("MOV", List.of(), List.of(d), List.of(Src.of(value)));
                        }
                    }
                }
            } else {
                Reg t;
                if (p.transposed()) {
                    t = m.r();
                    cx.emit("MOVM", List.of("16", "MT88"), List.of(t), List.of(Src.of(tuple(cx, List.of(values.get(a.first()))))));
                } else if (f.wideRegisters()) {
                    t = cx.newReg(RegFile.R, words);
                    for (int k = 0; k < count; k++) {
                        Src value = values.get(a.first() + k);
                        cx.emit("MOV", List.of(), List.of(t.component(2 * k)), List.of(Ptx.lo(value)));
                        cx.emit("MOV", List.of(), List.of(t.component(2 * k + 1)), List.of(Ptx.hi(value)));
                    }
                } else {
                    t = tuple(cx, values.subList(a.first(), a.first() + count));
                }
                cx.emit(op, mods, List.of(), List.of(Src.of(at), Src.of(t)));
            }
        }
    }

    /** An f64 fragment's registers as 64-bit sources. */
    private static List<Src> wideRegisters(LoweringContext cx, List<Operand> els) throws CompilationException {
        List<Src> l = new ArrayList<>();
        for (Operand e : els) {
            l.add(cx.src(e, PtxType.B64));
        }
        return l;
    }

    /**
     * Register {@code reg} of an 8-bit fragment read across its layout: its four bytes loaded on their own
     * ({@code .U8}), joined as ptxas does: {@code b0 + (b1 << 8)}, {@code b2 + (b3 << 8)}, then {@code PRMT 0x5410}.
     */
    private static Reg loadBytes(LoweringContext cx, MathEmitter m, WmmaFragment f, int reg, String op,
            List<String> space, long addrOffset, Long fixed, java.util.function.LongFunction<Reg> rowBase, int size) {
        Reg[] bytes = new Reg[4];
        for (int e = 0; e < 4; e++) {
            long strides = units(f, 0, reg, e, 1) - units(f, 0, reg, e, 0), offset = addrOffset + size * units(f, 0, reg, e, 0);
            Reg base = rowBase.apply(0);
            if (fixed != null) {
                offset += size * strides * fixed;
            } else {
                base = rowBase.apply(strides);
            }
            bytes[e] = m.r();
            List<String> mods = new ArrayList<>(space);
            mods.add("U8");
            cx.emit(op, mods, List.of(bytes[e]), List.of(Src.of(Addr.of(base, offset))));
        }
        Reg low = m.r(), high = m.r(), word = m.r();
        m.lea(low, bytes[1], bytes[0], 8);
        m.lea(high, bytes[3], bytes[2], 8);
        m.op("PRMT", "", word, low, 0x5410, high);
        return word;
    }

    /** {@code strides * stride + elements} as an operand: an immediate for a known stride, else a register. */
    private static Object coefficient(MathEmitter m, int strides, int elements, Long fixed, Src stride) {
        if (fixed != null) {
            return (int) (strides * fixed + elements);
        }
        if (strides == 0) {
            return elements;
        }
        Reg r = m.r();
        m.imad(r, stride, strides, elements == 0 ? MathEmitter.RZ : m.imm(elements));
        return r;
    }
}
