package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * The {@code membermask} of the {@code .sync} warp instructions. A mask known to be the full warp needs nothing;
 * any other mask gets a {@code WARPSYNC mask} before the warp instruction, which waits for the named lanes to
 * converge. (ptxas 13 omits it in code it proves convergent, and in divergent code branches with
 * {@code BRA.DIV} to a {@code WARPSYNC.COLLECTIVE} copy of the instruction, on sm_75/sm_80 calling its
 * {@code __cuda_sm70_warpsync} helper; the plain WARPSYNC is the simple always-correct form.)
 */
final class WarpMasks {
    private WarpMasks() {}

    /** Whether {@code mask} is the literal full mask ({@code -1} or {@code 0xffffffff}). */
    static boolean isFull(Operand mask) {
        Long c = mask == null ? null : SyncOperands.constant(null, mask, PtxType.B32);
        return mask == null || c != null && c == SyncOperands.FULL_MASK;
    }

    /** The mask as a source (register or immediate). */
    static Src mask(LoweringContext cx, Operand mask) {
        return cx.src(mask, PtxType.B32);
    }

    /** Emits {@code WARPSYNC mask} unless the mask is the full warp ({@code exclusive}: only those lanes run on). */
    static void syncIfPartial(LoweringContext cx, Operand mask, boolean exclusive) {
        if (!isFull(mask)) {
            cx.emit("WARPSYNC", exclusive ? List.of("EXCLUSIVE") : List.of(), List.of(), List.of(mask(cx, mask)));
        }
    }

    /** {@code bar.warp.sync mask}: always a WARPSYNC (the full mask as {@code WARPSYNC 0xffffffff}). */
    static void warpSync(LoweringContext cx, Operand mask) {
        Src m = mask(cx, mask);
        if (m.value() instanceof Imm imm) {
            m = Src.of(new Imm(imm.bits() & SyncOperands.FULL_MASK));
        }
        cx.emit("WARPSYNC", List.of(), List.of(), List.of(m));
    }

    /** {@code value & mask} for results that must not name lanes outside a partial member mask. */
    static Reg restrict(LoweringContext cx, Reg value, Operand mask) {
        if (isFull(mask)) {
            return value;
        }
        Reg r = cx.newReg(RegFile.R, 1);
        cx.emit("LOP3", List.of("LUT"), List.of(Reg.PT, r),
                List.of(Src.of(value), mask(cx, mask), Src.of(Reg.RZ), Src.of(new Imm(0xc0)), Src.of(Reg.PT).inverted()));
        return r;
    }
}
