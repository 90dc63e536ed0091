package org.jptxas.cubin.dump;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jptxas.cubin.Cubin;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link ElfDump} against CUDA 12.5 {@code cuobjdump -elf} on the fixture cubins: every block (header and section
 * table, symbol table, each data section, .nv.info section, call graph, code section and relocation section) is
 * equal line for line. Block order and DWARF decoding of .debug_frame are not compared.
 */
class ElfDumpOracleTest {
    static List<String> fixtures() {
        return List.of("fixture_sm_75.cubin", "fixture_sm_75_c.cubin", "fixture_sm_80.cubin", "fixture_sm_80_c.cubin",
                "fixture_sm_90.cubin", "fixture_sm_90_c.cubin", "fixture_sm_100.cubin", "fixture_sm_100_c.cubin",
                "fixture_sm_120.cubin", "fixture_sm_120_c.cubin", "fixture125_sm_86.cubin", "fixture125_sm_75_c.cubin");
    }

    @TempDir
    Path tmp;

    @ParameterizedTest
    @MethodSource("fixtures")
    void blocksEqualCuobjdump(String name) throws IOException {
        Path cuobjdump = Oracles.assumeCuobjdump();
        byte[] bytes;
        try (InputStream in = Cubin.class.getResourceAsStream(name)) {
            bytes = in.readAllBytes();
        }
        Path file = tmp.resolve(name);
        Files.write(file, bytes);
        Processes.Result r = Processes.run(List.of(cuobjdump.toString(), "-elf", file.toString()), tmp);
        assertEquals(0, r.exitCode(), r.stderr());
        Map<String, String> expected = blocks(r.stdout());
        Map<String, String> actual = blocks(ElfDump.print(Cubin.read(bytes)));
        assertEquals(expected.keySet(), actual.keySet());
        for (String key : expected.keySet()) {
            assertEquals(expected.get(key), actual.get(key), "block " + key + " of " + name);
        }
    }

    /**
     * Splits a dump into blocks keyed by their first line: a section name from the section table, or a
     * {@code .section} line. Trailing blank lines are dropped, and so are debug sections (cuobjdump decodes them).
     */
    static Map<String, String> blocks(String dump) {
        java.util.Set<String> names = new java.util.HashSet<>();
        java.util.regex.Pattern row = java.util.regex.Pattern.compile("^\\s*[0-9a-f]+\\s+[0-9a-f]+\\s+[0-9a-f]+\\s+[0-9a-f]+\\s+[0-9a-f]+\\s+\\S+\\s+[0-9a-f]+\\s+[0-9a-f]+\\s+[0-9a-f]+ (\\S+)$");
        for (String line : dump.split("\n")) {
            java.util.regex.Matcher m = row.matcher(line);
            if (m.matches()) {
                names.add(m.group(1));
            }
        }
        Map<String, String> out = new TreeMap<>();
        String key = "header";
        StringBuilder block = new StringBuilder();
        for (String line : dump.split("\n", -1)) {
            if (line.startsWith(".section ") || names.contains(line)) {
                put(out, key, block);
                key = line;
                block.setLength(0);
            }
            block.append(line).append('\n');
        }
        put(out, key, block);
        return out;
    }

    private static void put(Map<String, String> out, String key, StringBuilder block) {
        if (key.contains(".debug") || key.contains(".nv_debug")) {
            return;
        }
        out.put(key, block.toString().stripTrailing());
    }
}
