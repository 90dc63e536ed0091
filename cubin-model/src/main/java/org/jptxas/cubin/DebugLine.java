package org.jptxas.cubin;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * DWARF line tables as ptxas 13 writes them, in {@code .debug_line} (SASS offsets of each function to the
 * {@code .file}/{@code .loc} source lines) and {@code .nv_debug_line_sass} (the same offsets to lines of the embedded
 * PTX text). Both are DWARF version 2 line programs with ptxas's header: minimum instruction length 1, is_stmt 1,
 * line base -5, line range 14, opcode base 10 (the nine standard opcodes of DWARF 2). The directory table holds each
 * file's path up to its last {@code /} or {@code \}, once, in order of first use; file entries name their
 * directory (0: none), modification time and size.
 *
 * <p>One sequence per function: {@code DW_LNE_set_address} (its 8-byte operand relocated against the function's
 * symbol, {@code R_CUDA_64}), {@code DW_LNS_set_file}, then a row wherever the line changes and
 * {@code DW_LNE_end_sequence} at the end of the code. A row one instruction (16 bytes) after the previous one with a
 * line step in [-5, 8] is one special opcode; any other row is {@code DW_LNS_advance_line} (when the line changes),
 * {@code DW_LNS_advance_pc} and {@code DW_LNS_copy}. The first row of a sequence is always the latter. ptxas writes
 * {@code DW_LNS_advance_pc}'s unsigned operand with a signed LEB128 encoder: 64 is {@code c0 00}, not {@code 40}.
 */
public final class DebugLine {
    private DebugLine() {}

    static final int LINE_BASE = -5;
    static final int LINE_RANGE = 14;
    static final int OPCODE_BASE = 10;
    static final int[] STANDARD_LENGTHS = {0, 1, 1, 1, 1, 0, 0, 0, 1};
    /** The address step ptxas encodes as a special opcode: one SASS instruction. */
    static final int INSTRUCTION = 16;

    /** A file entry: its path as the PTX writes it, modification time and size (0 when unknown). */
    public record File(String path, long mtime, long size) {
        public File {
            Objects.requireNonNull(path, "path");
        }
    }

    /** A row: from {@code address} on, the code is line {@code line} of file {@code file}. */
    public record Row(long address, int file, int line) {}

    /** One function's rows, in address order, and the end of its code. */
    public record Sequence(String function, List<Row> rows, long end) {
        public Sequence {
            Objects.requireNonNull(function, "function");
            rows = List.copyOf(rows);
        }
    }

    /** Where a sequence's start address lies in the table (relocated against {@code function}'s symbol). */
    public record Address(long offset, String function) {}

    /** An encoded table and its address fields. */
    public record Encoded(byte[] bytes, List<Address> addresses) {
        public Encoded {
            bytes = bytes.clone();
            addresses = List.copyOf(addresses);
        }

        @Override
        public byte[] bytes() {
            return bytes.clone();
        }
    }

    /** Encodes a line table with {@code files} (numbered from 1) and one sequence per element of {@code sequences}. */
    public static Encoded encode(List<File> files, List<Sequence> sequences) {
        Map<String, Integer> directories = new LinkedHashMap<>();
        ByteWriter names = new ByteWriter();
        for (File f : files) {
            int slash = Math.max(f.path().lastIndexOf('/'), f.path().lastIndexOf('\\'));
            int dir = 0;
            if (slash > 0) {
                dir = directories.computeIfAbsent(f.path().substring(0, slash), d -> directories.size() + 1);
            }
            names.bytes(f.path().substring(slash + 1).getBytes(StandardCharsets.ISO_8859_1)).u8(0);
            Leb128.writeUnsigned(names, dir);
            Leb128.writeUnsigned(names, f.mtime());
            Leb128.writeUnsigned(names, f.size());
        }
        names.u8(0);
        ByteWriter header = new ByteWriter().u8(1).u8(1).u8(LINE_BASE & 0xff).u8(LINE_RANGE).u8(OPCODE_BASE);
        for (int l : STANDARD_LENGTHS) {
            header.u8(l);
        }
        for (String d : directories.keySet()) {
            header.bytes(d.getBytes(StandardCharsets.ISO_8859_1)).u8(0);
        }
        header.u8(0).bytes(names.toByteArray());
        byte[] h = header.toByteArray();

        int programStart = 4 + 2 + 4 + h.length;
        ByteWriter program = new ByteWriter();
        List<Address> addresses = new ArrayList<>();
        for (Sequence s : sequences) {
            program.u8(0).u8(9).u8(2);
            addresses.add(new Address(programStart + program.size(), s.function()));
            program.u64(s.rows().isEmpty() ? 0 : s.rows().get(0).address());
            long address = s.rows().isEmpty() ? 0 : s.rows().get(0).address();
            int file = -1;
            int line = 1;
            boolean first = true;
            for (Row r : s.rows()) {
                if (r.file() != file) {
                    program.u8(4);
                    Leb128.writeUnsigned(program, r.file());
                    file = r.file();
                }
                long step = r.address() - address;
                int delta = r.line() - line;
                if (!first && step == INSTRUCTION && delta >= LINE_BASE && delta < LINE_BASE + LINE_RANGE) {
                    program.u8(LINE_RANGE * INSTRUCTION + delta - LINE_BASE + OPCODE_BASE);
                } else {
                    if (delta != 0) {
                        program.u8(3);
                        Leb128.writeSigned(program, delta);
                    }
                    if (step != 0) {
                        program.u8(2);
                        Leb128.writeSigned(program, step); // ptxas writes the unsigned operand as a signed LEB128 (64: c0 00)
                    }
                    program.u8(1);
                }
                first = false;
                address = r.address();
                line = r.line();
            }
            if (s.end() > address) {
                program.u8(2);
                Leb128.writeSigned(program, s.end() - address);
            }
            program.u8(0).u8(1).u8(1);
        }
        byte[] p = program.toByteArray();
        ByteWriter out = new ByteWriter();
        out.u32(2 + 4 + h.length + p.length).u16(2).u32(h.length).bytes(h).bytes(p);
        return new Encoded(out.toByteArray(), addresses);
    }

