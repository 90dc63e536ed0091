package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * {@code tensormap.replace.tile.<field>.shared::cta.b1024.b32|b64 [tmap], {ordinal,} value} (sm_90a): a
 * read-modify-write of the 128-byte tensor map in shared memory, as ptxas 13 writes it (LDS, a LOP3 bit-field
 * insert, STS). The layout, read off ptxas's code for each field with register and immediate values:
 * <pre>
 *   0x00 b64          global_address
 *   0x08 bits  4..6   rank                      bits 7..10 elemtype    bits 11..12 interleave_layout
 *        bits 13..14  swizzle_mode (also clears bit 22)                 bit 15 fill_mode
 *   0x0c + 4i         global_stride[i] >> 4, low 32 bits; its bits 32..35 in word 0x1c bits 4i..4i+3
 *   0x20 + 4i         global_dim[i] - 1
 *   0x34 bits 3i..    element_stride[i] - 1 (3 bits)
 *   byte 0x37 + i     box_dim[i] - 1
 * </pre>
 * Only the shared::cta tensor map is lowered (the global one is refused by name).
 */
@AutoService(InstructionLowerer.class)
public final class TensorMapLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("tensormap.replace");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (!cx.target().name().endsWith("a")) {
            throw cx.unsupported("tensormap.replace needs sm_90a");
        }
        if (!insn.hasModifier("shared::cta")) {
            throw cx.unsupported("tensormap.replace on a global tensor map");
        }
        List<Operand> ops = insn.operands();
        Addr map = cx.address((Operand.Address) ops.get(0), StateSpace.SHARED);
        String field = insn.modifiers().stream().filter(m -> FIELDS.contains(m)).findFirst()
                .orElseThrow(() -> cx.unsupported("tensormap.replace field"));
        int ordinal = 0;
        Operand value = ops.get(ops.size() - 1);
        if (ops.size() == 3) {
            if (!(cx.src(ops.get(1), PtxType.U32).value() instanceof Imm i) || i.bits() < 0 || i.bits() > 4) {
                throw cx.unsupported("tensormap.replace ordinal");
            }
            ordinal = (int) i.bits();
        }
        switch (field) {
            case "global_address" -> cx.emit("STS", List.of("64"), List.of(),
                    List.of(Src.of(map), cx.src(value, PtxType.B64)));
            case "global_dim" -> cx.emit("STS", List.of(), List.of(),
                    List.of(Src.of(at(map, 0x20 + 4 * ordinal)), Src.of(minusOne(cx, value))));
            case "global_stride" -> stride(cx, map, ordinal, value);
            case "rank" -> insert(cx, map, 0x08, 4, 3, Src.of(plain(cx, value)));
            case "elemtype" -> insert(cx, map, 0x08, 7, 4, Src.of(plain(cx, value)));
            case "interleave_layout" -> insert(cx, map, 0x08, 11, 2, Src.of(plain(cx, value)));
            case "fill_mode" -> insert(cx, map, 0x08, 15, 1, Src.of(plain(cx, value)));
            case "swizzle_mode" -> {
                Reg w = insertInto(cx, load(cx, map, 0x08), 13, 2, Src.of(plain(cx, value)));
                Reg cleared = Ptx.r32(cx);
                cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, cleared),
                        List.of(Src.of(w), Ptx.imm(0x400000), Ptx.rz(), Ptx.imm(0xb8), Ptx.notPt()));
                store(cx, map, 0x08, cleared);
            }
            case "element_stride" -> insert(cx, map, 0x34, 3 * ordinal, 3, Src.of(minusOne(cx, value)));
            case "box_dim" -> {
                int b = 0x37 + ordinal;
                insert(cx, map, b & ~3, 8 * (b & 3), 8, Src.of(minusOne(cx, value)));
            }
            default -> throw cx.unsupported("tensormap.replace ." + field);
        }
    }

    private static final Set<String> FIELDS = Set.of("global_address", "rank", "box_dim", "global_dim",
            "global_stride", "element_stride", "elemtype", "interleave_layout", "swizzle_mode", "fill_mode");

    /** global_stride[i] >> 4: the low 32 bits to word 0x0c + 4i, bits 32..35 to word 0x1c bits 4i..4i+3. */
    private static void stride(LoweringContext cx, Addr map, int i, Operand value) {
        Src v = cx.src(value, PtxType.B64);
        Reg pair = Ptx.isPair(v) ? (Reg) v.value() : null;
        Reg lo = Ptx.r32(cx);
        Reg hi = Ptx.r32(cx);
        if (pair == null) {
            long bits = ((Imm) v.value()).bits();
            cx.emit("MOV", List.of(), List.of(lo), List.of(Ptx.imm((bits >>> 4) & 0xffffffffL)));
            cx.emit("MOV", List.of(), List.of(hi), List.of(Ptx.imm((bits >>> 36) & 0xf)));
        } else {
            cx.emit("SHF", List.of("R", "U64"), List.of(lo),
                    List.of(Src.of(pair.component(0)), Ptx.imm(4), Src.of(pair.component(1))));
            cx.emit("SHF", List.of("R", "U32", "HI"), List.of(hi),
                    List.of(Ptx.rz(), Ptx.imm(4), Src.of(pair.component(1))));
        }
        cx.emit("STS", List.of(), List.of(), List.of(Src.of(at(map, 0x0c + 4 * i)), Src.of(lo)));
        insert(cx, map, 0x1c, 4 * i, 4, Src.of(hi));
    }

    private static Reg plain(LoweringContext cx, Operand value) {
        Src v = cx.src(value, PtxType.B32);
        if (v.value() instanceof Reg r) {
            return r;
        }
        Reg r = Ptx.r32(cx);
        cx.emit("MOV", List.of(), List.of(r), List.of(v));
        return r;
    }

    private static Reg minusOne(LoweringContext cx, Operand value) {
        Src v = cx.src(value, PtxType.B32);
        Reg r = Ptx.r32(cx);
        if (v.value() instanceof Imm i) {
            cx.emit("MOV", List.of(), List.of(r), List.of(Ptx.imm((i.bits() - 1) & 0xffffffffL)));
        } else {
            cx.emit("IADD3", List.of(), List.of(r, Reg.PT, Reg.PT), List.of(v, Ptx.imm(0xffffffffL), Ptx.rz()));
        }
        return r;
    }

    private static void insert(LoweringContext cx, Addr map, int word, int shift, int width, Src value) {
        store(cx, map, word, insertInto(cx, load(cx, map, word), shift, width, value));
    }

    /** {@code (w & ~mask) | ((value << shift) & mask)}. */
    private static Reg insertInto(LoweringContext cx, Reg w, int shift, int width, Src value) {
        long mask = ((1L << width) - 1) << shift;
        Src shifted = value;
        if (shift != 0) {
            Reg s = Ptx.r32(cx);
            cx.emit("SHF", List.of("L", "U32"), List.of(s), List.of(value, Ptx.imm(shift), Ptx.rz()));
            shifted = Src.of(s);
        }
        Reg out = Ptx.r32(cx);
        cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, out),
                List.of(Src.of(w), Ptx.imm(mask), shifted, Ptx.imm(0xb8), Ptx.notPt()));
        return out;
    }

    private static Reg load(LoweringContext cx, Addr map, int word) {
        Reg w = cx.newReg(RegFile.R, 1);
        cx.emit("LDS", List.of(), List.of(w), List.of(Src.of(at(map, word))));
        return w;
    }

    private static void store(LoweringContext cx, Addr map, int word, Reg w) {
        cx.emit("STS", List.of(), List.of(), List.of(Src.of(at(map, word)), Src.of(w)));
    }

    private static Addr at(Addr map, int offset) {
        return Addr.of(map.base(), map.offset() + offset);
    }
}
