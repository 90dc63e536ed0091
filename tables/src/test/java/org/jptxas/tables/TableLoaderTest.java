package org.jptxas.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class TableLoaderTest {
    /** A small table shape for the tests: a list of named entries with a positive width. */
    record Field(String name, int width) {
        Field {
            Objects.requireNonNull(name, "name");
            if (width <= 0) {
                throw new IllegalArgumentException("field " + name + ": width must be positive, got " + width);
            }
        }
    }

    record Table(String title, List<Field> fields) {}

    private static Table read(String json) {
        return TableLoader.read("test-table.json", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                Table.class);
    }

    private static TableException reject(String json) {
        return assertThrows(TableException.class, () -> read(json));
    }

    @Test
    void readsWellFormedTable() {
        Table t = read("{\"title\":\"t\",\"fields\":[{\"name\":\"a\",\"width\":3},{\"name\":\"b\",\"width\":1}]}");
        assertEquals(List.of(new Field("a", 3), new Field("b", 1)), t.fields());
    }

    @Test
    void unknownFieldNamesFileAndEntry() {
        TableException e = reject("{\"title\":\"t\",\"fields\":[{\"name\":\"a\",\"width\":3},{\"name\":\"b\",\"width\":1,\"colour\":2}]}");
        assertEquals("test-table.json", e.file());
        assertEquals("fields[1].colour", e.entry());
        assertTrue(e.getMessage().startsWith("test-table.json: entry fields[1].colour: unknown field 'colour'"), e.getMessage());
    }

    @Test
    void missingRequiredFieldIsNamed() {
        TableException e = reject("{\"title\":\"t\",\"fields\":[{\"name\":\"a\"}]}");
        assertEquals("fields[0].width", e.entry());
        assertTrue(e.getMessage().contains("missing required field 'width'"), e.getMessage());
    }

    @Test
    void nullRequiredFieldIsRejected() {
        TableException e = reject("{\"title\":\"t\",\"fields\":[{\"name\":null,\"width\":1}]}");
        assertTrue(e.getMessage().contains("fields[0]"), e.getMessage());
        assertTrue(e.getMessage().contains("name"), e.getMessage());
    }

    @Test
    void duplicateKeyIsRejected() {
        TableException e = reject("{\"title\":\"t\",\"fields\":[{\"name\":\"a\",\"width\":1,\"width\":2}]}");
        assertTrue(e.getMessage().startsWith("test-table.json"), e.getMessage());
        assertTrue(e.getMessage().contains("width"), e.getMessage());
    }

    @Test
    void validationFailureInsideEntryIsPositioned() {
        TableException e = reject("{\"title\":\"t\",\"fields\":[{\"name\":\"a\",\"width\":1},{\"name\":\"z\",\"width\":0}]}");
        assertEquals("fields[1]", e.entry());
        assertTrue(e.getMessage().contains("field z: width must be positive, got 0"), e.getMessage());
    }

    @Test
    void malformedJsonNamesFileAndLine() {
        TableException e = reject("{\"title\":\"t\",\n\"fields\":[{\"name\":\"a\",\"width\":1}\n");
        assertTrue(e.getMessage().startsWith("test-table.json: "), e.getMessage());
        assertTrue(e.getMessage().contains("line"), e.getMessage());
    }

    @Test
    void trailingContentIsRejected() {
        reject("{\"title\":\"t\",\"fields\":[]} {}");
    }

    @Test
    void wrongTypeIsRejected() {
        TableException e = reject("{\"title\":\"t\",\"fields\":[{\"name\":\"a\",\"width\":\"wide\"}]}");
        assertEquals("fields[0].width", e.entry());
    }

    @Test
    void missingResourceIsNamed() {
        TableException e = assertThrows(TableException.class, () -> TableLoader.load("no-such.json", Table.class));
        assertEquals("no-such.json", e.file());
        assertTrue(e.getMessage().contains("no such table"), e.getMessage());
    }

    @Test
    void bundledTablesAreWellFormedJson() {
        // Every bundled table must at least parse as a JSON tree; typed loading is tested where the types live.
        for (String name : List.of("ori-opcodes.json", "cubin/flavors.json")) {
            com.fasterxml.jackson.databind.JsonNode n = TableLoader.load(name, com.fasterxml.jackson.databind.JsonNode.class);
            assertTrue(n.isObject(), name);
        }
    }
}
