package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The line-table writer ({@link DebugLine}) against ptxas 13's own tables: the {@code .debug_line} and
 * {@code .nv_debug_line_sass} ptxas 13 wrote for a Triton matmul kernel ({@code ptxas -lineinfo -arch=sm_80}), decoded
 * and encoded again, must come back byte for byte; and the header and opcodes ptxas uses, one by one.
 */
class DebugLineTest {
    private static byte[] hex(String name) throws IOException {
        try (InputStream in = DebugLineTest.class.getResourceAsStream("lineinfo/" + name)) {
            return HexFormat.of().parseHex(new String(in.readAllBytes(), StandardCharsets.US_ASCII).replaceAll("\\s", ""));
        }
    }

    @Test
    void ptxasDebugLineEncodesAgainByteForByte() throws IOException {
        byte[] ptxas = hex("matmul_sm_80_debug_line.hex");
        DebugLine.Table t = DebugLine.decode(ptxas);
        assertEquals(List.of(new DebugLine.File("/home/ubuntu/triton_runner/examples/python_runner/matmul.py", 0, 0)),
                t.files());
        assertEquals(1, t.sequences().size());
        DebugLine.Sequence s = t.sequences().get(0);
        assertEquals(new DebugLine.Row(0, 1, 13), s.rows().get(0));
        assertEquals(new DebugLine.Row(0x10, 1, 22), s.rows().get(1));
        assertEquals(new DebugLine.Row(0x20, 1, 21), s.rows().get(2)); // a special opcode
        assertEquals(0x980, s.end());
        DebugLine.Encoded again = DebugLine.encode(t.files(), List.of(new DebugLine.Sequence("matmul_kernel", s.rows(),
                s.end())));
        assertArrayEquals(ptxas, again.bytes());
        // DW_LNE_set_address's operand, relocated against the kernel (ptxas's R_CUDA_64 at 0x5c)
        assertEquals(List.of(new DebugLine.Address(0x5c, "matmul_kernel")), again.addresses());
    }

    @Test
    void ptxasPtxLineTableEncodesAgainByteForByte() throws IOException {
        byte[] ptxas = hex("matmul_sm_80_nv_debug_line_sass.hex");
        DebugLine.Table t = DebugLine.decode(ptxas);
        assertEquals(List.of(), t.files()); // executables: the PTX text is file 0, unnamed
        DebugLine.Sequence s = t.sequences().get(0);
        assertEquals(new DebugLine.Row(0, 0, 24), s.rows().get(0)); // the body's '{'
        DebugLine.Encoded again = DebugLine.encode(List.of(), List.of(new DebugLine.Sequence("matmul_kernel",
                s.rows(), s.end())));
        assertArrayEquals(ptxas, again.bytes());
        assertEquals(List.of(new DebugLine.Address(0x1d, "matmul_kernel")), again.addresses());
    }

    @Test
    void headerIsPtxasDwarf2Header() {
        byte[] b = DebugLine.encode(List.of(new DebugLine.File("/a/b/k.cu", 7, 300), new DebugLine.File("c.h", 0, 0),
                new DebugLine.File("/a/b/d.h", 0, 0)), List.of()).bytes();
        assertEquals(b.length - 4, b[0] & 0xff); // unit length
        assertEquals(2, b[4]); // DWARF version 2
        assertEquals(1, b[10]); // minimum instruction length
        assertEquals(1, b[11]); // default is_stmt
        assertEquals(-5, b[12]); // line base
        assertEquals(14, b[13]); // line range
        assertEquals(10, b[14]); // opcode base: DWARF 2's nine standard opcodes
        assertArrayEquals(new byte[] {0, 1, 1, 1, 1, 0, 0, 0, 1}, java.util.Arrays.copyOfRange(b, 15, 24));
        // one directory, named once, then the files with their directory, time and size (300 = 0xac 0x02)
        String rest = new String(b, 24, b.length - 24, StandardCharsets.ISO_8859_1);
        assertEquals("/a/b\0\0k.cu\0\1\7\u00ac\2c.h\0\0\0\0d.h\0\1\0\0\0", rest);
        DebugLine.Table t = DebugLine.decode(b);
        assertEquals(List.of(new DebugLine.File("/a/b/k.cu", 7, 300), new DebugLine.File("c.h", 0, 0),
                new DebugLine.File("/a/b/d.h", 0, 0)), t.files());
    }

    @Test
    void rowsUseSpecialOpcodesForOneInstructionAndSmallSteps() {
        List<DebugLine.Row> rows = List.of(new DebugLine.Row(0, 1, 10), new DebugLine.Row(0x10, 1, 18),
                new DebugLine.Row(0x20, 1, 13), new DebugLine.Row(0x30, 1, 22), new DebugLine.Row(0x60, 2, 22),
                new DebugLine.Row(0x70, 2, 1));
        DebugLine.Encoded e = DebugLine.encode(List.of(new DebugLine.File("a", 0, 0), new DebugLine.File("b", 0, 0)),
                List.of(new DebugLine.Sequence("f", rows, 0x100)));
        byte[] b = e.bytes();
        int program = 10 + (b[6] & 0xff);
        byte[] expected = {
            0, 9, 2, 0, 0, 0, 0, 0, 0, 0, 0, // DW_LNE_set_address 0
            4, 1, 3, 9, 1,                   // set_file 1, advance_line 9, copy
            (byte) (10 + 14 * 16 + 8 + 5),   // +16, +8: a special opcode (the largest step up)
            (byte) (10 + 14 * 16 - 5 + 5),   // +16, -5: the largest step down
            3, 9, 2, 16, 1,                  // +16, +9: too far for a special opcode
            4, 2, 2, 0x30, 1,                // another file, same line: set_file, advance_pc, copy
            3, 0x6b, 2, 16, 1,               // +16, -21
            2, (byte) 0x90, 1, 0, 1, 1};     // to the end (0x90 = 144 bytes), end_sequence
        assertArrayEquals(expected, java.util.Arrays.copyOfRange(b, program, b.length));
        assertEquals(List.of(new DebugLine.Address(program + 3, "f")), e.addresses());
        DebugLine.Sequence back = DebugLine.decode(b).sequences().get(0);
        assertEquals(rows, back.rows());
        assertEquals(0x100, back.end());
    }

    @Test
    void backslashPathsSplitAtTheLastBackslash() {
        // ptxas keeps a Windows path's escapes as written and splits at the last '\'
        byte[] b = DebugLine.encode(List.of(new DebugLine.File("C:\\\\x\\\\k.cu", 1, 2)), List.of()).bytes();
        String rest = new String(b, 24, b.length - 24, StandardCharsets.ISO_8859_1);
        assertTrue(rest.startsWith("C:\\\\x\\\0\0k.cu\0\1\1\2\0"), rest);
    }
}
