package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A {@code __constant__} operand (bank 3) of FADD and LOP3.LUT is read in the instruction, as ptxas 13 reads it
 * ({@code FADD R5, R4, c[0x3][-0x7000]}, {@code LOP3.LUT R7, R0, c[0x3][-0x8000], RZ, 0xc0, !PT}), not through a MOV:
 * the forms held bank 0 as literal text, and copy propagation counted LOP3's truth table as its constant slot.
 */
class ConstantOperandFoldTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89"})
    void faddAndLop3ReadTheConstantBank(String sm) throws IOException {
        Files.writeString(dir.resolve("k.ptx"), """
                .version 8.5
                .target %s
                .address_size 64
                .const .align 4 .b32 tab[16384];
                .visible .entry k(.param .u64 p)
                {
                  .reg .b32 r<8>; .reg .f32 f<8>; .reg .b64 rd<2>;
                  ld.param.u64 rd1, [p];
                  ld.global.b32 r1, [rd1];
                  ld.global.f32 f1, [rd1+4];
                  ld.const.b32 r2, [tab+32768];
                  ld.const.f32 f2, [tab+36864];
                  and.b32 r3, r1, r2;
                  add.f32 f3, f1, f2;
                  st.global.b32 [rd1], r3;
                  st.global.f32 [rd1+4], f3;
                  ret;
                }
                """.formatted(sm));
        CliRun r = CliRun.run(dir, "-arch=" + sm, "k.ptx", "-o", "k.cubin", "--out-sass", "k.sass");
        assertEquals("", r.err());
        String sass = Files.readString(dir.resolve("k.sass"));
        assertTrue(Pattern.compile("LOP3\\.LUT R\\d+, R\\d+, c\\[0x3\\]\\[-0x8000\\]").matcher(sass).find(), sass);
        assertTrue(Pattern.compile("FADD R\\d+, R\\d+, c\\[0x3\\]\\[-0x7000\\]").matcher(sass).find(), sass);
        assertFalse(Pattern.compile("MOV R\\d+, c\\[0x3\\]").matcher(sass).find(), sass);
    }
}
