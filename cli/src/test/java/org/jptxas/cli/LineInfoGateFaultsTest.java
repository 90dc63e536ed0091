package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.DebugLine;
import org.jptxas.cubin.Section;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Planted faults for {@link LineInfoGate} (the {@code -lineinfo} gate of {@link LineInfoOracleTest}): no items, a
 * crashing compiler, a line table with one row dropped, and a cubin without line tables each make it fail; the
 * unchanged cubin passes against itself, so the failures come from the faults.
 */
class LineInfoGateFaultsTest {
    @TempDir
    Path dir;

    static final String PTX = """
            .version 8.0
            .target sm_80
            .address_size 64
            .visible .entry k(.param .u64 p)
            {
              .reg .b32 %r<4>;
              .reg .b64 %rd<4>;
              .loc 1 10 0
              ld.param.u64 %rd1, [p];
              .loc 1 11 0
              mov.u32 %r1, %tid.x;
              .loc 1 12 0
              mul.lo.s32 %r2, %r1, 3;
              .loc 1 13 0
              cvta.to.global.u64 %rd2, %rd1;
              mul.wide.u32 %rd3, %r1, 4;
              add.s64 %rd2, %rd2, %rd3;
              .loc 1 14 0
              st.global.u32 [%rd2], %r2;
              .loc 1 15 0
              ret;
            }
            .file 1 "/nonexistent/lineinfo/k.cu"
            """;

    private static final LineInfoGate.Scope NONE_OUT_OF_SCOPE = m -> false;

    private Path compile(String name, String... options) throws Exception {
        Path ptx = dir.resolve("k.ptx");
        Files.writeString(ptx, PTX);
        Path out = dir.resolve(name + ".cubin");
        List<String> args = new ArrayList<>(List.of(options));
        args.addAll(List.of("-arch=sm_80", ptx.toString(), "-o", out.toString()));
        CliRun r = CliRun.run(dir, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        return out;
    }

    /** The cubin with row {@code k} of its (one) {@code .debug_line} sequence dropped. */
    static byte[] dropRow(byte[] cubin, int k) {
        Cubin c = Cubin.read(cubin);
        int index = c.sectionIndex(".debug_line");
        Section s = c.section(index);
        DebugLine.Table t = DebugLine.decode(s.data());
        DebugLine.Sequence only = t.sequences().get(0);
        List<DebugLine.Row> rows = new ArrayList<>(only.rows());
        rows.remove(k);
        byte[] data = DebugLine.encode(t.files(), List.of(new DebugLine.Sequence("k", rows, only.end()))).bytes();
        return c.withSection(index, s.withData(data)).write();
    }

    /** A row after the entry whose line no other row has; -1 if none. */
    private static int rowWithALineOfItsOwn(List<DebugLine.Row> rows) {
        for (int k = 1; k < rows.size(); k++) {
            int line = rows.get(k).line();
            if (rows.stream().filter(r -> r.line() == line).count() == 1) {
                return k;
            }
        }
        return -1;
    }

    private static LineInfoGate.Item item() {
        return new LineInfoGate.Item("k.ptx@sm_80", Path.of("k.ptx"), "sm_80");
    }

    @Test
    void noItemsFails() {
        LineInfoGate.Outcome o = LineInfoGate.run("empty", List.of(), i -> null, i -> null, c -> null,
                NONE_OUT_OF_SCOPE, Map.of());
        assertFalse(o.gate().passes(1));
    }

    @Test
    void aCrashingCompilerFails() throws Exception {
        Path cubin = compile("crash-reference", "-lineinfo");
        LineInfoGate.Outcome o = LineInfoGate.run("crash", List.of(item()),
                i -> new LineInfoGate.Compiled(cubin, ""), i -> {
                    throw new IllegalStateException("planted crash");
                }, c -> new LineInfoGate.Annotation(Map.of(), Set.of()), NONE_OUT_OF_SCOPE, Map.of());
        assertFalse(o.gate().passes(1));
        assertEquals(1, o.gate().crashes().size());
    }

    @Test
    void aDroppedLineOrMissingTablesFailTheUnchangedCubinPasses() throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Path reference = compile("reference", "-lineinfo");
        LineInfoGate.Annotator tools = c -> LineInfoOracleTest.annotate(nvdisasm, cuobjdump, c);
        LineInfoGate.Annotation a = tools.annotate(reference);
        assertEquals(Set.of(".debug_frame", ".debug_line", ".nv_debug_line_sass", ".nv_debug_ptx_txt",
                ".rel.debug_frame", ".rel.debug_line", ".rel.nv_debug_line_sass"), a.debugSections());
        assertTrue(a.lines().get("k").containsAll(Set.of("/nonexistent/lineinfo/k.cu:10",
                "/nonexistent/lineinfo/k.cu:14")), a.lines().toString());

        // the unchanged cubin agrees with itself
        LineInfoGate.Compiler same = i -> new LineInfoGate.Compiled(reference, "");
        LineInfoGate.Outcome ok = LineInfoGate.run("same", List.of(item()), same, same, tools, NONE_OUT_OF_SCOPE,
                Map.of());
        ok.gate().verify(1);
        assertEquals(1, ok.agreeing());

        // one row of the line table dropped: its line is no longer annotated
        byte[] bytes = Files.readAllBytes(reference);
        List<DebugLine.Row> rows = DebugLine.decode(Cubin.read(bytes).section(".debug_line").orElseThrow().data())
                .sequences().get(0).rows();
        int k = rowWithALineOfItsOwn(rows);
        assertTrue(k > 0, "no row with a line of its own: " + rows);
        Path dropped = dir.resolve("dropped.cubin");
        Files.write(dropped, dropRow(bytes, k));
        LineInfoGate.Outcome planted = LineInfoGate.run("dropped row", List.of(item()), same,
                i -> new LineInfoGate.Compiled(dropped, ""), tools, NONE_OUT_OF_SCOPE, Map.of());
        assertFalse(planted.gate().passes(1));
        assertTrue(planted.gate().differences().get(0).contains("ptxas only [/nonexistent/lineinfo/k.cu:"),
                planted.gate().differences().toString());

        // no line tables at all (--suppress-debug-info): the sections differ
        Path suppressed = compile("suppressed", "-lineinfo", "--suppress-debug-info");
        LineInfoGate.Outcome none = LineInfoGate.run("no tables", List.of(item()), same,
                i -> new LineInfoGate.Compiled(suppressed, ""), tools, NONE_OUT_OF_SCOPE, Map.of());
        assertFalse(none.gate().passes(1));
        assertTrue(none.gate().differences().get(0).contains("debug sections: ptxas only [.debug_line"),
                none.gate().differences().toString());
    }

