package org.jptxas.cubin.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/**
 * The DWARF decoders of {@code jcuobjdump -elf} on the sections ptxas 13 wrote (-g, sm_80) for a one-line CUDA kernel
 * compiled with {@code nvcc -G}: {@code struct S { int a; float b; }; __global__ void t(S *p, int n) { int i =
 * threadIdx.x; if (i < n) p[i].a = i; }}, and on a location list of a larger one; each expected text is cuobjdump
 * 12.5's for the same bytes. ToolDropInTest compares whole dumps with cuobjdump on the corpus.
 */
class DwarfDumpTest {
    private static final byte[] ABBREV = HexFormat.of().parseHex(
            "01110125081305030810061b081101000002130103080b0b3a0b3b0b0000030d00030849133a0b3b0b380a000004240003083e0b0b0b0000" +
            "052e0111011201400a87400803083a0b3b0b49133f0c0000060500020a330b03083a0b3b0b49130000070b01110112010000083400020a33" +
            "0b03083a0b3b0b49130000093b00030800000a0f0049133306000000");
    private static final byte[] INFO = HexFormat.of().parseHex(
            "e400000002000000000008016c67656e66653a2045444720362e36000400742e637500000000002f746d702f64772f740000000000000000" +
            "000253000801010361005800000001010223000362005f00000001010223040004696e7400050404666c6f61740004040500000000000000" +
            "008003000000000000019c5f5a3174503153690074000102d80000000106090360010000000000000770000102de00000006090368010000" +
            "00000000076e0001025800000007f000000000000000b002000000000000080590b1e49501026900010258000000000009766f6964000a39" +
            "0000000c00000000");
    private static final byte[] REG_SASS = HexFormat.of().parseHex(
            "5f5a317450315369000e00000000000000257264310005000005700000007002000001000000257264310008000005800000007002000000" +
            "0000002572320000000005b00000005001000000000000257233000200000500010000200100000000000025723100020000051001000020" +
            "01000000000000257231000400000520010000a0020000000000002570310000000002300100004001000000000000257032000000000240" +
            "0100005001000000000000257264320002000005a0010000d001000001000000257264320003000005b0010000c001000001000000257264" +
            "330003000005c0010000f001000000000000257264330002000005d0010000e001000000000000257264340002000005e001000070020000" +
            "01000000257264340003000005f001000070020000");
    private static final byte[] REG_TYPE = HexFormat.of().parseHex(
            "5f5a317450315369000e0000000303020202021010030303030303");
    /** The first location list of a kernel's .debug_loc (a variable that moves between five registers). */
    private static final byte[] LOC = HexFormat.of().parseHex(
            "30120000000000007012000000000000050090b1e495017012000000000000e012000000000000060090b3e8c8ab02e01200000000000080" +
            "1b000000000000050090b3e49501801b000000000000d01b000000000000050090b5e49501d01b0000000000008024000000000000060090" +
            "b3e8c8ab0200000000000000000000000000000000");

