package org.jptxas.sass;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Optional;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

/** Typed instructions: what the assembler selects encodes to the same words, respells, and reads as typed values. */
class SassOpTest {
    private static final Control CONTROL = new Control(4, true, Control.NONE, Control.NONE, 0);
    private final SassIsa isa = TestTargets.of("sm_80").isa();
    private final SassAssembler asm = new SassAssembler(isa);
    private final SassEncoder encoder = new SassEncoder(isa);

    @Test
    void encoderGivesTheAssemblersWordsForTheSelectedOp() {
        Map<String, Long> labels = Map.of(".L_x_1", 0x40L);
        for (String text : new String[] {"FFMA R0, -R2, R3, R4", "@!P1 IMAD.WIDE.U32 R2, R7, 0x4, R2",
                "ISETP.GE.AND P0, PT, R0, c[0x0][0x170], PT", "LDG.E.64 R2, [R4.64+0x10]", "@P0 BRA `(.L_x_1)"}) {
            SassAssembler.Encoded e = asm.encoded(text, CONTROL, 0x20, labels::get);
            assertEquals(text, e.op().text());
            assertArrayEquals(e.words(), encoder.encode(e.op(), CONTROL, 0x20, labels::get), text);
        }
        SassOp branch = asm.select("@P0 BRA `(.L_x_1)", 0x20, labels::get);
        assertEquals(".L_x_1", branch.target());
        long[] moved = encoder.encode(branch, CONTROL, 0x30, labels::get);
        assertArrayEquals(asm.assemble("@P0 BRA `(.L_x_1)", CONTROL, 0x30, labels::get), moved,
                "a branch's offset is computed at its final address");
    }

    @Test
    void anImmediateIsSetAsPrintedWhereItsFieldHoldsIt() {
        // BRX's offset: a signed field, plain on sm_80, shifted by 2 on sm_90
        for (String sm : new String[] {"sm_80", "sm_90"}) {
            SassAssembler a = new SassAssembler(TestTargets.of(sm).isa());
            SassOp brx = a.select("BRX R4 0x0", 0, null);
            int slot = brx.lastImmediateField();
            assertTrue(slot >= 0, sm);
            SassOp placed = brx.withImmediate(slot, -0x90);
            assertEquals("BRX R4 -0x90", placed.text(), sm);
            assertEquals(-0x90, placed.immediate(slot), sm);
            assertEquals(a.select("BRX R4 -0x90", 0, null), placed, sm + ": the op the text assembles to");
            if (sm.equals("sm_90")) {
                assertEquals(null, brx.withImmediate(slot, -0x92), "not a multiple of the field's unit");
            }
        }
        // an unsigned field takes no negative value and nothing wider than itself
        SassOp mov = asm.select("MOV R20, 0xfffff0", 0, null);
        int slot = mov.immediateSlot(1);
        assertEquals("MOV R20, 0x40", mov.withImmediate(slot, 0x40).text());
        assertEquals(null, mov.withImmediate(slot, -0x40));
        assertEquals(null, mov.withImmediate(slot, 1L << 32));
        assertEquals(-1, asm.select("FFMA R0, R2, R3, R4", 0, null).lastImmediateField());
    }

    @Test
    void reuseSpellingIsTheSameOpInTheFormWithTheFlags() {
        SassOp op = asm.select("FFMA R0, R2, R3, R4", 0, null);
        assertEquals("FFMA {}, {}, {}, {}", op.form().skeleton());
        String skeleton = "FFMA {}, {}.reuse, {}, {}";
        Optional<SassOp> reused = asm.respelled(op, skeleton);
        assertTrue(reused.isPresent(), skeleton);
        assertEquals("FFMA R0, R2.reuse, R3, R4", reused.get().text());
        assertArrayEquals(asm.assemble("FFMA R0, R2.reuse, R3, R4", CONTROL, 0, null),
                encoder.encode(reused.get(), CONTROL, 0, null));
        // the tables have no form for a negated B with reuse: neither has the respelling
        SassOp negated = asm.select("FFMA R0, R2, -R3, R4", 0, null);
        assertFalse(asm.respelled(negated, negated.form().skeleton().replace("{}, -{}", "{}.reuse, -{}")).isPresent());
    }

    @Test
    void respellingMayTakeAFormWhoseFieldsAreOfOtherKinds() {
        // sm_75 selects a signed-hex form for the immediate of IMAD.WIDE.U32; its .reuse form has an unsigned one
        SassAssembler sm75 = new SassAssembler(TestTargets.of("sm_75").isa());
        SassOp op = sm75.select("IMAD.WIDE.U32 R32, R26, 0x1, RZ", 0, null);
        Optional<SassOp> reused = sm75.respelled(op, "IMAD.WIDE.U32 {}, {}.reuse, {}, {}");
        assertTrue(reused.isPresent());
        assertEquals("IMAD.WIDE.U32 R32, R26.reuse, 0x1, RZ", reused.get().text());
    }

    @Test
    void guardsAndRegistersAreReadFromTheValues() {
        assertFalse(asm.select("FFMA R0, -R2, R3, R4", 0, null).guarded());
        assertTrue(asm.select("@!P1 IMAD.WIDE.U32 R2, R7, 0x4, R2", 0, null).guarded());
        assertEquals(7, asm.select("@!P1 IMAD.WIDE.U32 R2, R7, 0x4, R2", 0, null).highestRegister(SlotKind.GPR));
        assertEquals(200, asm.select("IADD3 R200, R3, RZ, RZ", 0, null).highestRegister(SlotKind.GPR),
                "RZ is not a register the function uses");
        assertEquals(-1, asm.select("EXIT", 0, null).highestRegister(SlotKind.GPR));
    }

    @Test
    void aWordTwoEquallySpecificFormsPrintAlikeDecodes() {
        // sm_75 learned IMAD.WIDE.U32's immediate both as a signed and as an unsigned field; guarded (a generalized
        // form) the two readings are equally specific, and for 0x8 they print the same: not ambiguous
        SassIsa sm75 = TestTargets.of("sm_75").isa();
        SassInstruction d = sm75.decode(0x00000008021a1825L, 0x000fe200078e00ffL);
        assertTrue(d instanceof SassInstruction.Known, String.valueOf(d));
        assertEquals("@P1 IMAD.WIDE.U32 R26, R2, 0x8, RZ", SassLexer.normalize(SassPrinter.text(d, 0, null)));
    }
}
