package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * nvdisasm prints every NaN immediate as -QNAN or +QNAN; the emulator runs the word's bits (it builds instructions from
 * the decoder's field values, not from the text). ptxas 13 selects the high word of an f64 -INF with
 * {@code FSEL R9, R0, -QNAN, P0} (0xfff00000, a NaN as f32): read as text it would be 0xffc00000, and max.f64 of -INF
 * and a NaN gave -2^1021.
 */
class NaNImmediatePayloadTest {
    @Test
    void nanImmediatesKeepTheWordsBits() {
        org.jptxas.sass.SassIsa isa = org.jptxas.spi.TestTargets.of("sm_80").isa();
        ByteBuffer code = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
        code.putLong(0xfff0000000097808L).putLong(0x002fe40000000000L); // ptxas 13: FSEL R9, R0, -QNAN , P0
        List<SassOp> ops = SassListing.decodeFunction(isa, code.array(), 0);
        SassOp fsel = ops.get(0);
        assertEquals("FSEL", fsel.opcode(), fsel.text());
        SassOperand.Imm imm = (SassOperand.Imm) fsel.operands().get(2);
        assertEquals(0xfff00000L, imm.bits());
        assertEquals(false, imm.floating());
    }
}
