package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/**
 * nvdisasm writes the closing self-loop of a function and the NOPs after it without the blank before ';', but a
 * self-loop followed by code (after a trap, matrix_free_device_matrix_vector_04.1.sm_80.ptx) like any other instruction.
 */
class SassListingPaddingTest {
    @Test
    void onlyTheClosingSelfLoopIsPadding() {
        SassIsa isa = TestTargets.of("sm_80").isa();
        SassAssembler asm = new SassAssembler(isa);
        Control c = new Control(5, true, 7, 7, 0);
        String[] text = {"BRA `(.L_x_0)", "EXIT", "BRA `(.L_x_1)", "NOP"};
        long[] targets = {0x0, -1, 0x20, -1};
        ByteBuffer b = ByteBuffer.allocate(16 * text.length).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < text.length; i++) {
            long target = targets[i];
            long[] w = asm.assemble(text[i], c, 16L * i, name -> target);
            b.putLong(w[0]).putLong(w[1]);
        }
        List<String> lines = new SassListing(isa, false, false).render(b.array(), 0, "f").lines().stream()
                .filter(l -> l.contains("/*00")).map(String::strip).toList();
        assertEquals(List.of("/*0000*/                   BRA `(f) ;", "/*0010*/                   EXIT ;",
                "/*0020*/                   BRA `(.L_x_0);", "/*0030*/                   NOP;"), lines);
    }
}
