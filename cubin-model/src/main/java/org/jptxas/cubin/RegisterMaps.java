package org.jptxas.cubin;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;

/**
 * ptxas's {@code -g} register maps: {@code .nv_debug_info_reg_sass}, where each PTX register's value lives in the
 * SASS code (one entry per 32-bit piece, SASS register and address range), and {@code .nv_debug_info_reg_type}, one
 * type byte per entry of the first. Both are per function: its NUL-terminated name, a u32 entry count, the entries
 * (layout in docs/debug-register-maps.md).
 */
public final class RegisterMaps {
    private RegisterMaps() {}

    /** The PTX types the type byte indexes, in cuobjdump 12.5's order (its {@code -elf} prints the spelling). */
    public static final List<String> TYPES = List.of(".b8", ".b16", ".b32", ".b64", ".u8", ".u16", ".u32", ".u64",
            ".s8", ".s16", ".s32", ".s64", ".f16", ".f16x2", ".f32", ".f64", ".pred", ".b128");

    /**
     * The register file of a location: the high byte of the location word (0x05000007 is R7, 0x02000000 P0; a
     * 16-bit PTX register held in R0 is 0x04000000).
     */
    public enum RegisterKind {
        GENERAL(5), GENERAL_16(4), PREDICATE(2);

        private final int code;

        RegisterKind(int code) {
            this.code = code;
        }

        public int code() {
            return code;
        }
    }

    /**
     * One range: 32-bit piece {@code piece} (0 the low word, 1 the high word of a 64-bit register) of PTX register
     * {@code register} of type {@code type} ({@code .b32}, one of {@link #TYPES}) is held by SASS register
     * {@code number} of {@code kind} from code address {@code start} up to {@code end}.
     */
    public record Entry(int piece, String register, String type, RegisterKind kind, int number, long start, long end) {
        public Entry {
            Objects.requireNonNull(register, "register");
            Objects.requireNonNull(kind, "kind");
            if (!TYPES.contains(type)) {
                throw new IllegalArgumentException("no register-map type code for " + type);
            }
            if (start > end || start < 0) {
                throw new IllegalArgumentException("bad range " + start + ".." + end + " of " + register);
            }
        }

        /** The location word: the register file's code in the high byte, the register's number below it. */
        public long location() {
            return ((long) kind.code() << 24) | number;
        }
    }

    /** One function's entries, in the order they are written. */
    public record Function(String name, List<Entry> entries) {
        public Function {
            Objects.requireNonNull(name, "name");
            entries = List.copyOf(entries);
        }
    }

    /** The bytes of {@code .nv_debug_info_reg_sass}. */
    static byte[] sass(List<Function> functions) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Function f : functions) {
            header(out, f);
            for (Entry e : f.entries()) {
                u32(out, e.piece());
                string(out, e.register());
                u32(out, e.location());
                u32(out, e.start());
                u32(out, e.end());
            }
        }
        return out.toByteArray();
    }

    /** The bytes of {@code .nv_debug_info_reg_type}. */
    static byte[] types(List<Function> functions) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (Function f : functions) {
            header(out, f);
            for (Entry e : f.entries()) {
                out.write(TYPES.indexOf(e.type()));
            }
        }
        return out.toByteArray();
    }

    private static void header(ByteArrayOutputStream out, Function f) {
        string(out, f.name());
        u32(out, f.entries().size());
    }

    private static void string(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        out.write(0);
    }

    private static void u32(ByteArrayOutputStream out, long v) {
        for (int k = 0; k < 4; k++) {
            out.write((int) (v >>> (8 * k)) & 0xff);
        }
    }
}
