package org.jptxas.ori.ir;

import java.util.List;
import java.util.Objects;

/**
 * A module-scope variable the cubin must hold: {@code .global} data ({@code .nv.global} / {@code .nv.global.init}) or
 * {@code .const} data (constant bank 3, {@code .nv.constant3}). Shared variables are laid out per kernel by the front
 * end and do not appear here.
 *
 * @param offset   for {@link Space#CONSTANT}: the byte offset in bank 3 the front end assigned (code reads
 *                 {@code c[0x3][offset]}); 0 for globals, which are addressed through relocations
 * @param init     initial bytes (length {@code size}), or null for zero-initialised data
 * @param visible  {@code .visible}/{@code .extern} linkage: a global symbol rather than a local one
 * @param addresses the addresses of module variables in {@code init} (whose bytes there are zero), which the cubin
 *                 relocates; in declaration order of the initializer's elements
 */
public record GlobalVar(String name, Space space, long size, int alignment, long offset, byte[] init,
                        boolean visible, List<Address> addresses) {
    /**
     * An address in a variable's initializer: the 8 bytes at {@code offset} from the variable's start hold the address
     * of variable {@code symbol} plus {@code addend} ({@code generic(x)+N} or {@code x+N} in PTX).
     */
    public record Address(long offset, String symbol, long addend) {
        public Address {
            Objects.requireNonNull(symbol, "symbol");
        }
    }

    /** {@code TEXTURE}: a bound texture reference ({@code .global .texref}), a symbol without data. */
    public enum Space { GLOBAL, CONSTANT, TEXTURE }

    public GlobalVar {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(space, "space");
        if (size < 0 || alignment < 1 || Integer.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("bad size/alignment for " + name);
        }
        if (init != null && init.length != size) {
            throw new IllegalArgumentException("initializer of " + name + " has " + init.length + " bytes, not " + size);
        }
        init = init == null ? null : init.clone();
        addresses = List.copyOf(addresses);
        if (!addresses.isEmpty() && init == null) {
            throw new IllegalArgumentException("addresses in " + name + " without initial bytes");
        }
    }

    /** A variable whose initial bytes (if any) hold no addresses. */
    public GlobalVar(String name, Space space, long size, int alignment, long offset, byte[] init, boolean visible) {
        this(name, space, size, alignment, offset, init, visible, List.of());
    }

    @Override
    public byte[] init() {
        return init == null ? null : init.clone();
    }
}
