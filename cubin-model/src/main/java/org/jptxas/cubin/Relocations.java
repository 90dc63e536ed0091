package org.jptxas.cubin;

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
     * Resolves relocation {@code type} at {@code offset} of {@code code} against {@code target} (symbol value plus
     * addend) as the linker or driver does, computing the field value {@link #apply} writes: for constant-bank
     * fields the bank number comes from the symbol's section ({@code .nv.constant<bank>}); code addresses are in
     * 4-byte units; {@code UNUSED_CLEAR64} clears its word; the YIELD types turn the YIELD into a NOP (opcode
     * 0x118 in bits [8:0]) and clear its predicate field (bits [90:87]), as nvlink does when it drops a yield
     * (it does not always: measured, it kept 199 of 205 in the corpus).
     * {@code UNUSED_CLEAR32/64} name a function that is kept, so nothing is cleared ({@link #apply} clears).
     */
    public static void applyResolved(byte[] code, long offset, int type, long target, int bank) {
        String name = new Relocation(0, 0, type, 0).typeName().substring("R_CUDA_".length());
        if (name.startsWith("UNUSED_CLEAR")) {
            return;
        }
        apply(code, offset, type, switch (name) {
            case "CONST_FIELD19_40" -> (long) bank << 14 | (target >>> 2 & 0x3fff);
            case "CONST_FIELD21_38" -> (long) bank << 16 | (target & 0xffff);
            case "CONST_FIELD22_37" -> (long) bank << 17 | (target & 0x1ffff);
            case "YIELD_OPCODE9_0" -> NOP_OPCODE;
            case "YIELD_CLEAR_PRED4_87" -> 0;
            default -> target;
        });
    }

    /** The 9-bit opcode of NOP on sm_70+ (bits [8:0]). */
    static final long NOP_OPCODE = 0x118;

    /**
     * Writes {@code value} into the field that relocation type {@code type} names:
     * <ul>
     *   <li>{@code R_CUDA_32}/{@code 64} (and {@code G32}/{@code G64}): a little-endian word at {@code offset}; {@code UNUSED_CLEAR32/64}
     *       write zeros there whatever the value (debug data of functions the linker dropped);</li>
     *   <li>{@code ABS32_LO_32}/{@code ABS32_HI_32}/{@code ABS32_32} and {@code UNIFIED32_LO_32/HI_32}: the low,
     *       high or whole 32-bit value at bits [63:32] of the instruction;</li>
     *   <li>{@code ABS47_34}: the code address in 4-byte units at bits [80:34]; {@code ABS55_16_34}/{@code
     *       ABS56_16_34} (sm_90+) the same split into bits [23:16] and [80:34];</li>
     *   <li>{@code CONST_FIELD<w>_<bit>}: the encoded bank/offset operand (see {@link #applyResolved});</li>
     *   <li>{@code TEX_HEADER_INDEX} and {@code SAMP_HEADER_INDEX}: a 32-bit word (a constant-bank slot);</li>
     *   <li>other {@code <name><width>[_LO|_HI]_<bit>} types, such as {@code ABS24_40} (shared-memory offsets of
     *       LDS/STS), {@code ABS20_44} (LDGSTS), {@code BINDLESSOFF14_40}, {@code YIELD_OPCODE9_0} and
     *       {@code YIELD_CLEAR_PRED4_87}: the low {@code width} bits at bit {@code bit}.</li>
     * </ul>
     *
     * @throws IllegalArgumentException for a type whose field is not one of these (descriptors, slots, ...)
     */
    public static void apply(byte[] code, long offset, int type, long value) {
        String name = new Relocation(0, 0, type, 0).typeName().substring("R_CUDA_".length());
        switch (name) {
            case "32", "TEX_HEADER_INDEX", "SAMP_HEADER_INDEX" -> put(code, offset * 8, 32, value);
            case "64", "G64" -> put(code, offset * 8, 64, value); // G64: a generic address in module data
            case "G32" -> put(code, offset * 8, 32, value);
            case "UNUSED_CLEAR32" -> put(code, offset * 8, 32, 0);
            case "UNUSED_CLEAR64" -> put(code, offset * 8, 64, 0);
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
                    // sm_90 (CONST_FIELD21_38), (bank << 14 | offset / 4) for the 19-bit field of sm_7x/8x
                    // (CONST_FIELD19_40); either way the low <width> bits go in from <bit> on.
                    put(code, offset * 8 + Integer.parseInt(c.group(2)), Integer.parseInt(c.group(1)), value);
                    return;
                }
                java.util.regex.Matcher m = java.util.regex.Pattern
                        .compile("(ABS|UNIFIED|BINDLESSOFF|YIELD_OPCODE|YIELD_CLEAR_PRED)(\\d+)(_LO|_HI)?_(\\d+)").matcher(name);
                if (!m.matches()) {
                    throw new IllegalArgumentException("relocation " + name + " is not applied by jptxas");
                }
                int width = Integer.parseInt(m.group(2));
                int bit = Integer.parseInt(m.group(4));
                long v = "_HI".equals(m.group(3)) ? value >>> 32 : "_LO".equals(m.group(3)) ? value & 0xffffffffL : value;
                if (bit == 34 && m.group(3) == null && m.group(1).equals("ABS")) {
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