    @Test
    void abbreviations() {
        assertEquals("""

                Contents of the .debug_abbrev section:

                  Number  TAG
                   1      0x11 DW_TAG_compile_unit      [has children]
                   DW_AT_producer(0x25)          DW_FORM_string(0x8)
                   DW_AT_language(0x13)          DW_FORM_data2(0x5)
                   DW_AT_name(0x3)          DW_FORM_string(0x8)
                   DW_AT_stmt_list(0x10)          DW_FORM_data4(0x6)
                   DW_AT_comp_dir(0x1b)          DW_FORM_string(0x8)
                   DW_AT_low_pc(0x11)          DW_FORM_addr(0x1)

                   2      0x13 DW_TAG_structure_type      [has children]
                   DW_AT_name(0x3)          DW_FORM_string(0x8)
                   DW_AT_byte_size(0xb)          DW_FORM_data1(0xb)
                   DW_AT_decl_file(0x3a)          DW_FORM_data1(0xb)
                   DW_AT_decl_line(0x3b)          DW_FORM_data1(0xb)

                   3      0x0d DW_TAG_member      [has no children]
                   DW_AT_name(0x3)          DW_FORM_string(0x8)
                   DW_AT_type(0x49)          DW_FORM_ref4(0x13)
                   DW_AT_decl_file(0x3a)          DW_FORM_data1(0xb)
                   DW_AT_decl_line(0x3b)          DW_FORM_data1(0xb)
                   DW_AT_data_member_location(0x38)          DW_FORM_block1(0xa)

                   4      0x24 DW_TAG_base_type      [has no children]
                   DW_AT_name(0x3)          DW_FORM_string(0x8)
                   DW_AT_encoding(0x3e)          DW_FORM_data1(0xb)
                   DW_AT_byte_size(0xb)          DW_FORM_data1(0xb)

                   5      0x2e DW_TAG_subprogram      [has children]
                   DW_AT_low_pc(0x11)          DW_FORM_addr(0x1)
                   DW_AT_high_pc(0x12)          DW_FORM_addr(0x1)
                   DW_AT_frame_base(0x40)          DW_FORM_block1(0xa)
                   DW_AT_MIPS_linkage_name(0x2007)          DW_FORM_string(0x8)
                   DW_AT_name(0x3)          DW_FORM_string(0x8)
                   DW_AT_decl_file(0x3a)          DW_FORM_data1(0xb)
                   DW_AT_decl_line(0x3b)          DW_FORM_data1(0xb)
                   DW_AT_type(0x49)          DW_FORM_ref4(0x13)
                   DW_AT_external(0x3f)          DW_FORM_flag(0xc)

                   6      0x05 DW_TAG_formal_parameter      [has no children]
                   DW_AT_location(0x2)          DW_FORM_block1(0xa)
                   DW_AT_address_class(0x33)          DW_FORM_data1(0xb)
                   DW_AT_name(0x3)          DW_FORM_string(0x8)
                   DW_AT_decl_file(0x3a)          DW_FORM_data1(0xb)
                   DW_AT_decl_line(0x3b)          DW_FORM_data1(0xb)
                   DW_AT_type(0x49)          DW_FORM_ref4(0x13)

                   7      0x0b DW_TAG_lexical_block      [has children]
                   DW_AT_low_pc(0x11)          DW_FORM_addr(0x1)
                   DW_AT_high_pc(0x12)          DW_FORM_addr(0x1)

                   8      0x34 DW_TAG_variable      [has no children]
                   DW_AT_location(0x2)          DW_FORM_block1(0xa)
                   DW_AT_address_class(0x33)          DW_FORM_data1(0xb)
                   DW_AT_name(0x3)          DW_FORM_string(0x8)
                   DW_AT_decl_file(0x3a)          DW_FORM_data1(0xb)
                   DW_AT_decl_line(0x3b)          DW_FORM_data1(0xb)
                   DW_AT_type(0x49)          DW_FORM_ref4(0x13)

                   9      0x3b DW_TAG_unspecified_type      [has no children]
                   DW_AT_name(0x3)          DW_FORM_string(0x8)

                   10      0x0f DW_TAG_pointer_type      [has no children]
                   DW_AT_type(0x49)          DW_FORM_ref4(0x13)
                   DW_AT_address_class(0x33)          DW_FORM_data4(0x6)


                """, DebugAbbrevDump.print(ABBREV));
    }

