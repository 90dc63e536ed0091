package org.jptxas.cubin.info;

/** The record format in byte 0 of an .nv.info record. */
public enum EiFormat {
    /** No value. */
    NVAL(1),
    /** A small value in bytes 2..3 (ptxas uses the low byte). */
    BVAL(2),
    /** A 16-bit value in bytes 2..3. */
    HVAL(3),
    /** Bytes 2..3 give the payload length; the payload follows. */
    SVAL(4);

    public final int code;

    EiFormat(int code) {
        this.code = code;
    }

    public static EiFormat of(int code) {
        for (EiFormat f : values()) {
            if (f.code == code) {
                return f;
            }
        }
        return null;
    }

    /** The name cuobjdump prints, e.g. {@code EIFMT_SVAL}. */
    public String displayName() {
        return "EIFMT_" + name();
    }
}
