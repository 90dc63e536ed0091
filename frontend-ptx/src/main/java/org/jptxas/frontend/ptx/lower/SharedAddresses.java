package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Block;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Statement;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TargetFeature;

/**
 * Shared-variable addresses where they carry the block's cluster rank
 * ({@link TargetFeature#CLUSTER_RANK_IN_SHARED_ADDRESS}, sm_90): ptxas 13 forms a shared variable's address as
 * {@code LEA d, SR_CgaCtaId, offset, 0x18}, so the same value names the executing block when it is used as a
 * {@code shared::cluster} address ({@code ld.shared::cluster}, {@code getctarank}) or turned generic
 * ({@code cvta.shared}: the shared address under {@code SR_SWINHI}); a bare window offset would name the block of
 * rank 0. Plain {@code ld/st.shared} accept either form, so a function whose shared addresses cannot reach such a use
 * ({@link #mayEscape}) keeps the bare offsets. Values are computed unguarded (fresh registers), as the other address
 * values are.
 */
final class SharedAddresses {
    private SharedAddresses() {
    }

    /** Whether {@code cx}'s target puts the cluster rank into shared addresses. */
    static boolean rankInAddress(LoweringContext cx) {
        return cx.profile().has(TargetFeature.CLUSTER_RANK_IN_SHARED_ADDRESS);
    }

    /**
     * Whether a shared address in {@code body} may be used other than by {@code .shared} accesses, where the rank
     * matters: made generic ({@code cvta.shared}), taken apart ({@code getctarank}, {@code mapa}), used as a
     * {@code shared::cluster} address, or passed to a function that is called (its body is not seen here). Without
     * any, variables keep their bare window offsets (the rank changes nothing for {@code LDS}/{@code STS}, and the
     * offsets fold into the accesses' immediates).
     */
    static boolean mayEscape(Block body) {
        for (Statement s : body.statements()) {
            if (s instanceof Block b ? mayEscape(b) : s instanceof Instruction in && escapes(in)) {
                return true;
            }
        }
        return false;
    }

    private static boolean escapes(Instruction in) {
        return switch (in.opcode()) {
            case "cvta" -> in.hasModifier("shared") && !in.hasModifier("to");
            case "getctarank", "mapa", "call" -> true;
            default -> in.modifiers().stream().anyMatch(m -> m.contains("shared::cluster"));
        };
    }

    /** The 32-bit shared address of window offset {@code offset} of the executing block: {@code (rank << 24) + offset}. */
    static Reg ofOffset(LoweringContext cx, long offset) {
        Reg rank = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("S2R", List.of(), List.of(rank), List.of(Src.of(new SpecialReg("SR_CgaCtaId"))));
        Reg base = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("MOV", List.of(), List.of(base), List.of(Src.of(Imm.ofInt((int) offset))));
        Reg d = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("LEA", List.of(), List.of(d, Reg.PT),
                List.of(Src.of(rank), Src.of(base), Src.of(Imm.ofInt(24))));
        return d;
    }

    /** The generic address of the shared address {@code shared}: the window's high word above it. */
    static Reg generic(LoweringContext cx, Src shared) {
        Reg hi = cx.newReg(RegFile.R, 1);
        cx.emitUnguarded("S2R", List.of(), List.of(hi), List.of(Src.of(new SpecialReg("SR_SWINHI"))));
        Reg pair = cx.newReg(RegFile.R, 2);
        cx.emitUnguarded("MOV", List.of(), List.of(pair.component(0)), List.of(shared));
        cx.emitUnguarded("MOV", List.of(), List.of(pair.component(1)), List.of(Src.of(hi)));
        return pair;
    }
}
