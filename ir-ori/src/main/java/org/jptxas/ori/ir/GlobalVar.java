package org.jptxas.ori.ir;

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
 */
public record GlobalVar(String name, Space space, long size, int alignment, long offset, byte[] init,
                        boolean visible) {
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
    }

    @Override
    public byte[] init() {
        return init == null ? null : init.clone();
    }
}
