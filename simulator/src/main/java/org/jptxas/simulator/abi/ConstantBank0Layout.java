package org.jptxas.simulator.abi;

import java.util.OptionalInt;
import org.jptxas.ori.target.DriverConstants;
import org.jptxas.ori.target.Target;

/**
 * Where the driver puts launch information in constant bank 0 ({@code c[0x0]}) for a target, as ptxas 13's code
 * reads it (see {@code ../shared/docs/sass-and-cubin-facts.md}, section 6): the block extent ({@code ntid}) at
 * {@code blockDimOffset}, the grid extent ({@code nctaid}) at {@code gridDimOffset} (right after it up to sm_90;
 * on sm_100+ at 0x370, after the explicit-cluster flag at 0x36c), the initial stack pointer (the top of a
 * thread's local-memory window), the 64-bit global-memory descriptor on sm_80+, and the kernel parameters from
 * {@code paramBase}; and where it puts the generic address of constant-bank memory that {@code cvta.param} adds
 * parameter offsets to: at {@code genericPointer}, the generic address of bank offset {@code genericPointerTarget}
 * (ptxas 13: {@code c[0x0][0x40]} holds the bank's own on sm_75..sm_89, {@code c[0x0][0x198]} the parameter area's on
 * sm_90, {@code c[0x0][0x348]} the parameter area's (0x380) on sm_100+; not known on other targets); and at
 * {@code constPointer} the generic address of the module's {@code .const} variables (constant bank 3) that
 * {@code cvta.const} adds to ({@code c[0x0][0x50]} on sm_75..sm_89, {@code c[0x0][0xd0]} on sm_90,
 * {@code c[0x0][0x120]} on sm_100+). The sm_100+ offsets are where ptxas 13's sm_100 code reads %nctaid.x,
 * {@code cvta.param} and {@code cvta.const} (decoded with the Blackwell tables).
 */
public record ConstantBank0Layout(int paramBase, int blockDimOffset, int gridDimOffset, int stackPointerOffset,
                                  OptionalInt globalDescriptorOffset, OptionalInt genericPointer,
                                  int genericPointerTarget, OptionalInt constPointer) {
    /** Size of a constant bank (64 KiB). */
    public static final int BANK_SIZE = 0x10000;
    /** Largest kernel parameter area ptxas accepts before CUDA 12.1's large-parameter support (4 KiB). */
    public static final int CLASSIC_PARAM_LIMIT = 4096;

    /** The rest of the driver's launch constants in this layout (the sm_100+ family moved them up). */
    public DriverConstants driver() {
        return blockDimOffset == 0 ? DriverConstants.CLASSIC : DriverConstants.BLACKWELL;
    }

    public static ConstantBank0Layout of(Target target) {
        int sm = target.sm();
        if (sm < 70) {
            return new ConstantBank0Layout(0x140, 0x0, 0xc, 0x20, OptionalInt.empty(), OptionalInt.empty(), 0,
                    OptionalInt.empty());
        }
        if (sm < 80) {
            return new ConstantBank0Layout(0x160, 0x0, 0xc, 0x28, OptionalInt.empty(), OptionalInt.of(0x40), 0,
                    OptionalInt.of(0x50));
        }
        if (sm < 90) {
            return new ConstantBank0Layout(0x160, 0x0, 0xc, 0x28, OptionalInt.of(0x118), OptionalInt.of(0x40), 0,
                    OptionalInt.of(0x50));
        }
        if (sm < 100) {
            return new ConstantBank0Layout(0x210, 0x0, 0xc, 0x28, OptionalInt.of(0x208), OptionalInt.of(0x198), 0x210,
                    OptionalInt.of(0xd0));
        }
        return new ConstantBank0Layout(0x380, 0x360, 0x370, 0x37c, OptionalInt.of(0x358), OptionalInt.of(0x348),
                0x380, OptionalInt.of(0x120));
    }
}
