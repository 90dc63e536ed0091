package org.jptxas.simulator.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A contiguous, bounds-checked, little-endian byte range at a fixed base address in one space: a global buffer, a
 * block's shared memory, a thread's local memory or a constant bank. Accesses must be naturally aligned, as on the
 * GPU. Not thread-safe: a launch runs on one thread.
 */
public final class Region {
    private static final VarHandle I16 = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I32 = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle I64 = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final String name;
    private final AddressSpace space;
    private final long base;
    private final byte[] data;

    public Region(String name, AddressSpace space, long base, int size) {
        this(name, space, base, new byte[size]);
    }

    public Region(String name, AddressSpace space, long base, byte[] data) {
        this.name = name;
        this.space = space;
        this.base = base;
        this.data = data;
    }

    public String name() {
        return name;
    }

    public AddressSpace space() {
        return space;
    }

    public long base() {
        return base;
    }

    public int size() {
        return data.length;
    }

    public long end() {
        return base + data.length;
    }

    public boolean contains(long address, int size) {
        return address >= base && address - base <= (long) data.length - size;
    }

    /** The live contents (no copy). */
    public byte[] bytes() {
        return data;
    }

    public byte[] copyOfBytes() {
        return Arrays.copyOf(data, data.length);
    }

    private int offset(long address, int size) {
        long off = address - base;
        if (off < 0 || off > (long) data.length - size) {
            throw new MemoryAccessException(space, address, size, "out of bounds of " + name
                    + " [0x" + Long.toHexString(base) + ", 0x" + Long.toHexString(end()) + ")");
        }
        if ((address & (size - 1)) != 0) {
            throw new MemoryAccessException(space, address, size, "misaligned");
        }
        return (int) off;
    }

    public int load8(long address) {
        return data[offset(address, 1)] & 0xff;
    }

    public int load16(long address) {
        return (short) I16.get(data, offset(address, 2)) & 0xffff;
    }

    public int load32(long address) {
        return (int) I32.get(data, offset(address, 4));
    }

    public long load64(long address) {
        return (long) I64.get(data, offset(address, 8));
    }

    /** The 16 bytes at a 16-byte aligned {@code address} as four little-endian words (one vector access). */
    public int[] load128(long address) {
        int off = offset(address, 16);
        return new int[] {(int) I32.get(data, off), (int) I32.get(data, off + 4), (int) I32.get(data, off + 8),
            (int) I32.get(data, off + 12)};
    }

    public void store8(long address, int value) {
        data[offset(address, 1)] = (byte) value;
    }

    public void store16(long address, int value) {
        I16.set(data, offset(address, 2), (short) value);
    }

    public void store32(long address, int value) {
        I32.set(data, offset(address, 4), value);
    }

    public void store64(long address, long value) {
        I64.set(data, offset(address, 8), value);
    }

    /** Loads 1, 2, 4 or 8 bytes zero-extended. */
    public long load(long address, int size) {
        return switch (size) {
            case 1 -> load8(address);
            case 2 -> load16(address);
            case 4 -> Integer.toUnsignedLong(load32(address));
            case 8 -> load64(address);
            default -> throw new IllegalArgumentException("access size " + size);
        };
    }

    /** Stores the low 1, 2, 4 or 8 bytes of {@code value}. */
    public void store(long address, int size, long value) {
        switch (size) {
            case 1 -> store8(address, (int) value);
            case 2 -> store16(address, (int) value);
            case 4 -> store32(address, (int) value);
            case 8 -> store64(address, value);
            default -> throw new IllegalArgumentException("access size " + size);
        }
    }
}
