package org.jptxas.ori.opcode;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class OpcodeSetTest {
    private final OriOpcodes ops = OriOpcodes.get();
    private final OpcodeSet set = OpcodeSet.of("IMAD", "MOV", "S2UR");

    @Test
    void answersForTheBundledTablesOpcodes() {
        assertTrue(set.contains(ops.require("IMAD")));
        assertTrue(set.contains(ops.require("MOV")));
        assertTrue(set.contains(ops.require("S2UR"))); // one of jptxas's own opcodes, numbered after ptxas's
        assertFalse(set.contains(ops.require("LDG")));
        assertFalse(set.contains(ops.require("EXIT")));
    }

    @Test
    void anotherTablesOpcodeIsAskedByName() {
        int imad = ops.require("IMAD").index();
        int ldg = ops.require("LDG").index();
        // same index as a member, another name: not a member; and the other way round
        assertFalse(set.contains(new OriOpcode(imad, "LDG", OpcodeGroup.MEMORY, "", 0)));
        assertTrue(set.contains(new OriOpcode(ldg, "MOV", OpcodeGroup.MOVE, "", 0)));
        assertTrue(set.contains(new OriOpcode(100_000, "IMAD", OpcodeGroup.INTEGER, "", 0)));
        assertFalse(set.contains(new OriOpcode(-1, "EXIT", OpcodeGroup.CONTROL, "", 0)));
    }
}
