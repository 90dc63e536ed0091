package org.jptxas.frontend.ptx.lower;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Instruction;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.ast.StateSpace;
import org.jptxas.frontend.ptx.check.ResolvedModule;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetProfile;

/**
 * What an {@link InstructionLowerer} sees while lowering one PTX instruction of one function: operand conversion,
 * fresh virtual registers, and an insertion point in the function's Ori.
 *
 * <p>The Ori emitted is SASS-level (see {@code docs/ori.md}): opcodes from {@code ori-opcodes.json}, modifiers as
 * nvdisasm prints them for sm_80, operands in SASS order, destinations first. Every instruction emitted by
 * {@link #emit} carries the PTX instruction's guard; expansions with internal control flow call
 * {@link #branchAroundGuard()} first.
 */
public interface LoweringContext {
    Target target();

    /** The target's facts from its backend: constant-bank layout, features. */
    TargetProfile profile();

    ResolvedModule resolved();

    /** The PTX instruction being lowered. */
    Instruction instruction();

    /** A fresh virtual register of {@code comps} 32-bit components (1 for predicates). */
    Reg newReg(RegFile file, int comps);

    /**
     * The Ori value of a source operand read as {@code type}: a PTX register (its virtual register; a predicate for
     * {@code .pred}), an immediate (integer literals truncated to the type's width, float literals converted to the
     * type's format), a special register (read with S2R/CS2R or a constant bank as the target needs), a variable's
     * address ({@code mov.u64 %rd, sym}), or a kernel parameter. Always a register or an immediate; lowerers that can
     * use a constant-bank operand directly ask {@link #srcAllowingConstant}.
     */
    Src src(Operand operand, PtxType type);

    /** Like {@link #src}, but a kernel parameter or {@code .const} value comes back as a constant-bank operand. */
    Src srcAllowingConstant(Operand operand, PtxType type);

    /** The register a destination operand writes, read or written as {@code type}; a sink {@code _} gets a fresh one. */
    Reg dst(Operand operand, PtxType type);

    /**
     * The address of a memory operand in {@code space}: register base (64-bit for global/generic, 32-bit for
     * shared/local windows) plus a constant offset; symbols of shared, local and const variables become their
     * assigned offsets, parameters their constant-bank offsets.
     */
    Addr address(Operand.Address operand, StateSpace space);

    /** Emits an instruction guarded by the PTX instruction's guard, at the insertion point; returns it for tweaks. */
    Instr emit(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs);

    /** Emits an instruction with no guard (an expansion's own control flow or a value that is always computed). */
    Instr emitUnguarded(String opcode, List<String> mods, List<Reg> dsts, List<Src> srcs);

    /**
     * For expansions with internal branches: turns the PTX guard into a branch around the expansion (from here on
     * {@link #emit} emits unguarded), and returns the block the expansion must fall into or branch to when done.
     */
    BasicBlock branchAroundGuard();

    /** A new empty block, not yet in layout order; {@link #startBlock} places it. */
    BasicBlock newBlock();

    /** Places {@code block} after the current one in layout and makes it the insertion point. */
    void startBlock(BasicBlock block);

    /**
     * The virtual register holding a device function's parameter or return value, or a call site's {@code .param}
     * variable ({@code param0}, {@code retval0}). In a lowered {@code .func}, the parameters' registers are the first
     * virtual registers created, in declaration order, then the return values' (R file; sizes by type).
     */
    default Reg paramRegister(org.jptxas.frontend.ptx.ast.Expr.SymbolRef param) {
        throw new UnsupportedOperationException("paramRegister: not provided by " + getClass().getSimpleName());
    }

    /**
     * Every register of a {@code .param} variable, in word order: {@code List.of(paramRegister(param))}, or for one
     * larger than 16 bytes (a by-value struct) consecutive tuples of four words, word {@code w} being component
     * {@code w % 4} of tuple {@code w / 4}.
     */
    default java.util.List<Reg> paramRegisters(org.jptxas.frontend.ptx.ast.Expr.SymbolRef param) {
        return java.util.List.of(paramRegister(param));
    }

    /** The block a PTX label starts ({@code bra $L__BB0_2}). */
    default BasicBlock branchTarget(org.jptxas.frontend.ptx.ast.Expr.SymbolRef label) {
        throw new UnsupportedOperationException("branchTarget: not provided by " + getClass().getSimpleName());
    }

    /** True when lowering a kernel ({@code .entry}); {@code ret} becomes {@code EXIT} there. */
    default boolean isKernel() {
        return true;
    }

    /**
     * True when lowering a kernel declared {@code .explicitcluster}: it is always launched as a cluster, so code need
     * not test the driver's explicit-cluster flag ({@code c[0x0][0x140]}) for cluster-only instructions.
     */
    default boolean explicitCluster() {
        return false;
    }

    /**
     * The function's {@code wgmma} accumulators: their fixed registers, and the multiply a {@code commit_group} closes
     * (one object per function being lowered).
     */
    default WarpgroupAccumulators warpgroupAccumulators() {
        return WarpgroupAccumulators.NONE;
    }

    /**
     * The divisors whose scaled reciprocal this function has computed in the current PTX block (one object per
     * function being lowered); a context without one shares nothing.
     */
    default SharedReciprocals reciprocals() {
        return new SharedReciprocals();
    }

    /** The function's {@code .maxnreg}, if it has one (the register count every warp starts with). */
    default java.util.OptionalInt maxnreg() {
        return java.util.OptionalInt.empty();
    }

    /** The error for valid PTX that jptxas does not lower yet, positioned at the instruction. */
    UnsupportedFeatureException unsupported(String what);
}
