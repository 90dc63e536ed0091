package org.jptxas.isel.cubin;

import java.util.ArrayList;
import java.util.List;

/**
 * Encoding, decoding and application of relocation sections: Elf64_Rel (16 bytes) and Elf64_Rela (24 bytes), with
 * {@code r_info} = symbol &lt;&lt; 32 | type.
 */
public final class Relocations {
    private Relocations() {}

    public static int entrySize(boolean withAddend) {
        return withAddend ? 24 : 16;
    }

    public static List<Relocation> decode(Section section) {
        boolean rela = section.type() == SectionType.RELA || section.type() == SectionType.CUDA_MERC_RELA;
        int size = entrySize(rela);
        byte[] b = section.data();
        if (b.length % size != 0) {
            throw new CubinFormatException("section " + section.name() + ": size " + b.length
                    + " is not a multiple of the " + size + "-byte relocation entry");
        }
        ByteReader in = new ByteReader(b, "section " + section.name());
        List<Relocation> out = new ArrayList<>();
        for (int at = 0; at < b.length; at += size) {
            long info = in.u64(at + 8, "r_info");
            out.add(new Relocation(in.u64(at, "r_offset"), (int) (info >>> 32), (int) info, rela ? in.u64(at + 16, "r_addend") : 0));
        }
        return out;
    }

    public static byte[] encode(List<Relocation> relocations, boolean withAddend) {
        ByteWriter w = new ByteWriter(relocations.size() * entrySize(withAddend));
        for (Relocation r : relocations) {
            w.u64(r.offset()).u64((long) r.symbol() << 32 | (r.type() & 0xffffffffL));
            if (withAddend) {
                w.u64(r.addend());
            }
        }
        return w.toByteArray();
    }

    /**
     * Writes {@code value} into the field that relocation type {@code type} names: {@code R_CUDA_32}/{@code 64}
     * write a little-endian word at {@code offset}; {@code ABS32_LO_32}/{@code ABS32_HI_32}/{@code ABS32_32} the
     * low, high or whole 32-bit value at bits [63:32] of the instruction; {@code ABS47_34} the code address in 4-byte units at bits [80:34]; {@code ABS55_16_34} (sm_90+) the same split
     * into bits [23:16] and [80:34]; other
     * {@code <width>_<bit>} types the low {@code width} bits at bit {@code bit}.
     *
     * @throws IllegalArgumentException for a type whose field is not a plain bit range (descriptors, slots, ...)
     */
    public static void apply(byte[] code, long offset, int type, long value) {
        String name = new Relocation(0, 0, type, 0).typeName().substring("R_CUDA_".length());
        switch (name) {
            case "32" -> put(code, offset * 8, 32, value);
            case "64" -> put(code, offset * 8, 64, value);
            case "ABS55_16_34", "ABS56_16_34" -> {
                // sm_90+ code addresses in 4-byte units, split: the low 8 bits at [23:16], the rest from bit 34
                // (nvdisasm -b SM90 decodes CALL.ABS.NOINC this way, bit by bit).
                int width = Integer.parseInt(name.substring(3, 5));
                long units = value >>> 2;
                put(code, offset * 8 + 16, 8, units & 0xff);
                put(code, offset * 8 + 34, width - 8, units >>> 8);
            }
            default -> {
                java.util.regex.Matcher c = java.util.regex.Pattern.compile("CONST_FIELD(\\d+)_(\\d+)").matcher(name);
                if (c.matches()) {
                    // A constant-bank operand: the value is (bank << 16 | byte offset) for the 21-bit field of
                    // sm_90+ (CONST_FIELD21_38), (bank << 14 | offset / 4) for the 19-bit field of sm_7x/8x
                    // (CONST_FIELD19_40); either way the low <width> bits go in from <bit> on.
                    put(code, offset * 8 + Integer.parseInt(c.group(2)), Integer.parseInt(c.group(1)), value);
                    return;
                }
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("ABS(\\d+)(_LO|_HI)?_(\\d+)").matcher(name);
                if (!m.matches()) {
                    throw new IllegalArgumentException("relocation " + name + " is not applied by jptxas");
                }
                int width = Integer.parseInt(m.group(1));
                int bit = Integer.parseInt(m.group(3));
                long v = "_HI".equals(m.group(2)) ? value >>> 32 : "_LO".equals(m.group(2)) ? value & 0xffffffffL : value;
                if (bit == 34 && m.group(2) == null) {
                    // Code-address fields at bit 34 (calls, branches) hold the address in 4-byte units: nvdisasm
                    // decodes CALL.ABS.NOINC's target as the field << 2.
                    v >>>= 2;
                }
                put(code, offset * 8 + bit, width, v);
            }
        }
    }

    private static void put(byte[] code, long bit, int width, long value) {
        for (int i = 0; i < width; i++) {
            long b = bit + i;
            int idx = (int) (b >>> 3);
            int mask = 1 << (b & 7);
            if ((value >>> i & 1) != 0) {
                code[idx] |= (byte) mask;
            } else {
                code[idx] &= (byte) ~mask;
            }
        }
    }
}
