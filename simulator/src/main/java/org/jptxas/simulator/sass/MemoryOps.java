package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.numeric.AtomicFloatAdd;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.Mem;
import org.jptxas.simulator.sass.SassOperand.Pred;
import org.jptxas.simulator.sass.SassOperand.Reg;

/** Loads, stores, atomics and asynchronous copies on the per-thread path. */
final class MemoryOps {
    private final SassMachine machine;
    private final OperandAccess operands;

    MemoryOps(SassMachine machine) {
        this.machine = machine;
        this.operands = machine.operands;
    }

    /**
     * LDGSTS, LDGDEPBAR and {@code DEPBAR.LE SB0, n} ({@link AsyncCopyOps}); a DEPBAR that names no copy group waits for
     * scoreboards only, which the emulator's in-order execution has already satisfied.
     */
    void asyncCopy(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        switch (op.opcode()) {
            case "LDGSTS" -> {
                if (t.copies == null) {
                    t.copies = new org.jptxas.simulator.exec.AsyncCopies();
                }
                boolean read = o.size() < 3 || operands.pred(o.get(2), t, w);
                AsyncCopyOps.ldgsts(op, t.copies, machine.shared, machine.launch.global(),
                        machine.windows.address((Mem) o.get(0), t, w, false) & 0xffffffffL, machine.windows.address((Mem) o.get(1), t, w, true), read);
            }
            case "LDGDEPBAR" -> {
                if (t.copies == null) {
                    t.copies = new org.jptxas.simulator.exec.AsyncCopies();
                }
                t.copies.commit();
            }
            default -> {
                int pending = AsyncCopyOps.copyGroupWait(op);
                if (pending >= 0 && t.copies != null) {
                    t.copies.waitFor(pending);
                }
            }
        }
        t.pc++;
    }

    private static boolean wideGlobal(SassOp op) {
        return (op.opcode().endsWith("G") || op.opcode().equals("RED")) && op.has("E");
    }

    static int accessSize(SassOp op) {
        for (String m : op.modifiers()) {
            switch (m) {
                case "U8", "S8": return 1;
                case "U16", "S16": return 2;
                case "64": return 8;
                case "128": return 16;
                default: break;
            }
        }
        return 4;
    }

    static boolean signedAccess(SassOp op) {
        return op.has("S8") || op.has("S16");
    }

    private static boolean generic(SassOp op) {
        String c = op.opcode();
        return c.equals("LD") || c.equals("ST") || c.equals("ATOM") || c.equals("RED");
    }

