package org.jptxas.sass;

/**
 * How an operand field's value is printed and parsed. Register kinds print a prefix and the number, with the zero
 * register / true predicate by name: the all-ones value of the field's width ({@link #zeroValue(int)}: RZ 255, PT 7,
 * URZ 63 in sm_75 … sm_90's 6-bit uniform fields and 255 in Blackwell's 8-bit ones); number kinds print nvdisasm's hex or float syntax; {@link #LABEL} is a
 * branch offset relative to the next instruction, printed as a label (cubin) or absolute address (raw).
 */
public enum SlotKind {
    GPR("R", "RZ", 255),
    UGPR("UR", "URZ", 63),
    PRED("P", "PT", 7),
    UPRED("UP", "UPT", 7),
    BAR("B", null, -1),
    SB("SB", null, -1),
    /** Unsigned hex: {@code 0x1f}. */
    HEX(null, null, -1),
    /** Two's complement in the field's width: {@code 0x10}, {@code -0x10}. */
    SHEX(null, null, -1),
    /** Two's complement with an explicit sign, as in addresses: {@code +0x10}, {@code +-0x10}. */
    SHEX_PLUS(null, null, -1),
    /** IEEE binary32 bits. */
    F32(null, null, -1),
    /** The high 32 bits of an IEEE binary64 (the low half is zero). */
    F64HI(null, null, -1),
    /** IEEE binary16 bits. */
    F16(null, null, -1),
    /** Signed branch offset from the next instruction, in units of {@code 1 << shift} bytes. */
    LABEL(null, null, -1);

    private final String prefix;
    private final String zeroName;
    private final long zeroValue;

    SlotKind(String prefix, String zeroName, long zeroValue) {
        this.prefix = prefix;
        this.zeroName = zeroName;
        this.zeroValue = zeroValue;
    }

    public boolean isRegister() {
        return prefix != null;
    }

    public String prefix() {
        return prefix;
    }

    /**
     * The value of the zero register or true predicate in the kind's usual field width ({@code RZ}: 255, {@code URZ}:
     * 63 in the 6-bit fields of sm_75 … sm_90), or -1 for kinds without one.
     */
    public long zeroValue() {
        return zeroName == null ? -1 : zeroValue;
    }

    /**
     * The value of the zero register or true predicate in a field of {@code width} bits: all ones, so that
     * {@code URZ} is 63 in a 6-bit uniform field and 255 in an 8-bit one; -1 for kinds without one. The decoder also
     * reads the narrow value in a wide field as the zero register, as NVIDIA's Blackwell disassembler does (older
     * sm_100 code holds URZ as 63 in the 8-bit fields, and no UR63 is ever printed); the assembler writes all ones.
     */
    public long zeroValue(int width) {
        return zeroName == null ? -1 : (1L << width) - 1;
    }

    /** The name of the zero register or true predicate ({@code RZ}, {@code URZ}, {@code PT}, {@code UPT}), or null. */
    public String zeroName() {
        return zeroName;
    }

    /** The register kind printed with {@code prefix}, or null. */
    public static SlotKind forPrefix(String prefix) {
        for (SlotKind k : values()) {
            if (prefix.equals(k.prefix)) {
                return k;
            }
        }
        return null;
    }

    static long signExtend(long v, int width) {
        return width >= 64 ? v : (v << (64 - width)) >> (64 - width);
    }

    /** Appends the text of a field value ({@code value} is the unsigned field content, {@code width} bits). */
    void render(long value, int width, int shift, long address, LabelNamer labels, StringBuilder out) {
        switch (this) {
            case GPR, UGPR, PRED, UPRED, BAR, SB -> {
                if (zeroName != null && (value == zeroValue(width) || value == zeroValue)) {
                    out.append(zeroName);
                } else {
                    out.append(prefix).append(value);
                }
            }
            case HEX -> out.append("0x").append(Long.toHexString(value << shift));
            case SHEX, SHEX_PLUS -> {
                long v = signExtend(value, width) << shift;
                if (v < 0) {
                    out.append(this == SHEX_PLUS ? "+-0x" : "-0x").append(Long.toHexString(-v));
                } else {
                    out.append(this == SHEX_PLUS ? "+0x" : "0x").append(Long.toHexString(v));
                }
            }
            case F32 -> appendFloat(FloatText.format(Float.intBitsToFloat((int) value)), out);
            case F64HI -> appendFloat(FloatText.formatBinary64(value << 32), out);
            case F16 -> appendFloat(FloatText.format(FloatText.halfToDouble((int) value)), out);
            case LABEL -> {
                long target = address + 16 + (signExtend(value, width) << shift);
                String name = labels == null ? null : labels.nameOf(target);
                if (name != null) {
                    out.append("`(").append(name).append(')');
                } else if (target < 0) {
                    out.append("-0x").append(Long.toHexString(-target));
                } else {
                    out.append("0x").append(Long.toHexString(target));
                }
            }
            default -> throw new AssertionError(this);
        }
    }

    /** nvdisasm follows INF, QNAN and SNAN with a blank (dropped again at the end of the text). */
    private static void appendFloat(String text, StringBuilder out) {
        out.append(text);
        if (FloatText.trailingBlank(text)) {
            out.append(' ');
        }
    }