    /**
     * A decoded table: its files (paths joined from directory and name with {@code /}) and sequences (their function
     * unnamed: the table holds only relocated addresses).
     */
    public record Table(List<File> files, List<Sequence> sequences) {}

    /**
     * Decodes a table (DWARF 2 line program). Each sequence's addresses count from its {@code DW_LNE_set_address} operand as stored (0 before
     * relocation). Several units in a row are read one after the other.
     */
    public static Table decode(byte[] b) {
        ByteReader in = new ByteReader(b, "line table");
        List<File> files = new ArrayList<>();
        List<Sequence> sequences = new ArrayList<>();
        int unit = 0;
        while (unit + 4 <= b.length) {
            long length = in.u32(unit, "unit_length");
            int end = (int) (unit + 4 + length);
            int headerLength = (int) in.u32(unit + 6, "header_length");
            int at = unit + 10;
            int lineBase = (byte) in.u8(at + 2, "line_base");
            int lineRange = in.u8(at + 3, "line_range");
            int opcodeBase = in.u8(at + 4, "opcode_base");
            int[] lengths = new int[opcodeBase];
            for (int i = 1; i < opcodeBase; i++) {
                lengths[i] = in.u8(at + 4 + i, "standard_opcode_lengths");
            }
            at += 4 + opcodeBase;
            List<String> dirs = new ArrayList<>();
            while (b[at] != 0) {
                int z = indexOfZero(b, at);
                dirs.add(new String(b, at, z - at, StandardCharsets.ISO_8859_1));
                at = z + 1;
            }
            at++;
            while (b[at] != 0) {
                int z = indexOfZero(b, at);
                String name = new String(b, at, z - at, StandardCharsets.ISO_8859_1);
                long[] v = new long[1];
                at = Leb128.readUnsigned(b, z + 1, v);
                int dir = (int) v[0];
                at = Leb128.readUnsigned(b, at, v);
                long mtime = v[0];
                at = Leb128.readUnsigned(b, at, v);
                files.add(new File(dir == 0 ? name : dirs.get(dir - 1) + "/" + name, mtime, v[0]));
            }
            at = unit + 10 + headerLength;
            long address = 0;
            int file = 1;
            long line = 1;
            List<Row> rows = new ArrayList<>();
            while (at < end) {
                int op = b[at++] & 0xff;
                long[] v = new long[1];
                if (op == 0) {
                    at = Leb128.readUnsigned(b, at, v);
                    int next = at + (int) v[0];
                    int sub = b[at] & 0xff;
                    if (sub == 1) {
                        sequences.add(new Sequence("", rows, address));
                        rows = new ArrayList<>();
                        address = 0;
                        file = 1;
                        line = 1;
                    } else if (sub == 2) {
                        address = in.u64(at + 1, "DW_LNE_set_address");
                    }
                    at = next;
                } else if (op >= opcodeBase) {
                    address += (op - opcodeBase) / lineRange;
                    line += lineBase + (op - opcodeBase) % lineRange;
                    rows.add(new Row(address, file, (int) line));
                } else if (op == 1) {
                    rows.add(new Row(address, file, (int) line));
                } else if (op == 2) {
                    at = Leb128.readUnsigned(b, at, v);
                    address += v[0];
                } else if (op == 3) {
                    at = Leb128.readSigned(b, at, v);
                    line += v[0];
                } else if (op == 4) {
                    at = Leb128.readUnsigned(b, at, v);
                    file = (int) v[0];
                } else {
                    for (int i = 0; i < lengths[op]; i++) {
                        at = Leb128.readUnsigned(b, at, v);
                    }
                }
            }
            unit = end;
        }
        return new Table(files, sequences);
    }

    private static int indexOfZero(byte[] b, int from) {
        int z = from;
        while (b[z] != 0) {
            z++;
        }
        return z;
    }
}
