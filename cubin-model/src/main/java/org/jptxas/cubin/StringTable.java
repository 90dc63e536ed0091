package org.jptxas.cubin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@code .strtab}/{@code .shstrtab}: NUL-terminated strings starting with the empty string at offset 0. ptxas
 * writes every string once, in first-use order, without suffix sharing; {@link Builder} does the same.
 */
public final class StringTable {
    private StringTable() {}

    /** The NUL-terminated string at {@code offset} of {@code table}, or a {@link CubinFormatException}. */
    public static String at(byte[] table, int offset, String what) {
        if (offset < 0 || offset >= table.length) {
            if (offset == 0) {
                return "";
            }
            throw new CubinFormatException(what + ": name offset 0x" + Integer.toHexString(offset)
                    + " lies outside the " + table.length + "-byte string table");
        }
        int end = offset;
        while (end < table.length && table[end] != 0) {
            end++;
        }
        if (end == table.length) {
            throw new CubinFormatException(what + ": name at 0x" + Integer.toHexString(offset) + " is not NUL-terminated");
        }
        return new String(table, offset, end - offset, StandardCharsets.UTF_8);
    }

    /** The strings of a table in order (the leading empty string included). */
    public static List<String> strings(byte[] table) {
        List<String> out = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < table.length; i++) {
            if (table[i] == 0) {
                out.add(new String(table, start, i - start, StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        return out;
    }

    /** Builds a string table; {@link #add} returns each string's offset, adding it on first use. */
    public static final class Builder {
        private final Map<String, Integer> offsets = new LinkedHashMap<>();
        private final ByteWriter bytes = new ByteWriter();

        public Builder() {
            add("");
        }

        public int add(String s) {
            Integer known = offsets.get(s);
            if (known != null) {
                return known;
            }
            int off = bytes.size();
            bytes.bytes(s.getBytes(StandardCharsets.UTF_8)).u8(0);
            offsets.put(s, off);
            return off;
        }

        public byte[] toByteArray() {
            return bytes.toByteArray();
        }
    }
}