    /**
     * The unsigned field value for {@code lex}, or throws {@link IllegalArgumentException} when the text does not
     * suit this kind or the value does not fit {@code width} bits.
     */
    long encode(Lexeme lex, int width, int shift, long address, LabelResolver labels) {
        long v;
        switch (this) {
            case GPR, UGPR, PRED, UPRED, BAR, SB -> {
                if (lex.type() != Lexeme.Type.REG || !prefix.equals(lex.prefix())) {
                    throw new Misfit("expected a " + prefix + " register, found " + lex.text());
                }
                // the lexer gives URZ its 6-bit number; the field's own width decides (255 in an 8-bit field)
                v = zeroName != null && zeroName.equals(lex.text()) ? zeroValue(width) : lex.number();
            }
            case HEX -> {
                if (lex.type() != Lexeme.Type.HEX || lex.text().charAt(0) == '-' || lex.text().charAt(0) == '+') {
                    throw new Misfit("expected an unsigned hex number, found " + lex.text());
                }
                v = unshift(lex, lex.number(), shift);
            }
            case SHEX, SHEX_PLUS -> {
                if (lex.type() != Lexeme.Type.HEX || (lex.text().charAt(0) == '+') != (this == SHEX_PLUS)) {
                    throw new Misfit("expected a signed hex number, found " + lex.text());
                }
                long s = unshift(lex, lex.number(), shift);
                // A constant-bank offset (a field in 4-byte units, or LDC's 16-bit byte offset) also takes the
                // unsigned offset of the bank's upper half (c[0x3][0x9c40]): the same bits, which nvdisasm prints as
                // the negative offset (-0x63c0)
                if (this == SHEX && (shift > 0 || width <= 16) && width < 64 && s >= (1L << (width - 1)) && s < (1L << width)) {
                    s -= 1L << width;
                }
                if (width < 64 && (s < -(1L << (width - 1)) || s >= (1L << (width - 1)))) {
                    throw new Misfit(lex.text() + " does not fit a signed " + width + "-bit field");
                }
                return width >= 64 ? s : s & ((1L << width) - 1);
            }
            case F32 -> {
                long nan = FloatText.nanBits(lex.text().strip());
                if (nan >= 0) {
                    return nan;
                }
                double d = decimal(lex);
                float f = (float) d;
                if (!Double.isNaN(d) && (double) f != d) {
                    throw new Misfit(lex.text() + " is not a binary32 value");
                }
                v = Double.isNaN(d) ? (d == d ? 0 : (Double.doubleToRawLongBits(d) < 0 ? 0xffc00000L : 0x7fffffffL))
                        : Float.floatToRawIntBits(f) & 0xffffffffL;
            }
            case F64HI -> {
                long nan = FloatText.nanBits(lex.text().strip());
                if (nan >= 0) {
                    return nan;
                }
                long signalling = FloatText.signallingNanHigh(lex.text().strip());
                if (signalling >= 0) {
                    return signalling;
                }
                double d = decimal(lex);
                long bits = Double.isNaN(d) ? (Double.doubleToRawLongBits(d) < 0 ? 0xfff8000000000000L
                        : 0x7fffffff00000000L) : Double.doubleToRawLongBits(d);
                if ((bits & 0xffffffffL) != 0) {
                    throw new Misfit(lex.text() + " needs more than the high 32 bits of a binary64");
                }
                v = bits >>> 32;
            }
            case F16 -> {
                int h = FloatText.doubleToHalfExact(decimal(lex));
                if (h < 0) {
                    throw new Misfit(lex.text() + " is not a binary16 value");
                }
                v = h;
            }
            case LABEL -> {
                long target;
                if (lex.type() == Lexeme.Type.LABEL) {
                    if (labels == null) {
                        throw new Misfit("label " + lex.text() + " with no label table");
                    }
                    target = labels.addressOf(lex.labelName());
                } else if (lex.type() == Lexeme.Type.HEX && lex.text().charAt(0) != '+') {
                    target = lex.number();
                } else {
                    throw new Misfit("expected a branch target, found " + lex.text());
                }
                return branchOffset(target, address, width, shift);
            }
            default -> throw new AssertionError(this);
        }
        if (width < 64 && (v >>> width) != 0) {
            throw new Misfit(lex.text() + " does not fit a " + width + "-bit field");
        }
        return v;
    }

    /**
     * The field content of a branch from the instruction at {@code address} to {@code target}: the offset from the
     * next instruction in units of {@code 1 << shift}, which must fit {@code width} signed bits.
     */
    static long branchOffset(long target, long address, int width, int shift) {
        long rel = target - address - 16;
        if ((rel & ((1L << shift) - 1)) != 0) {
            throw new IllegalArgumentException("branch target 0x" + Long.toHexString(target) + " is misaligned");
        }
        long s = rel >> shift;
        if (s < -(1L << (width - 1)) || s >= (1L << (width - 1))) {
            throw new IllegalArgumentException("branch target 0x" + Long.toHexString(target) + " is out of range");
        }
        return s & ((1L << width) - 1);
    }

    /** A number field in units of {@code 1 << shift} (absolute call targets): the value, which must be aligned. */
    private static long unshift(Lexeme lex, long v, int shift) {
        if ((v & ((1L << shift) - 1)) != 0) {
            throw new Misfit(lex.text() + " is not a multiple of " + (1L << shift));
        }
        return v >> shift;
    }

    private static double decimal(Lexeme lex) {
        if (lex.type() != Lexeme.Type.DEC) {
            throw new Misfit("expected a decimal number, found " + lex.text());
        }
        try {
            return FloatText.parse(lex.text().strip());
        } catch (NumberFormatException e) {
            throw new Misfit("bad number " + lex.text());
        }
    }

    /**
     * Text that does not suit a field. The assembler tries form after form and catches one of these per form that
     * does not fit (about a hundred thousand in a mid-size file's compilation), keeping only the first message, so it
     * carries no stack trace, whose capture cost more than the rest of the search.
     */
    static final class Misfit extends IllegalArgumentException {
        private static final long serialVersionUID = 1L;

        Misfit(String message) {
            super(message);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }
    }
}
