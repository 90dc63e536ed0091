package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.RegisterMaps;
import org.jptxas.cubin.Section;
import org.jptxas.testing.Corpus;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Prerequisites;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * ptxas's {@code -g} register maps ({@code .nv_debug_info_reg_sass}, {@code .nv_debug_info_reg_type}; layout in
 * docs/debug-register-maps.md). Their content follows each compiler's register allocation, so what is compared with
 * ptxas 13 is their structure: the sections' place, flags and links, the functions, and which PTX registers are
 * mapped; jptxas's own entries are checked against its code (the register a range names is the one the code
 * writes the value to).
 */
class RegisterMapsTest {
    @TempDir
    Path dir;

    private static final String PTX = ".version 8.5\n.target sm_80\n.address_size 64\n"
            + ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n.reg .pred %p<2>;\n"
            + ".reg .b32 %r<3>;\n.reg .b64 %rd<3>;\n.reg .u16 %h;\n"
            + ".loc 1 4 0\n$L__func_begin0:\n.loc 1 4 0\nld.param.u64 %rd1, [k_param_0];\nld.param.u32 %r1, [k_param_1];\n"
            + "$L__tmp0:\n.loc 1 5 5\nmov.u32 %r2, %tid.x;\nadd.s32 %r2, %r2, %r1;\nsetp.eq.s32 %p1, %r2, 7;\n"
            + "cvt.u16.u32 %h, %r2;\n@%p1 st.u16 [%rd1], %h;\nst.u32 [%rd1+4], %r2;\n"
            + "$L__tmp1:\n.loc 1 6 1\nret;\n$L__func_end0:\n}\n.file 1 \"a.cu\"\n";

    /** One decoded entry of {@code .nv_debug_info_reg_sass} with its type from {@code .nv_debug_info_reg_type}. */
    record Entry(String function, int piece, String register, long location, long start, long end, String type) {}

    @Test
    void gWritesBothMapsAfterThePtxText() throws Exception {
        Cubin cubin = compile(PTX, "-g", "-arch=sm_80");
        List<String> names = cubin.sections().stream().map(Section::name).toList();
        int text = names.indexOf(".nv_debug_ptx_txt");
        assertEquals(text + 1, names.indexOf(".nv_debug_info_reg_sass"), names.toString());
        assertEquals(text + 2, names.indexOf(".nv_debug_info_reg_type"), names.toString());
        for (String n : List.of(".nv_debug_info_reg_sass", ".nv_debug_info_reg_type")) {
            Section s = cubin.section(n).orElseThrow();
            assertEquals(0, s.flags(), n);
            assertEquals(0, s.link(), n);
            assertEquals(0, s.info(), n);
            assertEquals(1, s.addralign(), n);
        }
        List<Entry> entries = decode(cubin);
        long size = cubin.section(".text.k").orElseThrow().size();
        Map<String, TreeSet<Integer>> pieces = new LinkedHashMap<>();
        for (Entry e : entries) {
            assertEquals("k", e.function());
            assertTrue(e.start() < e.end() && e.end() <= size, e.toString());
            pieces.computeIfAbsent(e.register(), r -> new TreeSet<>()).add(e.piece());
        }
        assertEquals(Map.of("%rd1", new TreeSet<>(List.of(0, 1)), "%r1", new TreeSet<>(List.of(0)),
                "%r2", new TreeSet<>(List.of(0)), "%p1", new TreeSet<>(List.of(0)), "%h", new TreeSet<>(List.of(0))),
                pieces);
        Map<String, String> types = new LinkedHashMap<>();
        entries.forEach(e -> types.put(e.register(), e.type()));
        assertEquals(Map.of("%rd1", ".b64", "%r1", ".b32", "%r2", ".b32", "%p1", ".pred", "%h", ".u16"), types);
        for (Entry e : entries) {
            long kind = e.location() >>> 24;
            assertEquals(e.register().equals("%p1") ? 2 : e.register().equals("%h") ? 4 : 5, kind, e.toString());
        }
        // the registers hold the values in the code: %r2's first value comes from S2R, %p1 from ISETP
        Path cubinFile = dir.resolve("k.ptx.cubin");
        String listing = JnvdisasmRunner.listing(cubinFile);
        Entry r2 = entries.stream().filter(e -> e.register().equals("%r2")).findFirst().orElseThrow();
        assertTrue(writesIn(listing, "S2R R" + (r2.location() & 0xffffff) + ", SR_TID.X", r2),
                "%r2 " + r2 + " in\n" + listing);
        Entry p1 = entries.stream().filter(e -> e.register().equals("%p1")).findFirst().orElseThrow();
        assertTrue(writesIn(listing, "ISETP.EQ.AND P" + (p1.location() & 0xffffff) + ",", p1),
                "%p1 " + p1 + " in\n" + listing);
    }

    @Test
    void withoutDebugInformationNoMapIsWritten() throws Exception {
        Cubin cubin = compile(PTX, "-lineinfo", "-arch=sm_80");
        assertTrue(cubin.section(".debug_line").isPresent());
        assertFalse(cubin.section(".nv_debug_info_reg_sass").isPresent());
        assertFalse(cubin.section(".nv_debug_info_reg_type").isPresent());
    }

