package org.jptxas.cubin.tables;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class CubinTablesTest {
    @Test
    void eiattrCodesAndPayloads() {
        assertEquals("REGCOUNT", CubinTables.eiattr(0x2f).orElseThrow().name());
        assertEquals(CubinTables.Payload.symbolValue, CubinTables.eiattr(0x2f).orElseThrow().payload());
        assertEquals(CubinTables.Payload.kparamInfo, CubinTables.eiattr(0x17).orElseThrow().payload());
        assertEquals(0x5f, CubinTables.eiattrCode("MERCURY_ISA_VERSION"));
        assertTrue(CubinTables.eiattr(0x55).orElseThrow().cuobjdump125());
        assertFalse(CubinTables.eiattr(0x56).orElseThrow().cuobjdump125());
        assertTrue(CubinTables.eiattr(0xee).isEmpty());
    }

    @Test
    void relocationTypesAreDense() {
        assertEquals(117, CubinTables.relocations().size());
        assertEquals("R_CUDA_ABS47_34", CubinTables.relocation(58).orElseThrow().name());
        assertEquals("R_CUDA_ABS55_16_34", CubinTables.relocation(75).orElseThrow().name());
        assertEquals("R_CUDA_G8_56", CubinTables.relocation(91).orElseThrow().name());
        assertEquals(57, CubinTables.relocationCode("R_CUDA_ABS32_HI_32"));
    }

    @Test
    void nvInfoRulesCoverEveryPtxas13Target() {
        for (int sm : new int[] {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121}) {
            CubinTables.NvInfoRules r = CubinTables.nvInfoRules(sm);
            assertTrue(r.rank(0x37) < r.rank(0x1c), "CUDA_API_VERSION before EXIT_INSTR_OFFSETS on sm_" + sm);
        }
        assertEquals(1, CubinTables.nvInfoRules(75).swWar());
        assertEquals(8, CubinTables.nvInfoRules(90).swWar());
        assertEquals(0, CubinTables.nvInfoRules(121).swWar());
        assertEquals(-1, CubinTables.nvInfoRules(88).swWar());
        assertEquals(0x0101, CubinTables.nvInfoRules(103).mercuryIsaVersion());
    }

    @Test
    void sectionTypeNames() {
        assertEquals("CUDA_INFO", CubinTables.sectionType(0x70000000).orElseThrow().name());
        assertFalse(CubinTables.sectionType(0x70000086).orElseThrow().cuobjdump125());
        assertEquals("ACCELERATOR_TARGET", CubinTables.eicompat(9).orElseThrow().name());
    }
}
