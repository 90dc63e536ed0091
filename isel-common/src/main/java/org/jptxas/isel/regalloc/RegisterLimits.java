package org.jptxas.isel.regalloc;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.jptxas.ori.target.Target;
import org.jptxas.ori.target.TargetFeature;
import org.jptxas.ori.target.TargetProfile;

/**
 * What the register allocator may use. {@code maxRegisters} is a register count as ptxas reports and enforces it
 * ({@code --maxrregcount}, {@code .maxnreg}, "Used N registers"): ptxas counts R0 up to the highest register used
 * plus two more it keeps for itself, so the highest allocatable general register is {@code maxRegisters - 3}.
 *
 * @param maxRegisters     register count limit, {@value #MIN_REGISTERS}..{@value #MAX_REGISTERS}
 * @param uniformFile      whether UR/UP exist (sm_75 and later)
 * @param reservedGprs     general registers never allocated beyond R1 (the stack pointer, always reserved)
 * @param reservedUrs      uniform registers never allocated (e.g. UR4-UR5 when a later stage loads the global
 *                         memory descriptor there)
 */
public record RegisterLimits(int maxRegisters, boolean uniformFile, List<Integer> reservedGprs,
                             List<Integer> reservedUrs) {
    /** ptxas (12.x, 13.x) raises smaller limits to this for every sm_75..sm_90 profile, with a warning. */
    public static final int MIN_REGISTERS = 24;
    /** Largest register count; larger {@code --maxrregcount} values are ignored with a warning. */
    public static final int MAX_REGISTERS = 255;
    /** Registers ptxas counts beyond the highest one used. */
    public static final int EXTRA_COUNTED = 2;
    /** The stack pointer; never allocated. */
    public static final int STACK_POINTER = 1;

    public RegisterLimits {
        if (maxRegisters < MIN_REGISTERS || maxRegisters > MAX_REGISTERS) {
            throw new IllegalArgumentException("register limit " + maxRegisters + " outside " + MIN_REGISTERS + ".."
                    + MAX_REGISTERS);
        }
        reservedGprs = List.copyOf(reservedGprs);
        reservedUrs = List.copyOf(reservedUrs);
    }

    /** No limit beyond the hardware's. */
    public static RegisterLimits of(TargetProfile target) {
        return new RegisterLimits(MAX_REGISTERS, target.has(TargetFeature.UNIFORM_DATAPATH), List.of(), List.of());
    }

    /**
     * The limit as ptxas derives it from {@code --maxrregcount} and a function's {@code .maxnreg} (the smaller one
     * applies), raised to {@value #MIN_REGISTERS}; values above {@value #MAX_REGISTERS} are ignored.
     */
    public static RegisterLimits of(TargetProfile target, OptionalInt maxrregcount, OptionalInt maxnreg) {
        int limit = MAX_REGISTERS;
        for (OptionalInt requested : List.of(maxrregcount, maxnreg)) {
            if (requested.isPresent() && requested.getAsInt() <= MAX_REGISTERS) {
                limit = Math.min(limit, Math.max(MIN_REGISTERS, requested.getAsInt()));
            }
        }
        return new RegisterLimits(limit, target.has(TargetFeature.UNIFORM_DATAPATH), List.of(), List.of());
    }

    /** The warning ptxas prints for a {@code --maxrregcount} value it adjusts or ignores, if any. */
    public static Optional<String> adjustmentWarning(Target target, int requested) {
        if (requested > MAX_REGISTERS) {
            return Optional.of("Too big maxrregcount value specified " + requested + ", will be ignored");
        }
        if (requested < MIN_REGISTERS) {
            return Optional.of("For profile " + target.name() + " adjusting per thread register count of " + requested
                    + " to lower bound of " + MIN_REGISTERS);
        }
        return Optional.empty();
    }

    /** The same limits with more general registers kept out of allocation (call ABI). */
    public RegisterLimits reserving(List<Integer> gprs) {
        List<Integer> all = new java.util.ArrayList<>(reservedGprs);
        all.addAll(gprs);
        return new RegisterLimits(maxRegisters, uniformFile, all, reservedUrs);
    }

    /** The same limits with more uniform registers kept out of allocation. */
    public RegisterLimits reservingUniform(List<Integer> urs) {
        List<Integer> all = new java.util.ArrayList<>(reservedUrs);
        all.addAll(urs);
        return new RegisterLimits(maxRegisters, uniformFile, reservedGprs, all);
    }

    /** Highest general register index the allocator may assign. */
    public int highestGpr() {
        return maxRegisters - EXTRA_COUNTED - 1;
    }
}
