package org.jptxas.ori.target;

/**
 * The named properties of a target that shared code asks about instead of comparing SM numbers. A backend's target
 * description lists the ones its target has ({@code features} in its JSON).
 */
public enum TargetFeature {
    /** Uniform registers and predicates (UR, UP) and the uniform datapath's instructions (S2UR, ULDC, U-ops). */
    UNIFORM_DATAPATH,
    /** ALU instructions read constant-bank operands directly; without it they read them through ULDC'd UR. */
    ALU_READS_CONSTANT_BANK,
    /** Global and generic {@code .E} accesses read a 64-bit memory descriptor from a UR pair (sm_80 … sm_89). */
    GLOBAL_DESCRIPTOR_IN_UR,
    /** A convergence barrier register is cleared ({@code BMOV.32.CLEAR}) before its {@code BSSY}, as ptxas does on sm_75. */
    CLEAR_BARRIER_BEFORE_BSSY,
    /**
     * Global and generic loads and atomics without a {@code desc[]} operand read the uniform pair named in bits
     * [37:32] (sm_75 … sm_89; on sm_90 those bits mean something else).
     */
    UR_IN_GLOBAL_ADDRESS_BITS,
    /** Global-memory accesses name the memory descriptor as an operand, {@code desc[UR4][R2.64]} (sm_90). */
    GLOBAL_DESCRIPTOR_OPERAND,
    /**
     * Warp-synchronous instructions re-join a divergent warp with {@code WARPSYNC.ALL} rather than a convergence
     * region, and the full-warp {@code WARPSYNC} is {@code WARPSYNC.ALL} (sm_90).
     */
    WARPSYNC_ALL,
    /** {@code LEPC} names the return point of a system call ({@code LEPC R20, `(label)}) instead of adding to its own PC. */
    LEPC_NAMES_RETURN_POINT,
    /** A device function with a convergence barrier records {@code CRS_STACK_SIZE} 0 (ptxas does, except on sm_80/86). */
    CRS_STACK_ZERO_WITH_BSSY,
    /** REDUX: a 32-bit integer reduction across the warp into a uniform register (Ampere and later). */
    WARP_REDUX,
    /**
     * Texture instructions take their handle in a uniform register pair ({@code TEX.LL ..., UR4, 0x0, 2D}, sm_90)
     * rather than as a constant-bank offset in the instruction ({@code TEX.SCR.LL ..., 0x0, 0x5c, 2D}).
     */
    TEXTURE_HANDLE_IN_UR,
    /** {@code HMMA.16816}: an f16 multiply of k = 16 in one instruction (Ampere and later; Turing issues two HMMA.1688). */
    HMMA_16816,
    /**
     * {@code HMMA.884.*.STEPn}: Volta's quad-pair multiply m8n8k4 in hardware (Turing). Later targets lack it, and
     * ptxas computes {@code mma.m8n8k4} with f16 inputs on the FMA pipe there.
     */
    QUAD_PAIR_HMMA,
    /**
     * {@code IMMA} with 4-bit inputs ({@code IMMA.8832.S4.S4} from Turing, {@code IMMA.16864}/{@code IMMA.16832}
     * {@code .S4}/{@code .U4} from Ampere). Hopper lacks it: ptxas widens s4/u4 multiplies to 8-bit IMMA there.
     */
    INT4_IMMA,
    /**
     * {@code BMMA ... .XOR.POPC}: the binary multiply with XOR (Turing to Ada). Hopper's BMMA has only {@code .AND.POPC};
     * ptxas computes {@code .xor.popc} there from two AND multiplies of inverted operands.
     */
    BINARY_MMA_XOR,
    /**
     * {@code QMMA.16832}: the warp-level fp8 multiply (e4m3/e5m2 inputs, f32 or f16 accumulators) of Ada. Hopper has
     * none: ptxas unpacks the bytes to f16 there (F2FP.F16.E4M3.UNPACK_B) and runs two HMMA.16816 per multiply.
     */
    FP8_MMA,
    /**
     * A shared variable's address carries the block's cluster rank in its top byte ({@code (SR_CgaCtaId << 24) +
     * offset}, sm_90), so that it stays valid as a {@code shared::cluster} or generic address, and a generic shared
     * address is the shared address under the window's high word ({@code SR_SWINHI}).
     */
    CLUSTER_RANK_IN_SHARED_ADDRESS,
    /**
     * {@code F2FP.SATFINITE}: the f32-to-f16 pack clamps an overflow to the largest finite half itself (Ampere and
     * later). Turing's ptxas writes a form nvdisasm 12.5 cannot print, so a saturating-finite cvt is computed there.
     */
    F2FP_SATFINITE,
    /**
     * {@code F2FP.PACK_AB Rd, Ra, Rb} rounds two f32 registers into one f16 pair (Ampere and later); Turing's packs
     * one ({@code F2FP.PACK_AB Rd, RZ, Rb}, printed F2F.F16.F32) and ptxas joins two such halves with a PRMT.
     */
    F2FP_PAIR,
    /**
     * {@code VOTE.ALL}/{@code .ANY}/{@code .EQ} write their predicate directly (Ampere and later). Turing's ptxas
     * computes {@code vote.all/any/uni} from a ballot compared with zero or the active mask.
     */
    PREDICATE_VOTE,
    /**
     * {@code MATCH.ALL} with its all-lanes-agree predicate (Ampere and later). Turing's ptxas computes
     * {@code match.all} as {@code MATCH.ANY} compared with the active mask.
     */
    MATCH_ALL,
    /**
     * {@code CGAERRBAR}: a fence at GPU or system scope waits for the cluster's outstanding memory errors too,
     * {@code ERRBAR} then {@code CGAERRBAR} (Hopper).
     */
    CLUSTER_ERROR_BARRIER,
    /**
     * {@code SR_VIRTCFG} holds the warps per SM, and {@code %nwarpid} is read from its bits [15:8] (Hopper); elsewhere
     * ptxas writes the constant 64.
     */
    NWARPID_IN_VIRTCFG,
    /**
     * {@code SYNCS}: {@code mbarrier} objects with transaction counts in hardware ({@code SYNCS.ARRIVE.TRANS64},
     * {@code SYNCS.PHASECHK.TRANS64}, Hopper). Without it ptxas builds mbarrier from shared-memory atomics, which
     * is not generated here.
     */
    TRANSACTION_BARRIERS
}
