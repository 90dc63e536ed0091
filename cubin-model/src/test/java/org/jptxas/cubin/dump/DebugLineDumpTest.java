package org.jptxas.cubin.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The line-program decoder on a unit ptxas 13 wrote for a two-line CUDA kernel with an inlined call (-lineinfo):
 * header, tables, ptxas's .debug_str offset, the inlining-context opcode; the text is cuobjdump 12.5's for the same
 * bytes. LineInfoOracleTest compares the decoder with cuobjdump on the corpus.
 */
class DebugLineDumpTest {
    private static final byte[] UNIT = HexFormat.of().parseHex(
            "5c0000000200280000000101fb0e0a0001010101000000012f746d702f6d620000742e63750001f0b0b0d80667000000" +
            "000000090200000000000000000401030101021002d000010003900200037f0100039000000301022001028002000101");

    @Test
    void printsWhatCuobjdumpPrints() {
        assertEquals("""
                  Offset:                         0
                  Length:                         92
                  DWARF Version:                   2
                  Prologue Length:                40
                  Minimum instruction length:      1
                  Initial value of is_stmt:        1
                  Line base:                       -5
                  Line range:                      14
                  Opcode base:                     10
                
                Opcodes:
                  Opcode 1 has 0 args
                  Opcode 2 has 1 args
                  Opcode 3 has 1 args
                  Opcode 4 has 1 args
                  Opcode 5 has 1 args
                  Opcode 6 has 0 args
                  Opcode 7 has 0 args
                  Opcode 8 has 0 args
                  Opcode 9 has 1 args
                
                The Directory Table:
                  /tmp/mb
                
                The File Name Table:
                  Entry   Dir     Time    Size    Name
                   1       1      1795954800       103       t.cu
                
                Offset in .debug_str:            0
                
                Line Number Statements:
                  Extended opcode 2: set Address to 0x0
                  Set File Name to entry 1 in the File Name Table
                  Advance Line by 1 to 2
                  Copy
                  Advance PC by 16 to 0x10
                  Advance PC by 80 to 0x60
                  Copy
                  Extended opcode 144: Set context to 2 and function offset to 0x0
                  Advance Line by -1 to 1
                  Copy
                  Extended opcode 144: Set context to 0 and function offset to 0x0
                  Advance Line by 1 to 2
                  Advance PC by 32 to 0x80
                  Copy
                  Advance PC by 256 to 0x180
                  Extended opcode 1: End of Sequence
                
                
                
                """, DebugLineDump.print(UNIT));
    }

    @Test
    void aTruncatedUnitEndsTheDumpWithoutAnException() {
        byte[] cut = java.util.Arrays.copyOf(UNIT, 60);
        String text = DebugLineDump.print(cut);
        assertEquals(true, text.startsWith("  Offset:                         0\n"), text);
    }

    /** A header whose line range is 0 gives special opcodes no meaning: the program stops there instead of throwing. */
    @Test
    void aZeroLineRangeStopsTheProgram() {
        byte[] unit = UNIT.clone();
        unit[13] = 0;
        unit[65] = 0x0a; // the first Copy becomes special opcode 0
        String text = DebugLineDump.print(unit);
        assertEquals(true, text.contains("  Line range:                      0\n"), text);
        assertEquals(true, text.endsWith("  Advance Line by 1 to 2\n\n\n"), text);
    }
}