    @Test
    void debuggingInformationEntries() {
        assertEquals("""
                 Compilation Unit @ offset 0x0:
                  Length:           228
                  Version:          2
                  Abbrev Offset:    0
                  Pointer Size:     8
                 <0><b>:  Abbrev Number: 1   (0x11 DW_TAG_compile_unit)
                      DW_AT_producer   \tlgenfe: EDG 6.6
                      DW_AT_language   \t0x4
                      DW_AT_name   \tt.cu
                      DW_AT_stmt_list   \t0x0
                      DW_AT_comp_dir   \t/tmp/dw/t
                      DW_AT_low_pc   \t0
                 <1><39>:  Abbrev Number: 2   (0x13 DW_TAG_structure_type)
                      DW_AT_name   \tS
                      DW_AT_byte_size   \t0x8
                      DW_AT_decl_file   \t0x1
                      DW_AT_decl_line   \t0x1
                 <2><3f>:  Abbrev Number: 3   (0x0d DW_TAG_member)
                      DW_AT_name   \ta
                      DW_AT_type   \t<58>
                      DW_AT_decl_file   \t0x1
                      DW_AT_decl_line   \t0x1
                      DW_AT_data_member_location   \t  2 byte block: 23  0 (DW_OP_plus_uconst: 0)
                 <2><4b>:  Abbrev Number: 3   (0x0d DW_TAG_member)
                      DW_AT_name   \tb
                      DW_AT_type   \t<5f>
                      DW_AT_decl_file   \t0x1
                      DW_AT_decl_line   \t0x1
                      DW_AT_data_member_location   \t  2 byte block: 23  4 (DW_OP_plus_uconst: 4)
                 <1><58>:  Abbrev Number: 4   (0x24 DW_TAG_base_type)
                      DW_AT_name   \tint
                      DW_AT_encoding   \t0x5
                      DW_AT_byte_size   \t0x4
                 <1><5f>:  Abbrev Number: 4   (0x24 DW_TAG_base_type)
                      DW_AT_name   \tfloat
                      DW_AT_encoding   \t0x4
                      DW_AT_byte_size   \t0x4
                 <1><68>:  Abbrev Number: 5   (0x2e DW_TAG_subprogram)
                      DW_AT_low_pc   \t0
                      DW_AT_high_pc   \t380
                      DW_AT_frame_base   \t  1 byte block: 9c\s
                      DW_AT_MIPS_linkage_name   \t_Z1tP1Si
                      DW_AT_name   \tt
                      DW_AT_decl_file   \t0x1
                      DW_AT_decl_line   \t0x2
                      DW_AT_type   \t<d8>
                      DW_AT_external   \t1
                 <2><8d>:  Abbrev Number: 6   (0x05 DW_TAG_formal_parameter)
                      DW_AT_location   \t  9 byte block:  3 60  1  0  0  0  0  0  0 (DW_OP_addr: 0x160)
                      DW_AT_address_class   \t0x7
                      DW_AT_name   \tp
                      DW_AT_decl_file   \t0x1
                      DW_AT_decl_line   \t0x2
                      DW_AT_type   \t<de>
                 <2><a1>:  Abbrev Number: 6   (0x05 DW_TAG_formal_parameter)
                      DW_AT_location   \t  9 byte block:  3 68  1  0  0  0  0  0  0 (DW_OP_addr: 0x168)
                      DW_AT_address_class   \t0x7
                      DW_AT_name   \tn
                      DW_AT_decl_file   \t0x1
                      DW_AT_decl_line   \t0x2
                      DW_AT_type   \t<58>
                 <2><b5>:  Abbrev Number: 7   (0x0b DW_TAG_lexical_block)
                      DW_AT_low_pc   \tf0
                      DW_AT_high_pc   \t2b0
                 <3><c6>:  Abbrev Number: 8   (0x34 DW_TAG_variable)
                      DW_AT_location   \t  5 byte block: 90 b1 e4 95  1 (DW_OP_regx: %r1)
                      DW_AT_address_class   \t0x2
                      DW_AT_name   \ti
                      DW_AT_decl_file   \t0x1
                      DW_AT_decl_line   \t0x2
                      DW_AT_type   \t<58>
                 <1><d8>:  Abbrev Number: 9   (0x3b DW_TAG_unspecified_type)
                      DW_AT_name   \tvoid
                 <1><de>:  Abbrev Number: 10   (0x0f DW_TAG_pointer_type)
                      DW_AT_type   \t<39>
                      DW_AT_address_class   \t0xc

                """, DebugInfoDump.print(INFO, ABBREV, new byte[0]));
    }

