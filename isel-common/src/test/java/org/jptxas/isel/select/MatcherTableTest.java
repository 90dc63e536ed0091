package org.jptxas.isel.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableLoader;
import org.jptxas.tables.isel.EmitAction;
import org.jptxas.tables.isel.MatcherData;
import org.jptxas.tables.isel.MatcherTable;
import org.jptxas.tables.isel.OperandKind;
import org.jptxas.tables.isel.OperandTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jptxas.spi.TestTargets;

class MatcherTableTest {
    static final List<String> SETS = List.of("common.json", "sm70.json", "sm75.json", "sm80.json", "sm89-90.json", "sm100.json");

    private static MatcherTable read(String json) {
        return TableLoader.read("isel/test.json", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                MatcherTable.class);
    }

    private static String table(String matcher) {
        return "{\"scope\": \"t\", \"description\": \"d\", \"matchers\": [" + matcher + "]}";
    }

    private static final String GOOD = "{\"name\": \"m\", \"priority\": 5, \"targets\": [], \"ops\": [\"LDG\"],"
            + " \"mods\": [\"E\", \"!SYS\"], \"operands\": [\"2:imm:-0x80000..0x7ffff\"], \"emit\": [\"+SYS\"],"
            + " \"why\": \"w\"}";

    @Test
    void everyBackendsSetsLoadAndNameOnlyOriOpcodes() {
        java.util.Set<String> seen = new java.util.TreeSet<>();
        for (String target : TestTargets.names()) {
            org.jptxas.spi.TargetDescription d = TestTargets.of(target);
            if (!d.codeGeneration()) {
                continue;
            }
            for (String s : d.codegen().matchers()) {
                seen.add(s.substring(s.lastIndexOf('/') + 1));
                for (MatcherData m : MatcherTable.load(d.tables(), s).matchers()) {
                    for (String op : m.ops()) {
                        assertTrue(OriOpcodes.get().byName(op).isPresent(), s + ": " + m.name() + " names unknown " + op);
                    }
                }
            }
        }
        assertEquals(new java.util.TreeSet<>(SETS), seen);
        MatcherData fallback = MatcherTable.load(org.jptxas.tables.TableSource.SHARED, "isel/common.json").matchers().get(0);
        assertEquals(1, fallback.priority());
        assertTrue(fallback.ops().isEmpty() && fallback.emit().isEmpty());
    }

    @Test
    void compactPatternsParseIntoTypedValues() {
        MatcherData m = read(table(GOOD)).matchers().get(0);
        OperandTest o = m.operands().get(0);
        assertEquals(2, o.index());
        assertEquals(java.util.Set.of(OperandKind.IMM), o.kinds());
        assertEquals(-0x80000, o.min());
        assertEquals(0x7ffff, o.max());
        assertEquals(EmitAction.Kind.APPEND_MOD, m.emit().get(0).kind());
        assertFalse(m.mods().get(1).required());
        assertEquals("2:imm:-524288..524287", o.text());
        assertEquals(List.of("PT", "0"), EmitAction.parse("ops:PT,0").operands());
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "\"priority\": 5|\"priority\": 0|priority 0 outside",
        "\"emit\": [\"+SYS\"]|\"emit\": [\"*SYS\"]|bad emit action",
        "\"emit\": [\"+SYS\"]|\"emit\": [\"ops:0,X\"]|bad operand 'X'",
        "\"operands\": [\"2:imm:-0x80000..0x7ffff\"]|\"operands\": [\"2:reg\"]|unknown operand kind 'reg'",
        "\"operands\": [\"2:imm:-0x80000..0x7ffff\"]|\"operands\": [\"2:R:0..1\"]|a range applies to imm only",
        "\"mods\": [\"E\", \"!SYS\"]|\"mods\": [\"E\", \"!E\"]|modifier E tested twice",
        "\"mods\": [\"E\", \"!SYS\"]|\"mods\": [\"e\"]|bad modifier",
        "\"ops\": [\"LDG\"]|\"ops\": [\"ldg\"]|bad Ori opcode",
        "\"why\": \"w\"|\"why\": \"w\", \"extra\": 1|unknown field 'extra'",
        ", \"why\": \"w\"||missing required field 'why'",
        "\"name\": \"m\"|\"name\": \"Bad Name\"|lower-case-with-dashes",
    })
    void malformedMatchersFailWithFileAndEntry(String spec) {
        String[] p = spec.split("\\|", -1);
        String json = table(GOOD.replace(p[0], p[1]));
        TableException e = assertThrows(TableException.class, () -> read(json));
        assertTrue(e.getMessage().startsWith("isel/test.json"), e.getMessage());
        assertTrue(e.getMessage().contains(p[2]), e.getMessage());
        assertTrue(e.getMessage().contains("matchers[0]"), e.getMessage());
    }

    @Test
    void duplicateMatcherNamesAreRefused() {
        TableException e = assertThrows(TableException.class, () -> read(table(GOOD + ", " + GOOD)));
        assertTrue(e.getMessage().contains("given twice"), e.getMessage());
    }
}
