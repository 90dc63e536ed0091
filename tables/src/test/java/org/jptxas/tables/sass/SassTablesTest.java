package org.jptxas.tables.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.jptxas.tables.TableException;
import org.jptxas.tables.TableSource;
import org.jptxas.tables.TableLoader;
import org.junit.jupiter.api.Test;

/** The SASS form tables load strictly, and every SM has base + overlay. */
class SassTablesTest {
    private static final String FORM = "{\"mnemonic\":\"LDC\",\"key\":2946,\"pieces\":[\"LDC \",\", c[\",\"][\",\"]\"],"
            + "\"mask\":\"fc0001ffffffffffffc0003f00ffffff\",\"bits\":\"00000000000008000000000000000b82\","
            + "\"slots\":[\"GPR 23:16\",\"HEX 58:54\",\"HEX 53:38\"],\"exclude\":[]}";

    private static SassFormTable read(String forms) {
        String json = "{\"format\":\"volta-128\",\"scope\":\"sm_90\",\"derivedWith\":\"test\",\"descriptorFields\":{},\"forms\":[" + forms + "]}";
        return TableLoader.read("t.json", new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)),
                SassFormTable.class);
    }

    @Test
    void readsAForm() {
        SassFormData f = read(FORM).forms().get(0);
        assertEquals("LDC", f.mnemonic());
        assertEquals(SassSlotData.field("GPR", "23:16", 0), f.slots().get(0));
        assertEquals("=RZ", SassSlotData.parse("=RZ").text());
        assertEquals("LABEL 23:16,81:34 >>2", SassSlotData.parse("LABEL 23:16,81:34 >>2").text());
    }

    @Test
    void rejectsBadEntriesByName() {
        TableException e = assertThrows(TableException.class, () -> read(FORM.replace("GPR 23:16", "GRP 23:16")));
        assertTrue(e.getMessage().contains("unknown slot kind 'GRP'"), e.getMessage());
        e = assertThrows(TableException.class, () -> read(FORM.replace("\"exclude\":[]", "\"exclude\":[],\"x\":1")));
        assertTrue(e.getMessage().contains("unknown field 'x'"), e.getMessage());
        e = assertThrows(TableException.class, () -> read(FORM.replace(",\"exclude\":[]", "")));
        assertTrue(e.getMessage().contains("exclude"), e.getMessage());
        e = assertThrows(TableException.class, () -> read(FORM.replace("\"exclude\":[]", "\"exclude\":[\"0=7\"]")));
        assertTrue(e.getMessage().contains("bad exclusion"), e.getMessage());
        e = assertThrows(TableException.class, () -> read(FORM.replace("\"key\":2946", "\"key\":99999")));
        assertTrue(e.getMessage().contains("13-bit"), e.getMessage());
    }

    @Test
    void aBaseNeedsAnOverlayOfItsOwnScope() {
        TableException e = assertThrows(TableException.class,
                () -> SassTables.forms(TableSource.SHARED, SassTables.FAMILY_BASE, SassTables.FAMILY_BASE));
        assertTrue(e.getMessage().contains("a base and an overlay are needed"), e.getMessage());
    }
}