    /** RED/ATOMG/ATOMS: add, min, max, and, or, xor, exch, cas, inc on global or shared memory, 32/64-bit, f32/f64 add. */
    void atomic(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        boolean red = op.opcode().startsWith("RED");
        boolean sharedSpace = op.opcode().equals("ATOMS");
        int i = 0;
        SassOperand dst = null;
        SassOperand done = null;
        if (!red) {
            if (o.get(0) instanceof Pred) {
                done = o.get(i++); // set when the atomic was performed (ptxas falls back to a CAS loop when not)
            }
            dst = o.get(i++);
        }
        Mem m = (Mem) o.get(i++);
        String kind = null;
        for (String mod : op.modifiers()) {
            switch (mod) {
                case "ADD", "MIN", "MAX", "AND", "OR", "XOR", "EXCH", "CAS", "INC", "DEC", "CAST" -> kind = mod;
                default -> { }
            }
        }
        if (kind != null && kind.equals("CAST")) {
            GenericAtomics.castSpin(machine, op, t, w, dst, m, o.get(i), o.get(i + 1));
            return;
        }
        if (op.has("POPC") && op.has("INC")) {
            kind = "POPC_INC";
        }
        if (kind == null) {
            throw machine.unimplemented(op);
        }
        if (op.has("128") && (kind.equals("EXCH") || kind.equals("CAS"))) {
            exchange128(op, t, w, kind.equals("CAS"), dst, m, o.get(i), kind.equals("CAS") ? o.get(i + 1) : null);
            return;
        }
        VectorAtomic vector = VectorAtomic.of(op, kind);
        if (vector != null) {
            vectorAtomic(op, t, w, vector, dst, m, o.get(i));
            return;
        }
        boolean is64 = op.has("64") || op.has("F64") || op.has("U64") || op.has("S64");
        boolean f32 = op.has("F32") || op.has("FTZ") && op.has("RN") && !op.has("F64");
        boolean f64 = op.has("F64");
        boolean signed = op.has("S32") || op.has("S64");
        int size = is64 ? 8 : 4;
        long a = machine.windows.address(m, t, w, !sharedSpace && op.has("E"));
        Region r = sharedSpace ? machine.shared : generic(op) ? machine.windows.window(a, t) : null;
        if (!sharedSpace && r != null) {
            a = machine.windows.windowOffset(a, r);
        } else if (sharedSpace) {
            a = machine.windows.sharedOffset(a);
        }
        if (done != null && r != null && GenericAtomics.notPerformedInWindow(kind, op)) {
            OperandAccess.writeP(t, done, false); // the hardware leaves shared/local-window adds of these types to the code
            return;
        }
        long old = r == null ? machine.launch.global().load(a, size) : r.load(a, size);
        long v = kind.equals("POPC_INC") ? 1 : size == 8 ? operands.read64(o.get(i), t, w) : Integer.toUnsignedLong(operands.read(o.get(i), t, w));
        long mask = size == 8 ? -1L : 0xffffffffL;
        long nv = switch (kind) {
            case "ADD" -> op.has("F16x2") || op.has("BF16x2") ? HalfOps.atomicAdd2(old, v, op.has("BF16x2"))
                    : f64 ? AtomicFloatAdd.f64(old, v)
                    : f32 ? AtomicFloatAdd.f32(old, v)
                    : old + v;
            case "POPC_INC" -> old + 1;
            case "MIN" -> signed ? (size == 8 ? Math.min(old, v) : Math.min((int) old, (int) v))
                    : (Long.compareUnsigned(old & mask, v & mask) <= 0 ? old : v);
            case "MAX" -> signed ? (size == 8 ? Math.max(old, v) : Math.max((int) old, (int) v))
                    : (Long.compareUnsigned(old & mask, v & mask) >= 0 ? old : v);
            case "AND" -> old & v;
            case "OR" -> old | v;
            case "XOR" -> old ^ v;
            case "EXCH" -> v;
            case "CAS" -> {
                long swap = size == 8 ? operands.read64(o.get(i + 1), t, w) : Integer.toUnsignedLong(operands.read(o.get(i + 1), t, w));
                yield (old & mask) == (v & mask) ? swap : old;
            }
            case "INC" -> Long.compareUnsigned(old & mask, v & mask) >= 0 ? 0 : old + 1;
            case "DEC" -> (old & mask) == 0 || Long.compareUnsigned(old & mask, v & mask) > 0 ? v : old - 1;
            default -> throw machine.unimplemented(op);
        };
        if (f32 && !kind.equals("ADD")) {
            throw machine.unimplemented(op);
        }
        if (r == null) {
            machine.launch.global().store(a, size, nv);
        } else {
            r.store(a, size, nv);
        }
        if (done != null) {
            OperandAccess.writeP(t, done, true);
        }
        if (dst != null) {
            if (size == 8) {
                OperandAccess.writeR64(t, dst, old);
            } else {
                OperandAccess.writeR(t, dst, (int) old);
            }
        }
    }

    /**
     * {@code ATOMG/ATOM/ATOMS .EXCH.128} and {@code .CAS.128}: the old 16 bytes into Rd..Rd+3; CAS stores its last
     * tuple only when all four words equal the compare tuple.
     */
    private void exchange128(SassOp op, Thread t, Warp w, boolean cas, SassOperand dst, Mem m, SassOperand first,
            SassOperand second) {
        boolean sharedSpace = op.opcode().equals("ATOMS");
        long a = machine.windows.address(m, t, w, !sharedSpace && op.has("E"));
        Region r = sharedSpace ? machine.shared : generic(op) ? machine.windows.window(a, t) : null;
        if (sharedSpace) {
            a = machine.windows.sharedOffset(a);
        } else if (r != null) {
            a = machine.windows.windowOffset(a, r);
        }
        checkAligned(r, a, 16);
        int[] old = new int[4];
        boolean equal = true;
        for (int k = 0; k < 4; k++) {
            old[k] = (int) read(r, a + 4L * k, 4);
            equal &= !cas || old[k] == word(t, first, k);
        }
        if (equal) {
            SassOperand value = cas ? second : first;
            for (int k = 0; k < 4; k++) {
                write(r, a + 4L * k, 4, Integer.toUnsignedLong(word(t, value, k)));
            }
        }
        if (dst != null && ((Reg) dst).index() != 255) {
            for (int k = 0; k < 4; k++) {
                t.r[((Reg) dst).index() + k] = old[k];
            }
        }
    }

    private static int word(Thread t, SassOperand tuple, int k) {
        int r = ((Reg) tuple).index();
        return r == 255 ? 0 : t.r[r + k];
    }

