package org.jptxas.cubin.info;

import java.util.Arrays;
import org.jptxas.cubin.tables.CubinTables;

/**
 * One .nv.info (or .nv.compat) record: a 4-byte header {@code [format u8][code u8][value or size u16]} and, for
 * {@link EiFormat#SVAL}, a payload. The typed forms cover what ptxas writes; anything else is {@link Raw}, so every
 * record survives a decode/encode round trip byte for byte.
 */
public sealed interface Attribute {
    /** The EIATTR (or EICOMPAT) code. */
    int code();

    EiFormat format();

    /** The SVAL payload; empty for the inline formats. */
    byte[] payload();

    /** The 16-bit header value: the inline value, or the payload size for SVAL. */
    default int headerValue() {
        return payload().length;
    }

    /** The EIATTR name without prefix, or {@code 0x..} for a code the table does not know. */
    default String name() {
        return CubinTables.eiattr(code()).map(CubinTables.Eiattr::name).orElse(String.format("0x%02x", code()));
    }

    /** {@link EiFormat#NVAL}: presence only. */
    record Flag(int code) implements Attribute {
        public EiFormat format() {
            return EiFormat.NVAL;
        }

        public byte[] payload() {
            return new byte[0];
        }

        @Override
        public int headerValue() {
            return 0;
        }
    }

    /** {@link EiFormat#BVAL} or {@link EiFormat#HVAL}: the value inside the header. */
    record Inline(int code, EiFormat format, int value) implements Attribute {
        public Inline {
            if (format != EiFormat.BVAL && format != EiFormat.HVAL) {
                throw new IllegalArgumentException("inline attribute with format " + format);
            }
        }

        public byte[] payload() {
            return new byte[0];
        }

        @Override
        public int headerValue() {
            return value & 0xffff;
        }
    }

    /** SVAL {@code [symbol u32][value u32]}: REGCOUNT, FRAME_SIZE, MIN_STACK_SIZE, MAX_STACK_SIZE per function. */
    record SymbolValue(int code, int symbol, int value) implements Attribute {
        public EiFormat format() {
            return EiFormat.SVAL;
        }

        public byte[] payload() {
            return Payloads.words(symbol, value);
        }
    }

    /** SVAL list of 32-bit words: instruction offsets, SW_WAR, CUDA_API_VERSION, MAX_THREADS, ... */
    record Words(int code, int[] words) implements Attribute {
        public Words {
            words = words.clone();
        }

        @Override
        public int[] words() {
            return words.clone();
        }

        public EiFormat format() {
            return EiFormat.SVAL;
        }

        public byte[] payload() {
            return Payloads.words(words);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Words w && w.code == code && Arrays.equals(w.words, words);
        }

        @Override
        public int hashCode() {
            return code * 31 + Arrays.hashCode(words);
        }

        @Override
        public String toString() {
            return "Words[" + name() + " " + Arrays.toString(words) + "]";
        }
    }

    /** PARAM_CBANK {@code [symbol of .nv.constant0.<f> u32][offset u16][size u16]}. */
    record ParamCbank(int symbol, int offset, int size) implements Attribute {
        public static final int CODE = 0x0a;

        public int code() {
            return CODE;
        }

        public EiFormat format() {
            return EiFormat.SVAL;
        }

        public byte[] payload() {
            return Payloads.words(symbol, (offset & 0xffff) | size << 16);
        }
    }

    /**
     * KPARAM_INFO {@code [index u32][ordinal u16][offset u16][packed u32]}; the packed word holds the pointee's log2
     * alignment [7:0], space [11:8], constant bank [16:12] (0x1f), a flag bit 17 (0 for parameters in a constant
     * bank) and the size in bytes [31:18].
     */
    record KParamInfo(int index, int ordinal, int offset, int logAlignment, int space, int cbank, boolean flag17,
                      int size) implements Attribute {
        public static final int CODE = 0x17;

        public static KParamInfo cbankParameter(int ordinal, int offset, int size) {
            return new KParamInfo(0, ordinal, offset, 0, 0, 0x1f, false, size);
        }

        public int code() {
            return CODE;
        }

        public EiFormat format() {
            return EiFormat.SVAL;
        }

        public int packed() {
            return (logAlignment & 0xff) | (space & 0xf) << 8 | (cbank & 0x1f) << 12 | (flag17 ? 1 << 17 : 0)
                    | (size & 0x3fff) << 18;
        }

        public static KParamInfo ofPacked(int index, int ordinal, int offset, int packed) {
            return new KParamInfo(index, ordinal, offset, packed & 0xff, (packed >>> 8) & 0xf, (packed >>> 12) & 0x1f,
                    (packed & 1 << 17) != 0, packed >>> 18);
        }

        public byte[] payload() {
            return Payloads.words(index, (ordinal & 0xffff) | offset << 16, packed());
        }
    }

    /** Any record kept as read: unknown codes, odd payload sizes, unknown formats. */
    record Raw(int formatByte, int code, int headerValue, byte[] payload) implements Attribute {
        public Raw {
            payload = payload.clone();
        }

        public EiFormat format() {
            return EiFormat.of(formatByte);
        }

        @Override
        public byte[] payload() {
            return payload.clone();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Raw r && r.formatByte == formatByte && r.code == code && r.headerValue == headerValue
                    && Arrays.equals(r.payload, payload);
        }

        @Override
        public int hashCode() {
            return (formatByte * 31 + code) * 31 + Arrays.hashCode(payload);
        }
    }
}