    @Test
    void parsesNvdisasmAndCuobjdumpText() {
        String g = """
                \t.section\t.text.first,"ax",@progbits
                first:
                \t//## File "/a/k.cu", line 3
                        /*0000*/                   MOV R1, c[0x0][0x28] ;
                \t//## File "/a/k.cu", line 4
                \t.section\t.text.second,"ax",@progbits
                \t//## File "/a/k.h", line 3
                """;
        assertEquals(Map.of("first", Set.of("/a/k.cu:3", "/a/k.cu:4"), "second", Set.of("/a/k.h:3")),
                LineInfoGate.annotatedLines(g));
        String elf = """

                64-bit ELF: type=ET_EXEC, ABI=8, sm=80, toolkit=0.2, flags=0x9005004, kind=SASS
                Sections:
                Index Offset   Size ES Align        Type        Flags Link     Info Name
                    1     40    187  0  1            STRTAB       0    0        0 .shstrtab
                    4    480     70  0  1          PROGBITS       0    0        0 .debug_frame
                    5    4f0    134  0  1          PROGBITS       0    0        0 .debug_line
                    e   16c8     10 10  8               REL      40    3        5 .rel.debug_line
                   12   1900    980  0 80          PROGBITS       6    3 2000000b .text.matmul_kernel

                .section .strtab
                """;
        assertEquals(Set.of(".debug_frame", ".debug_line", ".rel.debug_line"), LineInfoGate.debugSections(elf));
        assertNotNull(LineInfoGate.difference(new LineInfoGate.Annotation(Map.of("f", Set.of("a:1")), Set.of()),
                new LineInfoGate.Annotation(Map.of("f", Set.of("a:2")), Set.of())));
    }
}
