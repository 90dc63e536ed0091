package org.jptxas.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.testing.Corpus;
import org.junit.jupiter.api.Test;

/**
 * {@code --split-compile} sets how many of a module's functions compile at a time; the cubin is the serial
 * compilation's whatever the count, module variables' address slots (numbered in module order) included.
 */
class SplitCompileTest {
    private final Jptxas jptxas = Jptxas.create();

    /** Four kernels reading module variables in different orders: the slots are numbered by first use in module order. */
    private static String globalsModule(String arch) {
        StringBuilder ptx = new StringBuilder(".version 8.0\n.target " + arch + "\n.address_size 64\n");
        for (String g : List.of("ga", "gb", "gc", "gd")) {
            ptx.append(".global .align 4 .u32 ").append(g).append(";\n");
        }
        String[][] reads = {{"gc", "ga"}, {"gb"}, {"ga", "gc", "gd"}, {"gd", "gb"}};
        for (int k = 0; k < reads.length; k++) {
            ptx.append(".visible .entry k").append(k).append("(.param .u64 out)\n{\n")
                    .append("  .reg .u64 %rd<8>;\n  .reg .u32 %r<8>;\n  ld.param.u64 %rd0, [out];\n")
                    .append("  cvta.to.global.u64 %rd1, %rd0;\n  mov.u32 %r0, 0;\n");
            for (String g : reads[k]) {
                ptx.append("  mov.u64 %rd2, ").append(g).append(";\n  ld.u32 %r1, [%rd2];\n")
                        .append("  add.u32 %r0, %r0, %r1;\n");
            }
            ptx.append("  st.global.u32 [%rd1], %r0;\n  ret;\n}\n");
        }
        return ptx.toString();
    }

    private void sameForEveryCount(String name, String ptx, String... options) {
        byte[] serial = compile(name, ptx, 1, options);
        for (int threads : new int[] {0, 4}) {
            assertArrayEquals(serial, compile(name, ptx, threads, options),
                    name + " " + String.join(" ", options) + " with --split-compile " + threads);
        }
    }

    private byte[] compile(String name, String ptx, int threads, String... options) {
        List<String> all = new ArrayList<>(List.of(options));
        all.add("--split-compile");
        all.add(Integer.toString(threads));
        CompileResult r = jptxas.compileNamed(name, ptx, all.toArray(String[]::new));
        assertTrue(r.succeeded(), () -> name + ": " + r.messages());
        return r.cubinOrThrow();
    }

    @Test
    void moduleVariablesKeepTheSerialSlots() {
        for (String arch : List.of("sm_75", "sm_80", "sm_90")) {
            sameForEveryCount("globals.ptx", globalsModule(arch), "-arch=" + arch);
            sameForEveryCount("globals.ptx", globalsModule(arch), "-arch=" + arch, "-c");
        }
    }

    /** Corpus modules of three or more functions (calls, subroutines, module variables among them). */
    @Test
    void corpusModulesOfManyFunctionsCompileAsSerially() throws IOException {
        int compared = 0;
        for (Corpus.Entry e : Corpus.assumeEntries()) {
            long functions = Long.parseLong(e.get("n_entry").isEmpty() ? "0" : e.get("n_entry"))
                    + Long.parseLong(e.get("n_func").isEmpty() ? "0" : e.get("n_func"));
            long size = Long.parseLong(e.get("size_bytes").isEmpty() ? "0" : e.get("size_bytes"));
            if (!e.ptxasAccepts() || functions < 3 || size > 30_000 || !e.arch().matches("sm_(75|80|86|89|90)")) {
                continue;
            }
            String ptx = java.nio.file.Files.readString(e.file());
            String name = e.file().getFileName().toString();
            if (!jptxas.compileNamed(name, ptx, "-arch=" + e.arch()).succeeded()) {
                continue; // an out-of-scope family: nothing to compare
            }
            sameForEveryCount(name, ptx, "-arch=" + e.arch());
            sameForEveryCount(name, ptx, "-arch=" + e.arch(), "-c");
            compared++;
        }
        assertTrue(compared >= 15, "corpus modules compared: " + compared);
    }
}
