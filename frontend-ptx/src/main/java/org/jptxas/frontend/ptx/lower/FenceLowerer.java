package org.jptxas.frontend.ptx.lower;

import com.google.auto.service.AutoService;
import java.util.List;
import java.util.Set;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.lower.MemoryOrdering.Scope;
import org.jptxas.ori.diag.CompilationException;

/**
 * {@code membar} and {@code fence}: {@code membar.cta/gl/sys} are {@code fence.sc} at CTA/GPU/system scope. As
 * ptxas 13 -O3 emits them: {@code MEMBAR.SC.<scope>} (sc) or {@code MEMBAR.ALL.<scope>} (acq_rel), then for the GPU
 * and system scopes {@code ERRBAR} (+ {@code CGAERRBAR} on sm_90) and {@code CCTL.IVALL}; {@code fence.acquire} is
 * the {@code CCTL.IVALL} alone, {@code fence.release} the MEMBAR.ALL and ERRBAR. {@code .cluster} scope is served as
 * GPU scope (ptxas does the same). {@code fence.proxy.alias} gets a system-scope fence (ptxas picks GPU or system
 * scope at run time from a driver constant). sm_90 {@code fence.proxy.async}: {@code MEMBAR.ALL.CTA/GPU;
 * FENCE.VIEW.ASYNC.S} ({@code .global}: {@code FENCE.VIEW.ASYNC.G}); {@code fence.proxy.tensormap::generic.release}
 * is a release fence; {@code fence.proxy.tensormap::generic.acquire [a], 128} waits for every scoreboard
 * ({@code DEPBAR {5,4,3,2,1,0}}) and drops the cached tensor map ({@code UTMACCTL.IV [UR]}, the address made uniform
 * by {@link UniformLoop}). {@code fence.mbarrier_init} emits nothing (ptxas 13: SYNCS.EXCH's init is ordered).
 */
@AutoService(InstructionLowerer.class)
public final class FenceLowerer implements InstructionLowerer {
    @Override
    public Set<String> opcodes() {
        return Set.of("membar", "fence");
    }

    @Override
    public void lower(Instruction insn, LoweringContext cx) throws CompilationException {
        if (insn.opcode().equals("membar")) {
            if (insn.hasModifier("proxy")) { // membar.proxy.alias, ptxas's twin of fence.proxy.alias
                MemoryOrdering.fence(cx, Scope.SYS, true);
                return;
            }
            Scope scope = insn.hasModifier("cta") ? Scope.CTA : insn.hasModifier("sys") ? Scope.SYS : Scope.GPU;
            MemoryOrdering.fence(cx, scope, true);
            return;
        }
        if (insn.hasModifier("proxy")) {
            if (insn.hasModifier("alias")) {
                MemoryOrdering.fence(cx, Scope.SYS, true);
                return;
            }
            if (insn.hasModifier("async")) {
                // ptxas: fence.proxy.async{.shared::cta} = MEMBAR.ALL.CTA (GPU when unqualified); FENCE.VIEW.ASYNC.S,
                // fence.proxy.async.global = FENCE.VIEW.ASYNC.G
                if (insn.hasModifier("global")) {
                    cx.emit("FENCE", List.of("VIEW", "ASYNC", "G"), List.of(), List.of());
                } else {
                    boolean cta = insn.hasModifier("shared::cta");
                    cx.emit("MEMBAR", List.of("ALL", cta ? "CTA" : "GPU"), List.of(), List.of());
                    cx.emit("FENCE", List.of("VIEW", "ASYNC", "S"), List.of(), List.of());
                }
                return;
            }
            if (insn.hasModifier("tensormap::generic") && insn.hasModifier("release")) {
                MemoryOrdering.releaseFence(cx, MemoryOrdering.scope(insn));
                return;
            }
            if (insn.hasModifier("tensormap::generic") && insn.hasModifier("acquire")
                    && insn.operands().size() == 2) {
                TensorMapCopyLowerer.acquire(cx, (Operand.Address) insn.operands().get(0));
                return;
            }
            throw cx.unsupported("proxy fences");
        }
        if (insn.hasModifier("mbarrier_init")) {
            return;
        }
        if (insn.hasModifier("op_restrict")) {
            throw cx.unsupported("mbarrier fences");
        }
        Scope scope = MemoryOrdering.scope(insn);
        switch (MemoryOrdering.semantics(insn)) {
            case ACQUIRE -> MemoryOrdering.acquireFence(cx, scope);
            case RELEASE -> MemoryOrdering.releaseFence(cx, scope);
            case ACQ_REL -> MemoryOrdering.fence(cx, scope, false);
            default -> MemoryOrdering.fence(cx, scope, true); // fence.sc and a bare fence
        }
    }
}
