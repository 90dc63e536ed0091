package org.jptxas.ori.opcode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableLoader;
import org.junit.jupiter.api.Test;

class OriOpcodesTest {
    private final OriOpcodes ops = OriOpcodes.get();

    @Test
    void indicesMatchPtxasNameTable() {
        // Spot checks against the ROT13 name table of ptxas 13.0.88 (index = runtime opcode).
        assertEquals("ERRBAR", ops.byIndex(0).orElseThrow().name());
        assertEquals("IMAD", ops.byIndex(1).orElseThrow().name());
        assertEquals("MOV", ops.byIndex(19).orElseThrow().name());
        assertEquals("AL2P_INDEXED", ops.byIndex(52).orElseThrow().name());
        assertEquals("BRA", ops.byIndex(67).orElseThrow().name());
        assertEquals("CALL", ops.byIndex(71).orElseThrow().name());
        assertEquals("EXIT", ops.byIndex(77).orElseThrow().name());
        assertEquals("STS", ops.byIndex(95).orElseThrow().name());
        assertEquals("STG", ops.byIndex(97).orElseThrow().name());
        assertEquals("HSET2", ops.byIndex(130).orElseThrow().name());
        assertEquals("INTRINSIC", ops.byIndex(135).orElseThrow().name());
        assertEquals(322, ops.ptxasCount());
    }

    @Test
    void jptxasOpcodesFollowPtxasTable() {
        OriOpcode uiadd3 = ops.byName("UIADD3").orElseThrow();
        assertEquals(322, uiadd3.index(), "jptxas numbers its own opcodes from opcodeCount upward");
        assertTrue(ops.isJptxasOpcode(uiadd3));
        assertFalse(ops.isJptxasOpcode(ops.byName("IADD3").orElseThrow()));
        assertEquals(75, uiadd3.firstSm());
        assertFalse(ops.byName("VIADD").orElseThrow().availableOn(89));
        assertTrue(ops.byName("VIADD").orElseThrow().availableOn(90));
        assertEquals(ops.size() - 1, ops.all().get(ops.all().size() - 1).index());
        for (String n : new String[] {"ULDC", "S2UR", "R2UR", "F2FP", "I2FP", "REDUX", "LDGSTS", "LDSM", "HMNMX2",
                "UPLOP3", "USEL", "UISETP", "UFLO", "UPOPC", "UBREV", "USGXT", "ULEA", "UMOV", "USHF", "ULOP3",
                "UIMAD", "F2IP", "VIMNMX"}) {
            assertEquals(n, ops.byName(n).orElseThrow(() -> new AssertionError(n)).name());
        }
    }

    @Test
    void jptxasOpcodeMayNotRepeatAPtxasName() {
        TableException e = reject("{\"source\":\"s\",\"opcodeCount\":4,\"generations\":[{\"sm\":70,\"first\":0,\"last\":3}],"
                + "\"opcodes\":[{\"index\":1,\"name\":\"IMAD\",\"group\":\"INTEGER\",\"description\":\"d\"}],"
                + "\"jptxasNote\":\"n\",\"jptxasOpcodes\":[{\"name\":\"IMAD\",\"group\":\"INTEGER\",\"sm\":75,\"description\":\"d\"}]}");
        assertTrue(e.getMessage().contains("jptxas opcode IMAD is already named"), e.getMessage());
    }

    @Test
    void everyBaseOpcodeIsNamedAndGrouped() {
        for (int i = 0; i <= 135; i++) {
            OriOpcode op = ops.byIndex(i).orElseThrow(AssertionError::new);
            assertEquals(i, op.index());
            assertEquals(70, op.firstSm(), op.name());
            assertFalse(op.isMarker(), op.name());
        }
        assertEquals(OpcodeGroup.INTEGER, ops.byName("IMAD").orElseThrow().group());
        assertEquals(OpcodeGroup.CONTROL, ops.byName("EXIT").orElseThrow().group());
        assertEquals(OpcodeGroup.MEMORY, ops.byName("LDG").orElseThrow().group());
    }

    @Test
    void generationMarkersDelimitRanges() {
        OriOpcode last70 = ops.byName("SM70_LAST").orElseThrow();
        assertEquals(136, last70.index());
        assertTrue(last70.isMarker());
        assertEquals(70, last70.firstSm());
        assertEquals(73, ops.byName("SM73_FIRST").orElseThrow().firstSm());
        assertEquals(90, ops.generationOf(206));
        assertEquals(90, ops.generationOf(252));
        assertEquals(100, ops.generationOf(253));
        assertEquals(104, ops.generationOf(320));
        assertEquals(-1, ops.generationOf(321));
        assertTrue(ops.byIndex(150).isEmpty(), "unnamed slots stay empty rather than guessed");
        assertTrue(ops.byIndex(-1).isEmpty());
        assertTrue(ops.byIndex(ops.size()).isEmpty());
    }

    @Test
    void availabilityFollowsGeneration() {
        OriOpcode first90 = ops.byName("SM90_FIRST").orElseThrow();
        assertFalse(first90.availableOn(89));
        assertTrue(first90.availableOn(90));
    }

    private static TableException reject(String json) {
        return assertThrows(TableException.class, () -> TableLoader.read("bad-opcodes.json",
                new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), OpcodeTableData.class));
    }

    @Test
    void duplicateIndexIsRejectedWithBothNames() {
        TableException e = reject("{\"source\":\"s\",\"opcodeCount\":4,\"generations\":[{\"sm\":70,\"first\":0,\"last\":3}],"
                + "\"opcodes\":[{\"index\":1,\"name\":\"IMAD\",\"group\":\"INTEGER\",\"description\":\"d\"},"
                + "{\"index\":1,\"name\":\"IADD3\",\"group\":\"INTEGER\",\"description\":\"d\"}],\"jptxasNote\":\"\",\"jptxasOpcodes\":[]}");
        assertTrue(e.getMessage().contains("bad-opcodes.json"), e.getMessage());
        assertTrue(e.getMessage().contains("opcode index 1 given twice (IMAD, IADD3)"), e.getMessage());
    }

    @Test
    void unknownGroupNamesTheEntry() {
        TableException e = reject("{\"source\":\"s\",\"opcodeCount\":4,\"generations\":[{\"sm\":70,\"first\":0,\"last\":3}],"
                + "\"opcodes\":[{\"index\":1,\"name\":\"IMAD\",\"group\":\"WIZARDRY\",\"description\":\"d\"}],\"jptxasNote\":\"\",\"jptxasOpcodes\":[]}");
        assertEquals("opcodes[0].group", e.entry());
    }

    @Test
    void gapBetweenGenerationsIsRejected() {
        TableException e = reject("{\"source\":\"s\",\"opcodeCount\":4,\"generations\":[{\"sm\":70,\"first\":0,\"last\":1},"
                + "{\"sm\":73,\"first\":3,\"last\":3}],\"opcodes\":[],\"jptxasNote\":\"\",\"jptxasOpcodes\":[]}");
        assertTrue(e.getMessage().contains("generation sm_73 starts at 3"), e.getMessage());
    }

    @Test
    void indexOutsideTableIsRejected() {
        TableException e = reject("{\"source\":\"s\",\"opcodeCount\":2,\"generations\":[],"
                + "\"opcodes\":[{\"index\":5,\"name\":\"IMAD\",\"group\":\"INTEGER\",\"description\":\"d\"}],\"jptxasNote\":\"\",\"jptxasOpcodes\":[]}");
        assertTrue(e.getMessage().contains("index 5 outside 0..1"), e.getMessage());
    }
}
