package org.jptxas.tables.latency;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableLoader;
import org.jptxas.tables.TableSource;
import org.junit.jupiter.api.Test;

class LatencyTablesTest {
    @Test
    void theFamilyTableLoadsAndValidates() {
        LatencyTableData t = LatencyTables.resolve(TableSource.SHARED, "latency/volta-family.json");
        assertEquals("volta-family", t.sm());
        assertEquals(6, t.scoreboards());
        assertFalse(t.classes().isEmpty());
        assertFalse(t.opcodes().isEmpty());
        assertTrue(t.targets().isEmpty(), "the family table serves targets only through the backends' tables");
    }

    @Test
    void overlayReplacesByNameAndKeepsTheRest() {
        LatencyTableData parent = LatencyTables.resolve(TableSource.SHARED, "latency/volta-family.json");
        LatencyTableData.LatencyClassEntry alu = parent.classes().stream().filter(c -> c.name().equals("alu")).findFirst().orElseThrow();
        LatencyTableData.LatencyClassEntry changed = new LatencyTableData.LatencyClassEntry("alu", alu.pipe(), List.of(), false, alu.reader(),
                alu.latency(), 1, 1, false, false, false, 0, 3, 2, 0, 1, List.of(), "changed");
        LatencyTableData child = new LatencyTableData("x", "sm80", List.of("sm_x"), "", 6, 15, 2, 15, List.of(), List.of(changed), List.of(), List.of());
        LatencyTableData merged = LatencyTables.overlay(parent, child);
        assertEquals(parent.classes().size(), merged.classes().size());
        assertEquals(3, merged.classes().stream().filter(c -> c.name().equals("alu")).findFirst().orElseThrow().minStall());
        assertEquals(parent.opcodes(), merged.opcodes());
    }

    @Test
    void unknownFieldIsRejectedWithFileAndEntry() {
        String json = "{\"sm\":\"t\",\"extends\":\"\",\"targets\":[],\"source\":\"\",\"scoreboards\":6,\"maxStall\":15,"
                + "\"scoreboardSetup\":2,\"paddingStall\":15,\"pipes\":[{\"name\":\"alu\",\"issueInterval\":2,\"inOrder\":false,\"description\":\"\",\"speed\":1}],"
                + "\"classes\":[],\"opcodes\":[]}";
        TableException e = assertThrows(TableException.class, () -> TableLoader.read("latency/t.json",
                new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)), LatencyTableData.class));
        assertTrue(e.getMessage().contains("latency/t.json"), e.getMessage());
        assertTrue(e.getMessage().contains("pipes[0]"), e.getMessage());
        assertTrue(e.getMessage().contains("speed"), e.getMessage());
    }

    @Test
    void ruleNamingAnUnknownClassFailsValidation() {
        LatencyTableData t = new LatencyTableData("t", "", List.of(), "", 6, 15, 2, 15,
                List.of(new LatencyTableData.Pipe("alu", 2, false, "")), List.of(),
                List.of(new LatencyTableData.OpcodeRule("IADD3", List.of(), "nope")), List.of());
        TableException e = assertThrows(TableException.class, () -> LatencyTables.validate("latency/t.json", t));
        assertTrue(e.getMessage().contains("opcodes[0].latencyClass"), e.getMessage());
    }

    @Test
    void duplicateClassNamesAreRejected() {
        LatencyTableData.LatencyClassEntry c = new LatencyTableData.LatencyClassEntry("a", "alu", List.of(), false, "alu",
                java.util.Map.of(), 1, 1, false, false, false, 0, 1, 2, 0, 1, List.of(), "");
        assertThrows(IllegalArgumentException.class, () -> new LatencyTableData("t", "", List.of(), "", 6, 15, 2, 15,
                List.of(new LatencyTableData.Pipe("alu", 2, false, "")), List.of(c, c), List.of(), List.of()));
    }
}