    @Test
    void registerMaps() {
        assertEquals("""
                  Function Name: _Z1tP1Si
                  Total entry: e
                    (reg: %rd1) 0x5000005, 0x70, 0x270
                    (reg: %rd1) 0x5000008, 0x80, 0x270
                    (reg: %r2) 0x5000000, 0xb0, 0x150
                    (reg: %r3) 0x5000002, 0x100, 0x120
                    (reg: %r1) 0x5000002, 0x110, 0x120
                    (reg: %r1) 0x5000004, 0x120, 0x2a0
                    (reg: %p1) 0x2000000, 0x130, 0x140
                    (reg: %p2) 0x2000000, 0x140, 0x150
                    (reg: %rd2) 0x5000002, 0x1a0, 0x1d0
                    (reg: %rd2) 0x5000003, 0x1b0, 0x1c0
                    (reg: %rd3) 0x5000003, 0x1c0, 0x1f0
                    (reg: %rd3) 0x5000002, 0x1d0, 0x1e0
                    (reg: %rd4) 0x5000002, 0x1e0, 0x270
                    (reg: %rd4) 0x5000003, 0x1f0, 0x270

                """, DebugRegSassDump.print(REG_SASS));
        assertEquals("""
                  Function Name: _Z1tP1Si
                  Total entry: e
                .b64
                .b64
                .b32
                .b32
                .b32
                .b32
                .pred
                .pred
                .b64
                .b64
                .b64
                .b64
                .b64
                .b64

                """, DebugRegTypeDump.print(REG_TYPE));
    }

    @Test
    void locationList() {
        assertEquals("""

                \tStart Address\tEnd Address\tRegister-name
                .debug_loc + 0:
                \t0x1230\t\t0x1270\t\tDW_OP_regx: %r1
                \t0x1270\t\t0x12e0\t\tDW_OP_regx: %r43
                \t0x12e0\t\t0x1b80\t\tDW_OP_regx: %r3
                \t0x1b80\t\t0x1bd0\t\tDW_OP_regx: %r5
                \t0x1bd0\t\t0x2480\t\tDW_OP_regx: %r43

                """, DebugLocDump.print(LOC));
    }

    @Test
    void registerNamesArePackedIntoTheUleb() {
        assertEquals("%r1", DwarfExpression.registerName(0x257231));
        assertEquals("DW_OP_regx: %rd1", DwarfExpression.decode(HexFormat.of().parseHex("90b1c8c9ab02"), 8).get(0));
        // ptxas's location of a parameter passed by reference (sm_100, cuobjdump 12.5's text)
        assertEquals("DW_OP_bregx: %rd3 0x0", DwarfExpression.decode(HexFormat.of().parseHex("92b3c8c9ab0200"), 8).get(0));
    }

    /** Every cut of every section decodes to a prefix of the whole text's first lines, without an exception. */
    @Test
    void truncatedSectionsPrintWhatWasRead() {
        for (int n = 0; n < INFO.length; n++) {
            String text = DebugInfoDump.print(Arrays.copyOf(INFO, n), ABBREV, new byte[0]);
            assertTrue(text.endsWith("\n"), text);
        }
        for (int n = 0; n < ABBREV.length; n++) {
            DebugAbbrevDump.print(Arrays.copyOf(ABBREV, n));
            DebugInfoDump.print(INFO, Arrays.copyOf(ABBREV, n), new byte[0]);
        }
        for (int n = 0; n < REG_SASS.length; n++) {
            String text = DebugRegSassDump.print(Arrays.copyOf(REG_SASS, n));
            assertTrue(DebugRegSassDump.print(REG_SASS).startsWith(text.substring(0, text.length() - 1)), text);
        }
        for (int n = 0; n < LOC.length; n++) {
            String text = DebugLocDump.print(Arrays.copyOf(LOC, n));
            assertTrue(text.startsWith("\n\tStart Address\tEnd Address\tRegister-name\n"), text);
        }
        String cut = DebugInfoDump.print(Arrays.copyOf(INFO, 0x50), ABBREV, new byte[0]);
        assertTrue(cut.contains(" <1><39>:  Abbrev Number: 2   (0x13 DW_TAG_structure_type)\n"), cut);
    }

    @Test
    void dwarfNamesComeFromTheTable() {
        assertEquals("DW_TAG_template_value_parameter", DebugAbbrevDump.tagName(0x30));
        assertEquals("DW_AT_MIPS_linkage_name", DebugAbbrevDump.attributeName(0x2007));
        assertEquals("DW_AT_stride_size", DebugAbbrevDump.attributeName(0x2e));
        assertEquals("", DebugAbbrevDump.attributeName(0x2134)); // nvcc 13's on sm_100, unknown to cuobjdump 12.5
        assertEquals("DW_FORM_ref_udata", DebugAbbrevDump.formName(0x15));
        assertEquals("Unknown FORM value 23", DebugAbbrevDump.formName(23));
    }
}
