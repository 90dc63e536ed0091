package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.simulator.abi.ParamLayout;

/** A PTX function or kernel compiled for interpretation. */
final class CompiledFunction {
    final String name;
    final boolean entry;
    final int id;
    Insn[] code;
    int registerCount;
    /** Byte size of each register (0 for predicates): writes are truncated to it. */
    int[] registerSize;
    /** Mask applied on every register write (predicates hold 0 or 1). */
    long[] registerMask;
    int paramAreaSize;
    /** Offsets and sizes of the formal parameters, then of the return parameters, inside the parameter area. */
    int[] paramOffsets;
    int[] paramSizes;
    int[] returnOffsets;
    int[] returnSizes;
    /** For {@code .reg} formals: the register, else -1 (the formal lives in the parameter area). */
    int[] paramRegs;
    int[] returnRegs;
    /** Kernels: the declared parameters as the launch must lay them out. */
    List<ParamLayout.Declared> declaredParams;
    int localFrameSize;
    /** Kernels: the compile-time cluster shape ({@code .reqnctapercluster}), or null. */
    org.jptxas.simulator.launch.Dim3 clusterShape;

    CompiledFunction(String name, boolean entry, int id) {
        this.name = name;
        this.entry = entry;
        this.id = id;
    }
}
