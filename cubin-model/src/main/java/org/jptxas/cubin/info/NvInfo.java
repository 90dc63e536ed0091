package org.jptxas.cubin.info;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jptxas.cubin.CubinFormatException;
import org.jptxas.cubin.tables.CubinTables;

/**
 * Decoding and encoding of .nv.info, .nv.info.&lt;f&gt; and .nv.compat sections as {@link Attribute} lists.
 * {@code encode(decode(bytes))} equals {@code bytes} for every well-formed section; a record running past the end is
 * a {@link CubinFormatException}.
 */
public final class NvInfo {
    private NvInfo() {}

    /** Decodes .nv.info records (EIATTR codes). */
    public static List<Attribute> decode(byte[] section, String what) {
        return decode(section, what, false);
    }

    /** Decodes .nv.compat records (EICOMPAT codes; payloads stay raw words). */
    public static List<Attribute> decodeCompat(byte[] section, String what) {
        return decode(section, what, true);
    }

    private static List<Attribute> decode(byte[] b, String what, boolean compat) {
        List<Attribute> out = new ArrayList<>();
        int at = 0;
        while (at < b.length) {
            if (b.length - at < 4) {
                throw new CubinFormatException(what + ": record at 0x" + Integer.toHexString(at) + " is cut short ("
                        + (b.length - at) + " of 4 header bytes)");
            }
            int fmt = b[at] & 0xff;
            int code = b[at + 1] & 0xff;
            int value = (b[at + 2] & 0xff) | (b[at + 3] & 0xff) << 8;
            EiFormat format = EiFormat.of(fmt);
            at += 4;
            if (format == null) {
                throw new CubinFormatException(what + ": record at 0x" + Integer.toHexString(at - 4)
                        + " has unknown format byte 0x" + Integer.toHexString(fmt));
            }
            switch (format) {
                case NVAL -> out.add(value == 0 ? new Attribute.Flag(code) : new Attribute.Raw(fmt, code, value, new byte[0]));
                case BVAL, HVAL -> out.add(new Attribute.Inline(code, format, value));
                case SVAL -> {
                    if (value > b.length - at) {
                        throw new CubinFormatException(what + ": record at 0x" + Integer.toHexString(at - 4) + " ("
                                + (compat ? "code " + code : "EIATTR_" + nameOf(code)) + ") declares " + value
                                + " payload bytes but only " + (b.length - at) + " remain");
                    }
                    byte[] payload = Arrays.copyOfRange(b, at, at + value);
                    at += value;
                    out.add(compat ? sized(code, payload, CubinTables.Payload.auto) : sized(code, payload,
                            CubinTables.eiattr(code).map(CubinTables.Eiattr::payload).orElse(CubinTables.Payload.auto)));
                }
                default -> throw new AssertionError(format);
            }
        }
        return out;
    }

    private static Attribute sized(int code, byte[] p, CubinTables.Payload kind) {
        switch (kind) {
            case symbolValue -> {
                if (p.length == 8) {
                    return new Attribute.SymbolValue(code, Payloads.word(p, 0), Payloads.word(p, 4));
                }
            }
            case kparamInfo -> {
                if (p.length == 12) {
                    int w1 = Payloads.word(p, 4);
                    Attribute.KParamInfo k = Attribute.KParamInfo.ofPacked(Payloads.word(p, 0), w1 & 0xffff, w1 >>> 16,
                            Payloads.word(p, 8));
                    if (Arrays.equals(k.payload(), p)) {
                        return k;
                    }
                }
            }
            case paramCbank -> {
                if (p.length == 8) {
                    int w1 = Payloads.word(p, 4);
                    return new Attribute.ParamCbank(Payloads.word(p, 0), w1 & 0xffff, w1 >>> 16);
                }
            }
            default -> { }
        }
        if (p.length % 4 == 0) {
            return new Attribute.Words(code, Payloads.toWords(p));
        }
        return new Attribute.Raw(EiFormat.SVAL.code, code, p.length, p);
    }

    private static String nameOf(int code) {
        return CubinTables.eiattr(code).map(CubinTables.Eiattr::name).orElse(String.format("0x%02x", code));
    }

    /** Encodes records back into section bytes. */
    public static byte[] encode(List<? extends Attribute> attributes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Attribute a : attributes) {
            int fmt = a instanceof Attribute.Raw r ? r.formatByte() : a.format().code;
            int hv = a.headerValue();
            out.write(fmt);
            out.write(a.code());
            out.write(hv);
            out.write(hv >>> 8);
            out.writeBytes(a.payload());
        }
        return out.toByteArray();
    }
}