    /** A vector atomic (F32x2 ... BF16x8, and F16x2/BF16x2 min/max): each 32-bit word of the tuple on its lanes. */
    private void vectorAtomic(SassOp op, Thread t, Warp w, VectorAtomic vector, SassOperand dst, Mem m,
            SassOperand value) {
        long a = machine.windows.address(m, t, w, op.has("E"));
        Region r = generic(op) ? machine.windows.window(a, t) : null;
        if (r != null) {
            a = machine.windows.windowOffset(a, r);
        }
        int words = vector.words();
        checkAligned(r, a, 4 * words);
        int[] old = new int[words];
        for (int k = 0; k < words; k++) {
            old[k] = (int) read(r, a + 4L * k, 4);
            int v = word(t, value, k);
            write(r, a + 4L * k, 4, Integer.toUnsignedLong(
                    org.jptxas.simulator.numeric.AtomicLanes.combine(vector.op(), vector.lane(), old[k], v)));
        }
        if (dst != null && ((Reg) dst).index() != 255) {
            for (int k = 0; k < words; k++) {
                t.r[((Reg) dst).index() + k] = old[k];
            }
        }
    }

    private Region spaceRegion(SassOp op, Thread t) {
        return switch (op.opcode()) {
            case "LDS", "STS" -> machine.shared;
            case "LDL", "STL" -> {
                if (t.local == null) {
                    t.local = new Region("local memory", AddressSpace.LOCAL, 0, SassMachine.STACK_BYTES);
                }
                yield t.local;
            }
            default -> null;
        };
    }

    void load(SassOp op, Thread t, Warp w) {
        boolean generic = generic(op);
        long raw = address(op, op.operands().get(1), t, w, generic);
        Region r = region(op, t, raw, generic);
        long a = offset(raw, r, generic);
        int size = accessSize(op);
        int d = ((Reg) op.operands().get(0)).index();
        if (size <= 4) {
            long v = read(r, a, size);
            int x = (int) v;
            if (signedAccess(op)) {
                x = size == 1 ? (byte) v : (short) v;
            }
            if (d != 255) {
                t.r[d] = x;
            }
            return;
        }
        checkAligned(r, a, size);
        for (int k = 0; k < size / 4; k++) {
            long v = read(r, a + 4L * k, 4);
            if (d != 255) {
                t.r[d + k] = (int) v;
            }
        }
    }

    void store(SassOp op, Thread t, Warp w) {
        boolean generic = generic(op);
        long raw = address(op, op.operands().get(0), t, w, generic);
        Region r = region(op, t, raw, generic);
        long a = offset(raw, r, generic);
        int size = accessSize(op);
        int s = ((Reg) op.operands().get(1)).index();
        if (size <= 4) {
            write(r, a, size, s == 255 ? 0 : Integer.toUnsignedLong(t.r[s]));
            return;
        }
        checkAligned(r, a, size);
        for (int k = 0; k < size / 4; k++) {
            write(r, a + 4L * k, 4, s == 255 ? 0 : Integer.toUnsignedLong(t.r[s + k]));
        }
    }

    /** The address an LD/ST operand names: 64-bit for wide global and extended generic accesses. */
    private long address(SassOp op, SassOperand mem, Thread t, Warp w, boolean generic) {
        return machine.windows.address((Mem) mem, t, w, wideGlobal(op) || generic && op.has("E"));
    }

    /** The region an access reaches: a generic address's window, or the instruction's space; null is global memory. */
    private Region region(SassOp op, Thread t, long address, boolean generic) {
        return generic ? machine.windows.window(address, t) : spaceRegion(op, t);
    }

    /** The address within {@code r}: the offset in a generic address's window, or in the shared window. */
    private long offset(long address, Region r, boolean generic) {
        if (generic && r != null) {
            return machine.windows.windowOffset(address, r);
        }
        return r == machine.shared ? machine.windows.sharedOffset(address) : address;
    }

    private long read(Region r, long a, int size) {
        return r == null ? machine.launch.global().load(a, size) : r.load(a, size);
    }

    private void write(Region r, long a, int size, long v) {
        if (r == null) {
            machine.launch.global().store(a, size, v);
        } else {
            r.store(a, size, v);
        }
    }

    private static void checkAligned(Region r, long a, int size) {
        if ((a & (size - 1)) != 0) {
            throw new MemoryAccessException(r == null ? AddressSpace.GLOBAL : r.space(), a, size, "misaligned");
        }
    }
}
