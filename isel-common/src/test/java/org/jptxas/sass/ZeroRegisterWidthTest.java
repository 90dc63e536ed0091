package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The zero register and the true predicate are the all-ones value of their field's width: RZ 255 in the 8-bit
 * register fields, PT and UPT 7 in the 3-bit predicate fields, URZ 63 in sm_75 … sm_90's 6-bit uniform fields and
 * 255 in Blackwell's 8-bit ones. In a wide uniform field the narrow value 63 also reads as URZ, as NVIDIA's
 * Blackwell disassembler prints it, and the assembler writes all ones.
 */
class ZeroRegisterWidthTest {
    private static String text(SlotKind kind, long value, int width) {
        StringBuilder sb = new StringBuilder();
        kind.render(value, width, 0, 0, null, sb);
        return sb.toString();
    }

    private static long encode(SlotKind kind, String text, int width) {
        return kind.encode(SassLexer.register(text), width, 0, 0, null);
    }

    @Test
    void generalRegisterZeroIsAllOnesOfEightBits() {
        assertEquals(255, SlotKind.GPR.zeroValue(8));
        assertEquals("RZ", text(SlotKind.GPR, 255, 8));
        assertEquals("R254", text(SlotKind.GPR, 254, 8));
        assertEquals(255, encode(SlotKind.GPR, "RZ", 8));
    }

    @Test
    void predicatesTrueIsAllOnesOfThreeBits() {
        assertEquals(7, SlotKind.PRED.zeroValue(3));
        assertEquals("PT", text(SlotKind.PRED, 7, 3));
        assertEquals("UPT", text(SlotKind.UPRED, 7, 3));
        assertEquals("P6", text(SlotKind.PRED, 6, 3));
        assertEquals(7, encode(SlotKind.UPRED, "UPT", 3));
    }

    @Test
    void uniformZeroInSixBitFieldsIs63() {
        assertEquals(63, SlotKind.UGPR.zeroValue(6));
        assertEquals("URZ", text(SlotKind.UGPR, 63, 6));
        assertEquals("UR62", text(SlotKind.UGPR, 62, 6));
        assertEquals(63, encode(SlotKind.UGPR, "URZ", 6));
        assertEquals(4, encode(SlotKind.UGPR, "UR4", 6));
    }

    @Test
    void uniformZeroInEightBitFieldsIs255AndReads63Too() {
        assertEquals(255, SlotKind.UGPR.zeroValue(8));
        assertEquals("URZ", text(SlotKind.UGPR, 255, 8));
        assertEquals("URZ", text(SlotKind.UGPR, 63, 8));
        assertEquals("UR64", text(SlotKind.UGPR, 64, 8));
        assertEquals(255, encode(SlotKind.UGPR, "URZ", 8));
        assertEquals(4, encode(SlotKind.UGPR, "UR4", 8));
    }

    @Test
    void kindsWithoutAZeroHaveNone() {
        assertEquals(-1, SlotKind.BAR.zeroValue(4));
        assertEquals(-1, SlotKind.HEX.zeroValue(8));
    }
}
