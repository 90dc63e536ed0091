package org.jptxas.ori.ir;

/**
 * The registers of NVIDIA's device-function calling convention that passes across stages: the lowering places
 * arguments and results, optimizations recognise values that arrive as arguments, and the frame code saves the return
 * address.
 */
public final class CallingConvention {
    /** First register of the argument and result block: arguments arrive in consecutive registers from here. */
    public static final int FIRST_ARGUMENT = 4;
    /** First register of the return-address pair. */
    public static final int RETURN_ADDRESS = 20;

    private CallingConvention() {}

    /**
     * Whether {@code r} is a physical general register of the argument block, an argument on a function's entry (an
     * internal subroutine's block reaches past the return-address pair, which then moves above it).
     */
    public static boolean isArgumentRegister(Reg r) {
        return !r.virtual() && r.file() == RegFile.R && r.index() >= FIRST_ARGUMENT;
    }
}
