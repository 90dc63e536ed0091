package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Prefetches are kept as the cache operations ptxas 13 writes for them, not dropped as hints: the expected lists are
 * what ptxas 13 (sm_80/89/90) and 12.5 (sm_75) emitted for the same kernel, read with nvdisasm 12.5 (generic and
 * global lines {@code CCTL.E.PF1/PF2}, {@code .L2::evict_last} {@code CCTL.E.PML2}, local lines {@code CCTLL}, tensor
 * maps {@code UTMACCTL.PF}).
 */
class PrefetchCodegenTest {
    @TempDir
    Path dir;

    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_89", "sm_90"})
    void prefetchesBecomeCacheControl(String sm) throws IOException {
        boolean evictionPriority = !sm.equals("sm_75");
        boolean tensorMaps = sm.equals("sm_90");
        Files.writeString(dir.resolve("k.ptx"), """
                .version 8.5
                .target %s
                .address_size 64
                .const .align 64 .b8 cm[128];
                .visible .entry k(.param .u64 p, .param .align 64 .b8 tm[128])
                {
                  .reg .b64 rd<8>; .reg .b32 r<4>; .reg .pred q<2>;
                  ld.param.u64 rd1, [p];
                  mov.u32 r1, %%tid.x; mul.wide.u32 rd2, r1, 4; add.s64 rd3, rd1, rd2;
                  setp.eq.u32 q1, r1, 0;
                  prefetch.L1 [rd3+16];
                  prefetch.L2 [rd3];
                  prefetch.local.L1 [rd3+8];
                  prefetch.local.L2 [rd3];
                  prefetchu.L1 [rd3];
                  @q1 prefetch.global.L1 [rd3];
                %s%s  st.global.u32 [rd1], r1;
                  ret;
                }
                """.formatted(sm,
                evictionPriority ? "  prefetch.L2::evict_last [rd3];\n  prefetch.global.L2::evict_normal [rd3+64];\n"
                        : "",
                tensorMaps ? "  prefetch.param.tensormap [tm];\n  prefetch.tensormap [rd3];\n"
                        + "  prefetch.const.tensormap [cm];\n  prefetch.const.tensormap [rd1];\n"
                        + "  @q1 prefetch.tensormap [rd1];\n" : ""));
        CliRun r = CliRun.run(dir, "-arch=" + sm, "k.ptx", "-o", "k.cubin", "--out-sass", "k.sass");
        assertEquals("", r.err());
        List<String> expected = new ArrayList<>(List.of("@P0 CCTL.E.PF1", "CCTL.E.PF1", "CCTL.E.PF1", "CCTL.E.PF2",
                "CCTLL.PF1", "CCTLL.PF2"));
        if (evictionPriority) {
            expected.addAll(List.of("CCTL.E.PF2", "CCTL.E.PML2"));
        }
        if (tensorMaps) {
            expected.addAll(List.of("UTMACCTL.PF", "UTMACCTL.PF", "UTMACCTL.PF", "UTMACCTL.PF", "UTMACCTL.PF"));
        }
        List<String> got = new ArrayList<>();
        Matcher m = Pattern.compile("(@!?U?P\\d )?\\s*(CCTLL?\\.\\S+|UTMACCTL\\.\\S+) \\[").matcher(
                Files.readString(dir.resolve("k.sass")));
        while (m.find()) {
            got.add((m.group(1) == null ? "" : m.group(1).replaceAll("\\d", "0")) + m.group(2));
        }
        expected.sort(null);
        got.sort(null);
        assertEquals(expected, got);
    }
}
