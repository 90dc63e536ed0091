package org.jptxas.simulator.exec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.jptxas.simulator.memory.GlobalMemory;

/**
 * The 128-byte tensor map ({@code CUtensorMap}) that {@code cp.async.bulk.tensor} (UTMALDG/UTMASTG) reads, in the
 * project's layout (the driver's own is opaque; a launch or test writes this one), shared by the PTX interpreter and
 * the SASS emulator. Little-endian fields:
 * <pre>
 *   0x00 u64     global address of element (0, ..., 0), 16-byte aligned
 *   0x08 u32[5]  global dimensions in elements (dimension 0 is the contiguous one)
 *   0x1c u32     reserved, 0
 *   0x20 u64[4]  global strides in bytes of dimensions 1..4 (multiples of 16)
 *   0x40 u32[5]  box dimensions in elements (1..256)
 *   0x54 u32[5]  element strides (1..8): the box takes every e-th element, ceil(box / e) of them
 *   0x68 u8      rank (1..5)
 *   0x69 u8      data type (CUtensorMapDataType: 0 u8, 1 u16, 2 u32, 3 s32, 4 u64, 5 s64, 6 f16, 7 f32, 8 f64,
 *                9 bf16, 10 f32 ftz, 11 tf32, 12 tf32 ftz)
 *   0x6a u8      interleave (0: none)
 *   0x6b u8      swizzle (CUtensorMapSwizzle: 0 none, 1 32 B, 2 64 B, 3 128 B)
 *   0x6c u8      L2 promotion (a cache hint: ignored)
 *   0x6d u8      out-of-bounds fill (CUtensorMapFloatOOBfill: 0 zeros, 1 NaN, floating types only)
 *   0x6e..0x7f   reserved, 0
 * </pre>
 * Tile mode only: a box at signed coordinates {@code c} is laid out densely in shared memory (dimension 0 fastest);
 * an element whose coordinate lies outside {@code [0, dim)} in any dimension reads as zero and is not written by a
 * store. A load completes the whole box's bytes on its mbarrier, out-of-bounds elements included. With a swizzle of
 * span S (32, 64 or 128 bytes) a box row (dimension 0) must be exactly S bytes and the box's shared address 128-byte
 * aligned; its 16-byte chunk at shared address {@code a} lands at {@code a ^ ((a >> 7) & (S / 16 - 1)) << 4} (bits
 * [6:4] XORed with bits [9:7], masked to the span: the layouts wgmma's swizzled descriptors read, see
 * {@link WarpgroupMma}). With NaN fill an out-of-bounds element of a floating type loads as the type's NaN with every
 * bit but the sign set (the GPU's canonical NaN; the suite compares any NaN equal to any other). Interleave is refused
 * by name (not modelled yet).
 */
