package org.jptxas.simulator.exec;

import java.util.Locale;
import java.util.Optional;
import org.jptxas.simulator.memory.GlobalMemory;
import org.jptxas.simulator.memory.Region;
import org.jptxas.simulator.numeric.AtomicFloatAdd;
import org.jptxas.simulator.numeric.SmallFloats;

/**
 * The element-wise operation of a bulk reduction ({@code cp.reduce.async.bulk[.tensor]}, SASS {@code UBLKRED} and
 * {@code UTMAREDG}), shared by the PTX interpreter and the SASS emulator: each element of the destination becomes
 * {@code op(destination, source)}, the source being shared memory. Integer {@code inc}/{@code dec} wrap at the source
 * value as {@code red}'s do; floating-point {@code add} rounds to nearest even (f16/bf16 through binary64, whose sum
 * of two f16 values is exact), f16/bf16 {@code min}/{@code max} take the number when one operand is NaN and order
 * -0 below +0.
 */
public record BulkReduction(Op op, Element element) {
    /** The reduction operation. */
    public enum Op {
        ADD, MIN, MAX, INC, DEC, AND, OR, XOR;

        /** The operation named by a PTX qualifier or SASS modifier ({@code add}, {@code MIN}, ...), if any. */
        public static Optional<Op> named(String name) {
            for (Op o : values()) {
                if (o.name().equalsIgnoreCase(name)) {
                    return Optional.of(o);
                }
            }
            return Optional.empty();
        }
    }

    /** The element type: its size and how its bits compare and add. */
    public enum Element {
        U32(4, false, false), S32(4, true, false), U64(8, false, false), S64(8, true, false), F32(4, true, true),
        F64(8, true, true), F16(2, true, true), BF16(2, true, true);

        private final int bytes;
        private final boolean signed;
        private final boolean floating;

        Element(int bytes, boolean signed, boolean floating) {
            this.bytes = bytes;
            this.signed = signed;
            this.floating = floating;
        }

        public int bytes() {
            return bytes;
        }

        /** The element of a PTX type name ({@code b32} as u32, {@code b64} as u64), if modelled. */
        public static Optional<Element> ofPtx(String type) {
            return switch (type) {
                case "b32", "u32" -> Optional.of(U32);
                case "b64", "u64" -> Optional.of(U64);
                case "s32", "s64", "f32", "f64", "f16", "bf16" -> Optional.of(valueOf(type.toUpperCase(Locale.ROOT)));
                default -> Optional.empty();
            };
        }

        /**
         * The element of a SASS type modifier ({@code U32}, {@code S64}, {@code BF16}, ...; the bitwise operations'
         * {@code U64} stands for b64), if modelled.
         */
        public static Optional<Element> ofSass(String type) {
            return switch (type) {
                case "U32", "S32", "U64", "S64", "F32", "F64", "F16", "BF16" -> Optional.of(valueOf(type));
                default -> Optional.empty();
            };
        }

        /** The element of a CUtensorMapDataType (2 u32, 3 s32, 4 u64, 5 s64, 7 f32, 8 f64), if modelled. */
        public static Optional<Element> ofTensorMap(int dataType) {
            return switch (dataType) {
                case 2 -> Optional.of(U32);
                case 3 -> Optional.of(S32);
                case 4 -> Optional.of(U64);
                case 5 -> Optional.of(S64);
                case 7 -> Optional.of(F32);
                case 8 -> Optional.of(F64);
                default -> Optional.empty();
            };
        }
    }

    /**
     * The reduction, or empty where PTX has no such form or it is not modelled (f32/f64 allow only add, f16/bf16 add,
     * min and max; inc and dec only u32).
     */
    public static Optional<BulkReduction> of(Op op, Element element) {
        boolean half = element == Element.F16 || element == Element.BF16;
        if (element.floating && op != Op.ADD && !(half && (op == Op.MIN || op == Op.MAX))
                || (op == Op.INC || op == Op.DEC) && element != Element.U32) {
            return Optional.empty();
        }
        return Optional.of(new BulkReduction(op, element));
    }

    /** The reduction of a PTX operation on a PTX type name ({@link Element#ofPtx}), if there is one. */
    public static Optional<BulkReduction> ofPtx(Op op, String type) {
        return Element.ofPtx(type).flatMap(e -> of(op, e));
    }

    /** The reduction of an operation on a SASS type modifier ({@link Element#ofSass}), if there is one. */
    public static Optional<BulkReduction> ofSass(Op op, String type) {
        return Element.ofSass(type).flatMap(e -> of(op, e));
    }

