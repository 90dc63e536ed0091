package org.jptxas.simulator.sass;

import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.Mem;

/**
 * Generic addressing: the shared, local, constant-bank-0 and {@code .const} (bank 3) windows, their bases in constant bank 0, and address
 * operands resolved to a region.
 */
final class AddressWindows {
    private final SassMachine machine;

    AddressWindows(SassMachine machine) {
        this.machine = machine;
    }

    /** {@code wideDefault}: global accesses with {@code .E} take a 64-bit register pair even without {@code .64}. */
    long address(Mem m, Thread t, Warp w, boolean wideDefault) {
        long a = m.offset();
        if (m.reg() >= 0) {
            a += m.wide() || wideDefault && !m.zeroExtended() ? OperandAccess.pair(t, m.reg())
                    : Integer.toUnsignedLong(t.r[m.reg()]) * m.scale();
        }
        if (m.ureg() >= 0) {
            a += m.wide() || m.reg() < 0 && wideDefault || m.zeroExtended() ? (Integer.toUnsignedLong(w.ur[m.ureg()]) | (long) w.ur[m.ureg() + 1] << 32)
                    : Integer.toUnsignedLong(w.ur[m.ureg()]);
        }
        return a;
    }

    /**
     * Generic addresses of shared and local memory: the windows' bases, which the driver puts in constant bank 0
     * ({@code c[0x0][0x18]} shared, {@code c[0x0][0x20]} local; {@code cvta} and generic loads use them). The values
     * are the PTX interpreter's windows, so both executors hand out the same generic addresses.
     */
    static final long SHARED_WINDOW = 0x0000_0100_0000_0000L;

    static final long LOCAL_WINDOW = 0x0000_0200_0000_0000L;

    static final long WINDOW_SIZE = 0x1_0000_0000L;

    /**
     * Generic addresses of constant bank 0 ({@code cvta.param}): the driver puts a 64-bit pointer into the bank at
     * {@link ConstantBank0Layout#genericPointer()}; generic loads in this window read the bank.
     */
    static final long CONST0_WINDOW = 0x0000_0400_0000_0000L;

    /**
     * Generic addresses of the module's {@code .const} variables (constant bank 3, {@code cvta.const}): the PTX
     * interpreter's constant window; the driver's pointer to it sits at {@link ConstantBank0Layout#constPointer()}.
     */
    static final long CONST3_WINDOW = 0x0000_0300_0000_0000L;

    byte[] withWindows(byte[] bank0) {
        if (bank0.length < 0x28) {
            return bank0;
        }
        byte[] b = bank0.clone();
        java.nio.ByteBuffer bb = java.nio.ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        bb.putLong(0x18, SHARED_WINDOW);
        bb.putLong(0x20, LOCAL_WINDOW);
        ConstantBank0Layout cb = ConstantBank0Layout.of(machine.launch.target());
        cb.genericPointer().ifPresent(at -> {
            if (b.length >= at + 8) {
                bb.putLong(at, CONST0_WINDOW + cb.genericPointerTarget());
            }
        });
        cb.constPointer().ifPresent(at -> {
            if (b.length >= at + 8) {
                bb.putLong(at, CONST3_WINDOW);
            }
        });
        return b;
    }

    private long windowBase(Region r) {
        return r.space() == AddressSpace.SHARED ? SHARED_WINDOW : r == machine.cbank0 ? CONST0_WINDOW
                : r.space() == AddressSpace.CONST ? CONST3_WINDOW : LOCAL_WINDOW;
    }

    /** A generic address as an offset in its window's region (without the cluster rank of a shared one). */
    long windowOffset(long a, Region r) {
        return machine.seat != null && r.space() == AddressSpace.SHARED ? a - SHARED_WINDOW & 0xffffffL : a - windowBase(r);
    }

    /** A shared address with this block's own cluster rank in its top byte (ptxas's LEA of SR_CgaCtaId) as an offset. */
    long sharedOffset(long a) {
        return machine.seat != null && (a >>> 24) == machine.seat.rank() ? a & 0xffffffL : a;
    }

    /** The shared or local region a generic address falls in, or null for global memory. */
    Region window(long a, Thread t) {
        if (a >= SHARED_WINDOW && a < SHARED_WINDOW + WINDOW_SIZE) { // a cluster's block by the top byte
            return machine.seat == null ? machine.shared : machine.seat.run().shared((int) ((a - SHARED_WINDOW) >>> 24), a - SHARED_WINDOW);
        }
        if (a >= LOCAL_WINDOW && a < LOCAL_WINDOW + WINDOW_SIZE) {
            return localOf(t);
        }
        if (a >= CONST0_WINDOW && a < CONST0_WINDOW + ConstantBank0Layout.BANK_SIZE) {
            return machine.cbank0;
        }
        if (a >= CONST3_WINDOW && a < CONST3_WINDOW + ConstantBank0Layout.BANK_SIZE && machine.banks[3] != null) {
            return machine.banks[3];
        }
        return null;
    }

    private Region localOf(Thread t) {
        if (t.local == null) {
            t.local = new Region("local memory", AddressSpace.LOCAL, 0, SassMachine.STACK_BYTES);
        }
        return t.local;
    }
}
