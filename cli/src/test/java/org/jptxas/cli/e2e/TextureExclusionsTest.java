package org.jptxas.cli.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jptxas.spi.BackendRegistry;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The texture and surface forms ptxas 13 accepts that jptxas does not compile yet stop with a message that names
 * what is missing (the README's named exclusions; {@code scripts/texture-inventory-run} counts them over every
 * form), not with a parse or operand error; the nearest supported form of each still compiles. Each case is one
 * instruction in a kernel with a bindless handle parameter {@code h} (or a bound {@code .texref tr} /
 * {@code .surfref sr}), coordinates in {@code %r1..%r8} and results in {@code %r30..%r33}.
 */
class TextureExclusionsTest {
    private static final BackendRegistry REGISTRY =
            BackendRegistry.discover(TextureExclusionsTest.class.getClassLoader());

    private static String kernel(String sm, String insn, String results) {
        return ".version 8.8\n.target " + sm + "\n.address_size 64\n.global .texref tr;\n.global .surfref sr;\n"
                + ".visible .entry k(.param .u64 p, .param .u64 h)\n{\n"
                + "  .reg .b32 %r<40>;\n  .reg .b16 %hs<8>;\n  .reg .pred %p<4>;\n  .reg .b64 %rd<8>;\n"
                + "  ld.param.u64 %rd1, [p];\n  ld.param.u64 %rd4, [h];\n  cvta.to.global.u64 %rd2, %rd1;\n"
                + "  ld.global.v4.b32 {%r1, %r2, %r3, %r4}, [%rd2];\n"
                + "  ld.global.v4.b32 {%r5, %r6, %r7, %r8}, [%rd2+16];\n"
                + "  " + insn + ";\n" + results + "  ret;\n}\n";
    }

    private static String refusal(Path dir, String sm, String insn, String results) throws Exception {
        Path ptx = dir.resolve("k.ptx");
        Files.writeString(ptx, kernel(sm, insn, results));
        return WarpKernelHarness.refusal(REGISTRY, ptx, sm);
    }

    private static final String V4 = "  st.global.v4.b32 [%rd2], {%r30, %r31, %r32, %r33};\n";
    private static final String B32 = "  st.global.b32 [%rd2], %r30;\n";

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "tex.level.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2}], %r5;explicit level of detail",
        "tex.grad.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2}], {%r5, %r6}, {%r7, %r8};explicit level",
        "tex.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2}], {%r5, %r6};texel offsets and depth compare",
        "tex.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}|%p1, [%rd4, {%r1, %r2}];residency predicate",
        "tex.a2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2, %r3, %r4}];array, cube and multisample",
        "tex.cube.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2, %r3, %r4}];array, cube and multisample",
        "tld4.r.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2}], {%r5, %r6}, %r7;tld4 offsets and depth",
        "tld4.g.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}|%p1, [%rd4, {%r1, %r2}];residency predicate",
        "tld4.b.a2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2, %r3, %r4}];tld4 of array and cube",
        "tld4.a.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [tr, {%r1, %r2}];tld4 of a bound texture reference",
    })
    void textureFormsAreRefusedByName(String insn, String reason, @TempDir Path dir) throws Exception {
        for (String sm : new String[] {"sm_80", "sm_90"}) {
            String message = refusal(dir, sm, insn, V4);
            assertTrue(message.contains("not yet supported") && message.contains(reason), sm + ": " + message);
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "txq.num_mipmap_levels.b32 %r30, [%rd4];descriptor fields other than the size",
        "txq.level.width.b32 %r30, [%rd4], %r5;txq of an explicit level",
        "txq.width.b32 %r30, [tr];txq of a bound reference",
        "suq.channel_order.b32 %r30, [%rd4];descriptor fields other than the size",
        "suld.b.2d.v4.b8.trap {%hs0, %hs1, %hs2, %hs3}, [%rd4, {%r1, %r2}];8- and 16-bit surface elements",
        "sust.p.2d.b32.trap [%rd4, {%r1, %r2}], %r5;formatted surface access",
        "sust.b.2d.b32.trap [sr, {%r1, %r2}], %r5;bound surface reference (.surfref)",
        "istypep.texref %p2, %rd4;istypep",
    })
    void queryAndSurfaceFormsAreRefusedByName(String insn, String reason, @TempDir Path dir) throws Exception {
        String message = refusal(dir, "sm_80", insn, B32);
        assertTrue(message.contains("not yet supported") && message.contains(reason), message);
    }

    @ParameterizedTest
    @CsvSource(delimiter = ';', value = {
        "tex.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2}]",
        "tld4.r.2d.v4.f32.f32 {%r30, %r31, %r32, %r33}, [%rd4, {%r1, %r2}]",
        "tex.3d.v4.s32.s32 {%r30, %r31, %r32, %r33}, [tr, {%r1, %r2, %r3, %r4}]",
    })
    void theNearestSupportedFormsCompile(String insn, @TempDir Path dir) throws Exception {
        for (String sm : new String[] {"sm_80", "sm_90"}) {
            assertEquals("", refusal(dir, sm, insn, V4), sm);
        }
    }
}
