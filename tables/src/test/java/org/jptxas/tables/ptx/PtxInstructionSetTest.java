package org.jptxas.tables.ptx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.jptxas.tables.TableException;
import org.junit.jupiter.api.Test;

class PtxInstructionSetTest {
    private static final String HEAD = "{\"note\":\"t\",\"groups\":{\"rnd\":{\"kind\":\"ROUNDING\",\"words\":\"rn rz\"}},"
            + "\"typeSets\":{\"f\":\"f32 f64\"},\"targetSets\":{\"h\":\"sm_90a\"},"
            + "\"wordGates\":{\"bf16x2\":[\"sm=75 first\",\"sm=80 first\"],\"cluster\":[\"sm=90 feature=.cluster_scope whenlegal\"]},"
            + "\"instructions\":{";

    private static PtxInstructionSet read(String instructions) {
        String json = HEAD + instructions + "}}";
        return PtxInstructionSet.read("test.json", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    private static TableException reject(String instructions) {
        return assertThrows(TableException.class, () -> read(instructions));
    }

    @Test
    void bundledTableLoadsAndCoversTheIsa() {
        PtxInstructionSet set = PtxInstructionSet.bundled();
        for (String op : new String[] {"add", "ld", "st", "cvt", "mma", "wgmma.mma_async", "cp.async.bulk.tensor",
                "mbarrier.try_wait", "tcgen05.mma", "setp", "bra", "call", "tex", "vadd"}) {
            assertNotNull(set.instruction(op), op);
        }
        assertTrue(set.instructions().size() > 150, "instructions: " + set.instructions().size());
    }

    @Test
    void readsFormLanguage() {
        PtxInstructionSet set = read("\"add\":[\"T:@f m:@rnd? m:ftz? o:r:T o:S:T o:S:T? g:f64:sm=90,ptx=78\"]");
        InstructionForm f = set.instruction("add").forms().get(0);
        assertEquals(1, f.types().size());
        assertEquals(2, f.modifiers().size());
        assertEquals(ModifierKind.ROUNDING, f.modifiers().get(0).kind());
        assertTrue(f.modifiers().get(0).optional());
        assertEquals(2, f.requiredOperands());
        assertEquals(3, f.operands().size());
        assertEquals(new Gate("f64", 90, 78, java.util.List.of(), 0), f.gates().get(0));
    }

    @Test
    void readsWordGatesInOrder() {
        PtxInstructionSet set = read("\"add\":[\"T:@f o:r:T o:S:T o:S:T\"]");
        assertEquals(java.util.List.of(new WordGate(".bf16x2", 75, WordGate.Placement.FIRST),
                new WordGate(".bf16x2", 80, WordGate.Placement.FIRST)), set.wordGates("bf16x2"));
        assertEquals(java.util.List.of(new WordGate(".cluster scope", 90, WordGate.Placement.WHEN_LEGAL)),
                set.wordGates("cluster"));
        assertEquals(java.util.List.of(), set.wordGates("f32"));
    }

    @Test
    void readsGateSubjectsAndTheFormGatePlace() {
        InstructionForm f = read("\"fence\":[\"m:alias g:alias:sm=60 instruction:fence.proxy sm=70\"],"
                + "\"atom\":[\"T:@f m:rn g:rn:sm=60,feature=scopes_on_atomic_operations sm=50\"]").instruction("fence")
                .forms().get(0);
        assertEquals("alias", f.gates().get(0).word());
        assertEquals("", f.gates().get(1).word());
        assertEquals("Instruction 'fence.proxy'", f.subject());
    }

    @Test
    void targetSetsExpand() {
        PtxInstructionSet set = read("\"w\":[\"arch=@h,sm_100a\"]");
        assertEquals(java.util.List.of("sm_90a", "sm_100a"), set.instruction("w").forms().get(0).gates().get(0).targets());
    }

    @Test
    void unknownGroupNamesFileAndEntry() {
        TableException e = reject("\"add\":[\"T:f32\", \"m:@nope\"]");
        assertEquals("test.json", e.file());
        assertEquals("instructions.add[1]", e.entry());
        assertTrue(e.getMessage().contains("unknown modifier group '@nope'"), e.getMessage());
    }

    @Test
    void unknownTypeIsRejected() {
        TableException e = reject("\"add\":[\"T:f33\"]");
        assertEquals("instructions.add[0]", e.entry());
        assertTrue(e.getMessage().contains("unknown type 'f33'"), e.getMessage());
    }

    @Test
    void operandOfUndeclaredSlotIsRejected() {
        TableException e = reject("\"add\":[\"o:r:T\"]");
        assertTrue(e.getMessage().contains("undeclared type slot T"), e.getMessage());
    }

    @Test
    void requiredOperandAfterOptionalIsRejected() {
        TableException e = reject("\"add\":[\"o:r:b32? o:r:b32\"]");
        assertTrue(e.getMessage().contains("after an optional one"), e.getMessage());
    }

    @Test
    void unreadableItemIsRejected() {
        TableException e = reject("\"add\":[\"q:zz\"]");
        assertTrue(e.getMessage().contains("cannot read form item 'q:zz'"), e.getMessage());
    }

    @Test
    void unknownTargetIsRejected() {
        TableException e = reject("\"add\":[\"arch=compute_90\"]");
        assertTrue(e.getMessage().contains("not a target name"), e.getMessage());
    }

    @Test
    void typeWordCannotBeAModifier() {
        TableException e = reject("\"add\":[\"m:f32\"]");
        assertTrue(e.getMessage().contains("cannot be a modifier word"), e.getMessage());
    }

    @Test
    void unknownFieldOfTheJsonIsRejectedByTheStrictLoader() {
        String json = HEAD.replace("\"note\":\"t\",", "\"note\":\"t\",\"extra\":1,") + "}}";
        TableException e = assertThrows(TableException.class, () -> PtxInstructionSet.read("test.json",
                new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8))));
        assertTrue(e.getMessage().contains("unknown field 'extra'"), e.getMessage());
    }

    @Test
    void duplicateOpcodeIsRejected() {
        TableException e = reject("\"add\":[\"\"],\"add\":[\"\"]");
        assertTrue(e.getMessage().toLowerCase().contains("duplicate"), e.getMessage());
    }

    @Test
    void typesKnowClassAndSize() {
        assertEquals(PtxType.S64, PtxType.S32.doubled().orElseThrow());
        assertEquals(32, PtxType.of("f16x2").orElseThrow().bits());
        assertTrue(PtxType.of("F32").isEmpty());
        assertTrue(PtxType.of("shared").isEmpty());
    }
}
