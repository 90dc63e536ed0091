package org.jptxas.cubin.info;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.HexFormat;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.CubinFormatException;
import org.jptxas.cubin.Section;
import org.jptxas.cubin.SectionType;
import org.junit.jupiter.api.Test;

class NvInfoTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void decodesTheRecordsPtxasWrites() {
        // sm_90 .nv.info.axpy head: CUDA_API_VERSION 130, a KPARAM_INFO, MAXREG_COUNT 255, NUM_BARRIERS 2,
        // EXIT_INSTR_OFFSETS, CBANK_PARAM_SIZE 16, PARAM_CBANK (sym 0x14, 0x210, 16).
        byte[] b = hex("04370400 82000000 04170c00 00000000 02000c00 00f01100 031bff00 024c0200"
                + "041c0800 40000000 00030000 03191000 040a0800 14000000 10021000");
        List<Attribute> a = NvInfo.decode(b, "test");
        assertEquals(List.of(
                new Attribute.Words(0x37, new int[] {0x82}),
                Attribute.KParamInfo.cbankParameter(2, 0xc, 4),
                new Attribute.Inline(0x1b, EiFormat.HVAL, 0xff),
                new Attribute.Inline(0x4c, EiFormat.BVAL, 2),
                new Attribute.Words(0x1c, new int[] {0x40, 0x300}),
                new Attribute.Inline(0x19, EiFormat.HVAL, 0x10),
                new Attribute.ParamCbank(0x14, 0x210, 0x10)), a);
        assertEquals("CUDA_API_VERSION", a.get(0).name());
        assertArrayEquals(b, NvInfo.encode(a));
    }

    @Test
    void kparamSizeIsInBytesFromBit18() {
        // ptxas 13: a 100-byte .b8 array parameter at 0x10 and a .u8 parameter.
        Attribute.KParamInfo array = (Attribute.KParamInfo) NvInfo.decode(hex("04170c00 00000000 01001000 00f09101"), "t").get(0);
        assertEquals(100, array.size());
        assertEquals(0x10, array.offset());
        assertEquals(0x1f, array.cbank());
        Attribute.KParamInfo u8 = (Attribute.KParamInfo) NvInfo.decode(hex("04170c00 00000000 00000000 00f00500"), "t").get(0);
        assertEquals(1, u8.size());
    }

    @Test
    void symbolValuesOfTheGlobalInfo() {
        List<Attribute> a = NvInfo.decode(hex("042f0800 12000000 10000000 04110800 0e000000 00000000"), "t");
        assertEquals(new Attribute.SymbolValue(0x2f, 0x12, 16), a.get(0));
        assertEquals(new Attribute.SymbolValue(0x11, 0x0e, 0), a.get(1));
    }

    @Test
    void oddAndUnknownRecordsStayRaw() {
        byte[] b = hex("03770500 04ee0300 010203");
        List<Attribute> a = NvInfo.decode(b, "t");
        assertEquals("0x77", a.get(0).name());
        assertTrue(a.get(1) instanceof Attribute.Raw);
        assertArrayEquals(b, NvInfo.encode(a));
    }

    @Test
    void truncatedRecordsAreFormatErrors() {
        assertThrows(CubinFormatException.class, () -> NvInfo.decode(hex("04370800 82000000"), "t"));
        assertThrows(CubinFormatException.class, () -> NvInfo.decode(hex("0437"), "t"));
        assertThrows(CubinFormatException.class, () -> NvInfo.decode(hex("09370000"), "t"));
    }

    @Test
    void everyInfoSectionOfTheFixturesRoundTrips() throws IOException {
        for (String name : List.of("fixture_sm_75.cubin", "fixture_sm_90_c.cubin", "fixture_sm_100.cubin", "fixture125_sm_86.cubin")) {
            Cubin cubin;
            try (InputStream in = Cubin.class.getResourceAsStream(name)) {
                cubin = Cubin.read(in.readAllBytes());
            }
            int n = 0;
            for (Section s : cubin.sections()) {
                if (s.type() == SectionType.CUDA_INFO || s.type() == SectionType.CUDA_MERC_INFO) {
                    assertArrayEquals(s.data(), NvInfo.encode(NvInfo.decode(s.data(), s.name())), s.name());
                    n++;
                } else if (s.type() == SectionType.CUDA_COMPAT) {
                    assertArrayEquals(s.data(), NvInfo.encode(NvInfo.decodeCompat(s.data(), s.name())), s.name());
                }
            }
            assertTrue(n >= 3, name);
        }
    }
}