    /** {@code op(old, b)} on one element's bits (the low {@code bytes} of each). */
    public long apply(long old, long b) {
        long mask = element.bytes == 8 ? -1L : (1L << 8 * element.bytes) - 1;
        long o = old & mask;
        long v = b & mask;
        if (element == Element.F16 || element == Element.BF16) {
            return half((int) o, (int) v);
        }
        if (element.floating) {
            return element == Element.F32
                    ? AtomicFloatAdd.f32(o, v) & mask
                    : AtomicFloatAdd.f64(o, v);
        }
        int order = element.signed ? Long.compare(signExtend(o), signExtend(v)) : Long.compareUnsigned(o, v);
        return switch (op) {
            case ADD -> o + v;
            case MIN -> order <= 0 ? o : v;
            case MAX -> order >= 0 ? o : v;
            case INC -> Long.compareUnsigned(o, v) >= 0 ? 0 : o + 1;
            case DEC -> o == 0 || Long.compareUnsigned(o, v) > 0 ? v : o - 1;
            case AND -> o & v;
            case OR -> o | v;
            case XOR -> o ^ v;
        } & mask;
    }

    private long half(int a, int b) {
        boolean bf16 = element == Element.BF16;
        double x = bf16 ? SmallFloats.bf16ToFloat(a) : SmallFloats.halfToFloat(a);
        double y = bf16 ? SmallFloats.bf16ToFloat(b) : SmallFloats.halfToFloat(b);
        if (op == Op.ADD) {
            double sum = x + y;
            return Double.isNaN(sum) ? SmallFloats.CANONICAL_NAN16
                    : bf16 ? SmallFloats.toBf16(sum) : SmallFloats.toHalf(sum);
        }
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return Double.isNaN(x) && Double.isNaN(y) ? SmallFloats.CANONICAL_NAN16 : Double.isNaN(x) ? b : a;
        }
        int order = x == y ? Boolean.compare((a & 0x8000) == 0, (b & 0x8000) == 0) : Double.compare(x, y);
        return op == Op.MIN ? order <= 0 ? a : b : order >= 0 ? a : b;
    }

    private long signExtend(long bits) {
        return element.bytes == 8 ? bits : (int) bits;
    }

    /**
     * Byte-addressed memory a bulk reduction reads and writes: global memory, or the shared memory of the executing
     * block or of a peer block in its cluster.
     */
    public interface Bytes {
        int load8(long address);

        void store8(long address, int value);

        static Bytes of(Region region) {
            return new Bytes() {
                @Override
                public int load8(long address) {
                    return region.load8(address);
                }

                @Override
                public void store8(long address, int value) {
                    region.store8(address, value);
                }
            };
        }

        static Bytes of(GlobalMemory global) {
            return new Bytes() {
                @Override
                public int load8(long address) {
                    return (int) global.load(address, 1);
                }

                @Override
                public void store8(long address, int value) {
                    global.store(address, 1, value);
                }
            };
        }
    }

    /**
     * Reduces the {@code bytes} bytes of {@code source} at {@code from} into {@code destination} at {@code to}: the
     * source is read whole, then the destination, then the results written, so a fault in either leaves the
     * destination as it was; a length that is not a multiple of the element size throws after the reads, before any
     * write.
     */
    public void reduce(Bytes destination, long to, Bytes source, long from, int bytes) {
        byte[] data = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            data[i] = (byte) source.load8(from + i);
        }
        byte[] now = new byte[bytes];
        for (int i = 0; i < bytes; i++) {
            now[i] = (byte) destination.load8(to + i);
        }
        into(now, data);
        for (int i = 0; i < bytes; i++) {
            destination.store8(to + i, now[i] & 0xff);
        }
    }

    /**
     * Reduces {@code source} (little-endian elements) into {@code destination} in place; a length that is not a
     * multiple of the element size throws.
     */
    public void into(byte[] destination, byte[] source) {
        if (source.length != destination.length || source.length % element.bytes != 0) {
            throw new IllegalArgumentException("bulk reduction of " + source.length + " bytes in elements of "
                    + element.bytes);
        }
        for (int at = 0; at < source.length; at += element.bytes) {
            long r = apply(read(destination, at), read(source, at));
            for (int k = 0; k < element.bytes; k++) {
                destination[at + k] = (byte) (r >>> 8 * k);
            }
        }
    }

    private long read(byte[] bytes, int at) {
        long v = 0;
        for (int k = element.bytes - 1; k >= 0; k--) {
            v = v << 8 | bytes[at + k] & 0xff;
        }
        return v;
    }
}
