package org.jptxas.cubin;

import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;
import org.jptxas.cubin.info.Attribute;

/**
 * What code generation knows about one compiled function, which is all {@link CubinBuilder} needs to write its
 * sections, symbols and .nv.info records as ptxas does.
 *
 * @param name            the function's symbol name
 * @param entry           a kernel ({@code .entry}) rather than a device function
 * @param code            the encoded SASS, padded as the target requires
 * @param registers       register count (REGCOUNT)
 * @param frameSize       stack frame bytes (FRAME_SIZE)
 * @param minStackSize    MIN_STACK_SIZE (executables)
 * @param maxStackSize    MAX_STACK_SIZE (relocatable output)
 * @param sharedBytes     size of {@code .nv.shared.<name>} as ptxas writes it (0: no section): the declared bytes,
 *                        plus the 1 KiB ptxas reserves from sm_90 on (reported by {@code -v} without it)
 * @param params          kernel parameters in ordinal order
 * @param paramBytes      CBANK_PARAM_SIZE: bytes of the parameter block
 * @param barriers        named barriers used (NUM_BARRIERS when non-zero)
 * @param exitOffsets     byte offsets of the EXIT instructions (EXIT_INSTR_OFFSETS)
 * @param crsStackSize    CRS_STACK_SIZE when ptxas writes it (functions making calls)
 * @param maxRegCount     MAXREG_COUNT (255 unless {@code --maxrregcount}/{@code .maxnreg})
 * @param extraAttributes other records of this function (instruction offset lists, REQNTID, MAX_THREADS, ...),
 *                        placed in ptxas's order by the builder
 * @param callees         names of the functions this one calls (.nv.callgraph)
 * @param inner           functions placed inside this one's code section (ptxas's {@code $kernel$callee} copies)
 */
public record FunctionFacts(String name, boolean entry, byte[] code, int registers, int frameSize, int minStackSize,
                            int maxStackSize, long sharedBytes, List<Param> params, int paramBytes, int barriers,
                            int[] exitOffsets, OptionalInt crsStackSize, int maxRegCount,
                            List<Attribute> extraAttributes, List<String> callees, List<InnerFunction> inner) {
    /**
     * A function symbol inside another function's code: name, byte offset, size and frame size.
     *
     * @param binding          its symbol's binding: local for a copy of a {@code .func}, global for a copy of a
     *                         {@code .visible .func}, weak for ptxas's internal helpers ({@code $__internal_...})
     * @param returnRegisters  the registers holding return addresses on entry, its callers' (inner functions calling
     *                         it, outermost first) and last its own (R20 under the call ABI), which its
     *                         {@code .debug_frame} CIE names
     * @param callFrameProgram the DWARF call-frame instructions of its FDE (as ptxas writes them, padding
     *                         included); empty to let {@link DebugFrame} derive them from the code
     */
    public record InnerFunction(String name, long offset, long size, int frameSize, Binding binding,
                                List<Integer> returnRegisters, byte[] callFrameProgram) {
        /** The call ABI's return-address register. */
        public static final int ABI_RETURN_REGISTER = 20;

        public InnerFunction {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(binding, "binding");
            returnRegisters = List.copyOf(returnRegisters);
            if (returnRegisters.isEmpty()) {
                throw new IllegalArgumentException("no return register");
            }
            callFrameProgram = callFrameProgram.clone();
        }

        /** An inner function under the call ABI: weak when ptxas would name it an internal helper, else local. */
        public InnerFunction(String name, long offset, long size, int frameSize) {
            this(name, offset, size, frameSize, name.startsWith("$__internal") ? Binding.WEAK : Binding.LOCAL,
                    List.of(ABI_RETURN_REGISTER), new byte[0]);
        }

        /** The register holding its own return address on entry. */
        public int returnRegister() {
            return returnRegisters.get(returnRegisters.size() - 1);
        }

        @Override
        public byte[] callFrameProgram() {
            return callFrameProgram.clone();
        }

        /** The same function with {@code frameSize}. */
        public InnerFunction withFrameSize(int frame) {
            return new InnerFunction(name, offset, size, frame, binding, returnRegisters, callFrameProgram);
        }

        /** The same function with {@code bytes} of code. */
        public InnerFunction withSize(long bytes) {
            return new InnerFunction(name, offset, bytes, frameSize, binding, returnRegisters, callFrameProgram);
        }
    }

    /** The binding of an inner function's symbol. */
    public enum Binding {
        LOCAL(Symbol.STB_LOCAL), GLOBAL(Symbol.STB_GLOBAL), WEAK(Symbol.STB_WEAK);

        private final int elf;

        Binding(int elf) {
            this.elf = elf;
        }

        /** The ELF {@code STB_*} value. */
        public int elf() {
            return elf;
        }

        /** The binding of ELF value {@code stb} (local for any other). */
        public static Binding of(int stb) {
            return stb == Symbol.STB_GLOBAL ? GLOBAL : stb == Symbol.STB_WEAK ? WEAK : LOCAL;
        }
    }

    /** Facts without inner functions. */
    public FunctionFacts(String name, boolean entry, byte[] code, int registers, int frameSize, int minStackSize,
                         int maxStackSize, long sharedBytes, List<Param> params, int paramBytes, int barriers,
                         int[] exitOffsets, OptionalInt crsStackSize, int maxRegCount,
                         List<Attribute> extraAttributes, List<String> callees) {
        this(name, entry, code, registers, frameSize, minStackSize, maxStackSize, sharedBytes, params, paramBytes,
                barriers, exitOffsets, crsStackSize, maxRegCount, extraAttributes, callees, List.of());
    }

    /**
     * One kernel parameter: ordinal, offset in the parameter block, size in bytes, the pointee's log2 alignment and
     * state space (non-zero for {@code .ptr} parameters with a space, e.g. 4 for {@code .global}).
     */
    public record Param(int ordinal, int offset, int size, int logAlignment, int space) {
        public Param(int ordinal, int offset, int size) {
            this(ordinal, offset, size, 0, 0);
        }
    }

    public FunctionFacts {
        Objects.requireNonNull(name, "name");
        code = code.clone();
        params = List.copyOf(params);
        exitOffsets = exitOffsets.clone();
        extraAttributes = List.copyOf(extraAttributes);
        callees = List.copyOf(callees);
        inner = List.copyOf(inner);
    }

    @Override
    public byte[] code() {
        return code.clone();
    }

    @Override
    public int[] exitOffsets() {
        return exitOffsets.clone();
    }
}
