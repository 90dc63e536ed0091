package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.lower.MemoryOrdering.Scope;
import org.jptxas.frontend.ptx.lower.MemoryOrdering.Semantics;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;

/**
 * Vector {@code atom}/{@code red} (sm_90: {@code .v2/.v4} f32 add; {@code .v2/.v4/.v8} f16/bf16 and {@code .v2/.v4}
 * f16x2/bf16x2 add, min, max) as ptxas 13 writes them: one access of the whole vector on a register tuple,
 * {@code ATOMG.E.ADD.F32x4.FTZ.RN.STRONG.GPU PT, Rd, desc[UR][Ra.64+off], Rb} (global), {@code REDG.E...} (global red),
 * {@code ATOM.E...} (generic, red into RZ). The lane count is the vector's bytes in 16-bit lanes for the half types
 * ({@code F16x4}, {@code BF16x8}) and in f32 elements for f32 ({@code F32x2}).
 */
final class VectorAtomics {
    private VectorAtomics() {
    }

    static void lower(Instruction insn, LoweringContext cx, boolean red, String op, PtxType type)
            throws CompilationException {
        int vec = SyncOperands.hasAny(insn, "v8") ? 8 : SyncOperands.hasAny(insn, "v4") ? 4 : 2;
        boolean half = type == PtxType.F16 || type == PtxType.BF16 || type == PtxType.F16X2 || type == PtxType.BF16X2;
        boolean f32 = type == PtxType.F32;
        int bytes = vec * type.sizeBytes();
        if (!(half && List.of("add", "min", "max").contains(op) || f32 && op.equals("add")) || bytes > 16
                || SyncOperands.hasAny(insn, "shared", "shared::cta", "shared::cluster")) {
            throw cx.unsupported("vector atomics");
        }
        List<String> mods = new ArrayList<>(List.of("E", op.toUpperCase()));
        if (f32) {
            mods.addAll(List.of("F32x" + vec, "FTZ", "RN"));
        } else {
            boolean bf16 = type == PtxType.BF16 || type == PtxType.BF16X2;
            mods.addAll(List.of((bf16 ? "BF16x" : "F16x") + bytes / 2, "RN"));
        }
        Scope scope = MemoryOrdering.scope(insn);
        mods.add("STRONG");
        mods.add(scope.atomic);
        boolean global = insn.hasModifier("global");

        List<Operand> ops = insn.operands();
        int i = 0;
        Operand dst = red ? null : ops.get(i++);
        Addr addr = cx.address((Operand.Address) ops.get(i++), StateSpace.GLOBAL);
        Src value = MemoryLowerer.storeValue(cx, ops.get(i++), type, vec, bytes);
        boolean cacheHint = insn.modifiers().stream().anyMatch(m -> m.startsWith("L2::") && m.contains("cache_hint"));
        Reg policy = cacheHint && i < ops.size() ? MemoryLowerer.uniformPolicy(cx, ops.get(i)) : null;
        List<Src> sources = new ArrayList<>(List.of(Src.of(addr), value));
        if (policy != null) {
            sources.add(Src.of(policy));
        }
        Semantics sem = MemoryOrdering.semantics(insn);
        if (MemoryOrdering.releases(sem)) {
            MemoryOrdering.releaseFence(cx, scope);
        }
        Reg tuple = red ? null : cx.newReg(RegFile.R, Math.max(1, bytes / 4));
        if (red && global) {
            cx.emit("RED", mods, List.of(), sources);
        } else {
            cx.emit(global ? "ATOMG" : "ATOM", mods, List.of(Reg.PT, red ? Reg.RZ : tuple), sources);
        }
        if (!red) {
            MemoryLowerer.distribute(cx, tuple, dst, type, vec);
            if (MemoryOrdering.acquires(sem)) {
                MemoryOrdering.acquireFence(cx, scope);
            }
        }
    }
}
