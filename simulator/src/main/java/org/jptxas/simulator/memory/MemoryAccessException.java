package org.jptxas.simulator.memory;

/**
 * An access outside every allocation of a space, or misaligned. Executors catch it and report a fault with the
 * thread and the instruction; it carries no stack trace (faults are expected outcomes, not bugs).
 */
public final class MemoryAccessException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final AddressSpace space;
    private final long address;
    private final int size;

    public MemoryAccessException(AddressSpace space, long address, int size, String reason) {
        super(reason, null, false, false);
        this.space = space;
        this.address = address;
        this.size = size;
    }

    public AddressSpace space() {
        return space;
    }

    public long address() {
        return address;
    }

    public int size() {
        return size;
    }

    /** E.g. {@code out-of-bounds global access of 4 bytes at 0x7f0000001000 (no allocation there)}. */
    public String describe() {
        return getMessage() + ": " + size + "-byte " + space.ptxName() + " access at 0x" + Long.toHexString(address);
    }
}