    @Test
    void everyFunctionOfAGCompilationHasAMapEvenWithoutRegisters() throws Exception {
        String ptx = ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry e()\n{\nret;\n}\n";
        List<Entry> entries = decode(compile(ptx, "-g", "-arch=sm_80"));
        assertTrue(entries.isEmpty(), entries.toString());
        Cubin cubin = Cubin.read(Files.readAllBytes(dir.resolve("k.ptx.cubin")));
        byte[] sass = cubin.section(".nv_debug_info_reg_sass").orElseThrow().data();
        assertEquals("e\0\0\0\0\0", new String(sass, StandardCharsets.ISO_8859_1), "the name and a count of 0");
    }

    /**
     * The corpus's {@code .target debug} files: ptxas 13 and jptxas write the maps as the same sections (flags,
     * links) for the same functions, and map the same PTX registers of the kernels.
     */
    @Test
    void corpusDebugTargetsMapThePtxRegistersPtxasMaps() throws Exception {
        Oracles.assumePtxas13();
        Path corpus = Corpus.assumeDir();
        Map<String, String> pairs = Map.of("zluda/vectorAdd_kernel64.ptx", "sm_80",
                "ptx90parser_samples/vector_add_scalar.debug.ptx", "sm_90");
        int compared = 0;
        for (Map.Entry<String, String> pair : pairs.entrySet()) {
            Path ptx = corpus.resolve("ptx").resolve(pair.getKey());
            Prerequisites.require(Files.isRegularFile(ptx), ptx + " missing");
            Path theirs = OracleCubins.ptxas13(ptx, pair.getValue(), "-lineinfo").cubin().orElseThrow();
            Cubin p = Cubin.read(Files.readAllBytes(theirs));
            Cubin j = compile(Files.readString(ptx, StandardCharsets.ISO_8859_1), "-lineinfo",
                    "-arch=" + pair.getValue());
            for (String n : List.of(".nv_debug_info_reg_sass", ".nv_debug_info_reg_type")) {
                Section a = p.section(n).orElseThrow();
                Section b = j.section(n).orElseThrow();
                assertEquals(List.of(a.type(), a.flags(), a.addralign(), a.entsize()),
                        List.of(b.type(), b.flags(), b.addralign(), b.entsize()), pair.getKey() + " " + n);
            }
            assertEquals(registers(decode(p)), registers(decode(j)), pair.getKey());
            compared++;
        }
        assertEquals(2, compared);
    }

    private static Map<String, TreeSet<String>> registers(List<Entry> entries) {
        Map<String, TreeSet<String>> out = new LinkedHashMap<>();
        entries.forEach(e -> out.computeIfAbsent(e.function(), f -> new TreeSet<>()).add(e.register()));
        return out;
    }

    /** Whether an instruction inside {@code e}'s range reads {@code text} ({@code S2R R3, SR_TID.X}). */
    private static boolean writesIn(String listing, String text, Entry e) {
        Matcher m = Pattern.compile("/\\*([0-9a-f]{4})\\*/\\s+([^;]*);").matcher(listing);
        while (m.find()) {
            long address = Long.parseLong(m.group(1), 16);
            if (address >= e.start() && address < e.end() && m.group(2).contains(text)) {
                return true;
            }
        }
        return false;
    }

    static List<Entry> decode(Cubin cubin) {
        byte[] sass = cubin.section(".nv_debug_info_reg_sass").orElseThrow().data();
        byte[] types = cubin.section(".nv_debug_info_reg_type").orElseThrow().data();
        List<Entry> out = new ArrayList<>();
        int[] at = {0};
        int[] t = {0};
        while (at[0] < sass.length) {
            String function = string(sass, at);
            long count = u32(sass, at);
            assertEquals(function, string(types, t), "the type map names the same function");
            assertEquals(count, u32(types, t), "and counts the same entries");
            for (long k = 0; k < count; k++) {
                int piece = (int) u32(sass, at);
                String register = string(sass, at);
                out.add(new Entry(function, piece, register, u32(sass, at), u32(sass, at), u32(sass, at),
                        RegisterMaps.TYPES.get(types[t[0]++])));
            }
        }
        assertEquals(types.length, t[0], "nothing after the last type");
        return out;
    }

    private static String string(byte[] b, int[] at) {
        int end = at[0];
        while (b[end] != 0) {
            end++;
        }
        String s = new String(b, at[0], end - at[0], StandardCharsets.ISO_8859_1);
        at[0] = end + 1;
        return s;
    }

    private static long u32(byte[] b, int[] at) {
        long v = 0;
        for (int k = 3; k >= 0; k--) {
            v = v << 8 | (b[at[0] + k] & 0xff);
        }
        at[0] += 4;
        return v;
    }

    private Cubin compile(String ptx, String... options) throws Exception {
        Path file = dir.resolve("k.ptx");
        Files.writeString(file, ptx, StandardCharsets.ISO_8859_1);
        Path out = dir.resolve("k.ptx.cubin");
        List<String> args = new ArrayList<>(List.of(options));
        args.addAll(List.of(file.toString(), "-o", out.toString()));
        CliRun r = CliRun.run(dir, args.toArray(String[]::new));
        assertEquals(0, r.exitCode(), r.err());
        return Cubin.read(Files.readAllBytes(out));
    }
}