public record TensorMap(long address, int rank, int elementBytes, long[] dims, long[] strides, int[] box,
        int[] elementStrides, int swizzle, long outOfBounds, int dataType) {
    public static final int BYTES = 128;

    /** Element sizes by data type. */
    private static final int[] ELEMENT_BYTES = {1, 2, 4, 4, 8, 8, 2, 4, 8, 2, 4, 4, 4};

    /** The map at generic/global address {@code at}; a malformed or unmodelled map throws with a message. */
    public static TensorMap read(GlobalMemory global, long at) {
        if ((at & 63) != 0) {
            throw new IllegalArgumentException("tensor map at 0x" + Long.toHexString(at) + " is not 64-byte aligned");
        }
        int rank = (int) global.load(at + 0x68, 1);
        int type = (int) global.load(at + 0x69, 1);
        if (rank < 1 || rank > 5) {
            throw new IllegalArgumentException("tensor map rank " + rank);
        }
        if (type >= ELEMENT_BYTES.length) {
            throw new IllegalArgumentException("tensor map data type " + type);
        }
        long interleave = global.load(at + 0x6a, 1);
        if (interleave != 0) {
            throw new IllegalArgumentException("tensor map interleave " + interleave + " (not modelled)");
        }
        long fill = global.load(at + 0x6d, 1);
        if (fill > 1 || fill == 1 && type < 6) {
            throw new IllegalArgumentException("tensor map out-of-bounds fill " + fill + (fill == 1
                    ? " (NaN) of the integer data type " + type : " (not modelled)"));
        }
        long outOfBounds = fill == 0 ? 0 : ELEMENT_BYTES[type] == 2 ? 0x7fff : ELEMENT_BYTES[type] == 4 ? 0x7fffffffL
                : Long.MAX_VALUE;
        int swizzle = (int) global.load(at + 0x6b, 1);
        if (swizzle > 3) {
            throw new IllegalArgumentException("tensor map swizzle " + swizzle + " (not modelled)");
        }
        long[] dims = new long[rank];
        long[] strides = new long[rank];
        int[] box = new int[rank];
        int[] steps = new int[rank];
        for (int d = 0; d < rank; d++) {
            dims[d] = global.load(at + 0x08 + 4L * d, 4);
            strides[d] = d == 0 ? ELEMENT_BYTES[type] : global.load(at + 0x20 + 8L * (d - 1), 8);
            box[d] = (int) global.load(at + 0x40 + 4L * d, 4);
            steps[d] = (int) global.load(at + 0x54 + 4L * d, 4);
            if (box[d] < 1 || box[d] > 256 || steps[d] < 1 || steps[d] > 8 || dims[d] < 1) {
                throw new IllegalArgumentException("tensor map dimension " + d + ": size " + dims[d] + ", box "
                        + box[d] + ", element stride " + steps[d]);
            }
        }
        TensorMap map = new TensorMap(global.load(at, 8), rank, ELEMENT_BYTES[type], dims, strides, box, steps,
                swizzle, outOfBounds, type);
        if (swizzle != 0 && map.extent(0) * map.elementBytes != map.swizzleSpan()) {
            throw new IllegalArgumentException("tensor map swizzle of " + map.swizzleSpan() + " bytes with box rows of "
                    + map.extent(0) * map.elementBytes + " bytes (not modelled: rows must be the swizzle span)");
        }
        return map;
    }

    /**
     * Reduces the box at {@code coords} in global memory by {@code data} (shared memory's bytes, as
     * {@link #fromShared} orders them), element by element with {@code op} on the map's data type
     * ({@code cp.reduce.async.bulk.tensor}); out-of-bounds elements are left alone.
     */
    public void reduce(GlobalMemory global, int[] coords, byte[] data, BulkReduction.Op op) {
        BulkReduction r = BulkReduction.Element.ofTensorMap(dataType).flatMap(e -> BulkReduction.of(op, e))
                .orElseThrow(() -> new IllegalArgumentException("tensor reduction ." + op.name().toLowerCase()
                        + " of tensor map data type " + dataType + " (not modelled)"));
        byte[] box = load(global, coords);
        r.into(box, data);
        store(global, coords, box);
    }

    /** Bytes of one swizzle pattern row (32, 64 or 128), 0 without swizzle. */
    private int swizzleSpan() {
        return swizzle == 0 ? 0 : 16 << swizzle;
    }

    /** The 128 bytes of a tensor map of the tensor at {@code address} (the fields as {@link #read} takes them). */
    public static byte[] encode(long address, int dataType, List<Long> dims, List<Long> strides, List<Integer> box,
            List<Integer> elementStrides, int swizzle) {
        ByteBuffer b = ByteBuffer.allocate(BYTES).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(0, address);
        for (int d = 0; d < dims.size(); d++) {
            b.putInt(0x08 + 4 * d, (int) (long) dims.get(d));
            b.putInt(0x40 + 4 * d, box.get(d));
            b.putInt(0x54 + 4 * d, elementStrides.get(d));
        }
        for (int d = 0; d < strides.size(); d++) {
            b.putLong(0x20 + 8 * d, strides.get(d));
        }
        b.put(0x68, (byte) dims.size());
        b.put(0x69, (byte) dataType);
        b.put(0x6b, (byte) swizzle);
        return b.array();
    }

    /** Elements of the box along dimension {@code d}. */
    private int extent(int d) {
        return (box[d] + elementStrides[d] - 1) / elementStrides[d];
    }

    /** The bytes of one box in shared memory (what a load completes on its mbarrier). */
    public int boxBytes() {
        int n = elementBytes;
        for (int d = 0; d < rank; d++) {
            n *= extent(d);
        }
        return n;
    }

    /** The box at {@code coords} read from global memory, out-of-bounds elements zero or NaN (the map's fill). */
    public byte[] load(GlobalMemory global, int[] coords) {
        byte[] data = new byte[boxBytes()];
        walk(coords, (element, at) -> {
            for (int b = 0; b < elementBytes; b++) {
                long v = at >= 0 ? global.load(at + b, 1) : outOfBounds >>> 8 * b;
                data[element * elementBytes + b] = (byte) v;
            }
        });
        return data;
    }

    /** Writes the box at {@code coords} from {@code data} (shared memory's bytes), skipping out-of-bounds elements. */
    public void store(GlobalMemory global, int[] coords, byte[] data) {
        walk(coords, (element, at) -> {
            if (at >= 0) {
                for (int b = 0; b < elementBytes; b++) {
                    global.store(at + b, 1, data[element * elementBytes + b] & 0xff);
                }
            }
        });
    }

    /**
     * The bytes of a box ({@link #load}'s dense order) as they lie in shared memory from {@code sharedAddress}: the
     * same without swizzle, else with each 16-byte chunk moved as the class comment describes.
     */
    public byte[] toShared(byte[] box, long sharedAddress) {
        return permute(box, sharedAddress, true);
    }

    /** The inverse of {@link #toShared}: the dense box of the bytes shared memory holds from {@code sharedAddress}. */
    public byte[] fromShared(byte[] image, long sharedAddress) {
        return permute(image, sharedAddress, false);
    }

    private byte[] permute(byte[] from, long sharedAddress, boolean toShared) {
        if (swizzle == 0) {
            return from;
        }
        if ((sharedAddress & 127) != 0) {
            throw new IllegalArgumentException("a swizzled tensor copy at shared address 0x"
                    + Long.toHexString(sharedAddress) + ", which is not 128-byte aligned");
        }
        byte[] to = new byte[from.length];
        long mask = swizzleSpan() / 16 - 1;
        for (int i = 0; i < from.length; i += 16) {
            long a = sharedAddress + i;
            int moved = (int) ((a ^ (a >>> 7 & mask) << 4) - sharedAddress);
            System.arraycopy(from, toShared ? i : moved, to, toShared ? moved : i, 16);
        }
        return to;
    }

    private interface ElementVisitor {
        /** Element number {@code element} of the box at global address {@code at}, or -1 when out of bounds. */
        void visit(int element, long at);
    }

    private void walk(int[] coords, ElementVisitor visitor) {
        if (coords.length != rank) {
            throw new IllegalArgumentException(coords.length + " coordinates for a rank-" + rank + " tensor map");
        }
        int count = boxBytes() / elementBytes;
        int[] index = new int[rank];
        for (int e = 0; e < count; e++) {
            long at = address;
            for (int d = 0; d < rank && at >= 0; d++) {
                long c = (long) coords[d] + (long) index[d] * elementStrides[d];
                at = c < 0 || c >= dims[d] ? -1 : at + c * strides[d];
            }
            visitor.visit(e, at);
            for (int d = 0; d < rank; d++) {
                if (++index[d] < extent(d)) {
                    break;
                }
                index[d] = 0;
            }
        }
    }
}
