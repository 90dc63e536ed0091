package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.ori.target.TargetFeature;

/**
 * PTX memory-consistency qualifiers ({@code .sem}, {@code .scope}) and the fences ptxas emits for them.
 *
 * <p>What ptxas 13 -O3 emits (sm_75, sm_80, sm_90 alike unless noted):
 * <ul>
 *   <li>release (or acq_rel) before the access: {@code MEMBAR.ALL.CTA} for .cta; {@code MEMBAR.ALL.GPU; ERRBAR}
 *       for .gpu and {@code MEMBAR.ALL.SYS; ERRBAR} for .sys, sm_90 adding {@code CGAERRBAR} after the ERRBAR;</li>
 *   <li>acquire (or acq_rel) after the access: {@code CCTL.IVALL} for .gpu and .sys, nothing for .cta;</li>
 *   <li>{@code fence.sc}/{@code membar}: {@code MEMBAR.SC.<scope>}, {@code fence.acq_rel}: {@code MEMBAR.ALL.<scope>},
 *       followed for .gpu/.sys by {@code ERRBAR} (+ {@code CGAERRBAR} on sm_90) and {@code CCTL.IVALL}.</li>
 * </ul>
 */
final class MemoryOrdering {
    /** The scope of an access or fence; {@code .cluster} is served as the GPU scope (a superset). */
    enum Scope {
        CTA("CTA", "SM"), GPU("GPU", "GPU"), SYS("SYS", "SYS");

        /** The MEMBAR modifier. */
        final String membar;
        /** The scope modifier of a strong atomic as nvdisasm prints it for sm_80 ({@code .STRONG.SM}). */
        final String atomic;

        Scope(String membar, String atomic) {
            this.membar = membar;
            this.atomic = atomic;
        }
    }

    enum Semantics { RELAXED, ACQUIRE, RELEASE, ACQ_REL, SC }

    private MemoryOrdering() {}

    static Scope scope(Instruction insn) {
        if (insn.hasModifier("cta")) {
            return Scope.CTA;
        }
        if (insn.hasModifier("sys")) {
            return Scope.SYS;
        }
        return Scope.GPU;
    }

    static Semantics semantics(Instruction insn) {
        if (insn.hasModifier("acq_rel")) {
            return Semantics.ACQ_REL;
        }
        if (insn.hasModifier("acquire")) {
            return Semantics.ACQUIRE;
        }
        if (insn.hasModifier("release")) {
            return Semantics.RELEASE;
        }
        if (insn.hasModifier("sc")) {
            return Semantics.SC;
        }
        return Semantics.RELAXED;
    }

    static boolean releases(Semantics s) {
        return s == Semantics.RELEASE || s == Semantics.ACQ_REL;
    }

    static boolean acquires(Semantics s) {
        return s == Semantics.ACQUIRE || s == Semantics.ACQ_REL;
    }

    /** The fence before a release access. */
    static void releaseFence(LoweringContext cx, Scope scope) {
        cx.emit("MEMBAR", List.of("ALL", scope.membar), List.of(), List.of());
        if (scope != Scope.CTA) {
            errorBarrier(cx);
        }
    }

    /** The cache invalidation after an acquire access. */
    static void acquireFence(LoweringContext cx, Scope scope) {
        if (scope != Scope.CTA) {
            cx.emit("CCTL", List.of("IVALL"), List.of(), List.of());
        }
    }

    /** {@code membar.*} / {@code fence.sc.*} ({@code sequential}) or {@code fence.acq_rel.*}. */
    static void fence(LoweringContext cx, Scope scope, boolean sequential) {
        cx.emit("MEMBAR", List.of(sequential ? "SC" : "ALL", scope.membar), List.of(), List.of());
        if (scope != Scope.CTA) {
            errorBarrier(cx);
            cx.emit("CCTL", List.of("IVALL"), List.of(), List.of());
        }
    }

    private static void errorBarrier(LoweringContext cx) {
        cx.emit("ERRBAR", List.of(), List.of(), List.of());
        if (cx.profile().has(TargetFeature.CLUSTER_ERROR_BARRIER)) {
            cx.emit("CGAERRBAR", List.of(), List.of(), List.of());
        }
    }
}
