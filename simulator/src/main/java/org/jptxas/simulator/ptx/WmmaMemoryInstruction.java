package org.jptxas.simulator.ptx;

import java.util.List;
import org.jptxas.frontend.ptx.ast.Operand;
import org.jptxas.frontend.ptx.ast.PtxType;
import org.jptxas.frontend.ptx.isa.WmmaFragment;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;

/**
 * {@code wmma.load.{a,b,c}} and {@code wmma.store.d} for the interpreter: every lane reads or writes the elements
 * {@link WmmaFragment#position} gives its registers, each on its own ({@code stride} elements between rows of a
 * row-major matrix, columns of a column-major one; the matrix's width or height without a stride operand). The whole
 * warp executes it, as a {@code .sync.aligned} instruction.
 */
final class WmmaMemoryInstruction {
    private WmmaMemoryInstruction() {}

    static Insn compile(InstructionCompiler ic, WmmaFragment f) throws ProgramException, InstructionCompiler.Unsupported {
        List<Operand> ops = ic.ops;
        if (ops.size() != 2 && ops.size() != 3) {
            throw ic.unsupported();
        }
        Operand fragment = ops.get(f.load() ? 0 : 1);
        List<Operand> elements = fragment instanceof Operand.Vector v ? v.elements() : List.of(fragment);
        if (elements.size() != f.registers()) {
            throw ic.fc.error(ic.line(), "wmma fragment of " + f.registers() + " registers, not " + elements.size());
        }
        int n = elements.size();
        int[] dst = new int[n];
        Src[] src = new Src[n];
        for (int i = 0; i < n; i++) {
            if (f.load()) {
                dst[i] = ic.dst(elements.get(i));
            } else {
                src[i] = ic.src(elements.get(i), f.wideRegisters() ? PtxType.B64 : PtxType.B32);
            }
        }
        Src addr = ic.memory(ops.get(f.load() ? 1 : 0));
        long fixed = f.defaultStride();
        Src stride = ops.size() == 3 ? ic.src(ops.get(2), PtxType.U32) : t -> fixed;
        AddressSpace space = ic.space();
        // sub-byte elements fill whole 32-bit words (their rows are whole words): one access per register
        boolean subByte = f.element().bits() < 8;
        int per = subByte ? 1 : f.elementsPerRegister(), bits = subByte ? 32 : f.element().bits(), bytes = bits / 8;
        long elementsPerAccess = subByte ? f.elementsPerRegister() : 1;
        String where = "line " + ic.line() + " (" + ic.text() + ")";
        return ic.warp((lanes, group) -> {
            if (group != -1) {
                throw new InterpreterError("wmma." + (f.load() ? "load" : "store")
                        + " needs all 32 lanes of the warp (executing: 0x" + Integer.toHexString(group) + ")");
            }
            for (int l = 0; l < 32; l++) {
                ThreadState th = lanes[l];
                long base = addr.get(th), ld = stride.get(th) & 0xffffffffL;
                try {
                    for (int r = 0; r < n; r++) {
                        long word = f.load() ? 0 : src[r].get(th);
                        for (int e = 0; e < per; e++) {
                            long a = base + bytes * (f.offset(l, r, e, ld) / elementsPerAccess);
                            if (f.load()) {
                                word |= th.machine.load(th, space, a, bytes) << bits * e;
                            } else if (r < f.distinctRegisters()) {
                                th.machine.store(th, space, a, bytes, word >>> bits * e & mask(bits));
                            }
                        }
                        if (f.load()) {
                            Values.write(th, dst[r], word);
                        }
                    }
                } catch (MemoryAccessException e) {
                    throw new FaultException(new Fault.MemoryFault(th.ref(), where, e));
                }
            }
        }, t -> 0xffffffffL);
    }

    private static long mask(int bits) {
        return bits == 64 ? -1L : (1L << bits) - 1;
    }
}
