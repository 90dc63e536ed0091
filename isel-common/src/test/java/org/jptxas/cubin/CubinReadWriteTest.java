package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class CubinReadWriteTest {
    static List<String> fixtures() {
        return Fixtures.NAMES;
    }

    @ParameterizedTest
    @MethodSource("fixtures")
    void readThenWriteIsByteIdentical(String name) {
        byte[] bytes = Fixtures.bytes(name);
        Cubin cubin = Cubin.read(bytes);
        assertArrayEquals(bytes, cubin.write());
    }

    static List<String> fixturePtx() {
        return Fixtures.NAMES.stream().filter(n -> n.startsWith("fixture")).toList();
    }

    @ParameterizedTest
    @MethodSource("fixturePtx")
    void findsTextSectionsAndKernelSymbols(String name) {
        Cubin cubin = Cubin.read(Fixtures.bytes(name));
        List<String> texts = cubin.textSections().stream().map(Section::functionName).sorted().toList();
        // ptxas keeps the internal function only in relocatable output.
        assertEquals(name.contains("_c.") ? List.of("axpy", "empty", "twice") : List.of("axpy", "empty"), texts);
        for (Section t : cubin.textSections()) {
            assertTrue(t.data().length > 0 && t.data().length % 16 == 0, t.name());
        }
        Symbol axpy = cubin.symbols().stream().filter(s -> s.name().equals("axpy")).findFirst().orElseThrow();
        assertTrue(axpy.isEntry());
        assertEquals(Symbol.STT_FUNC, axpy.symbolType());
        assertEquals(".text.axpy", cubin.section(axpy.shndx()).name());
        int sm = Integer.parseInt(name.replaceAll(".*sm_(\\d+).*", "$1"));
        assertEquals(sm, cubin.sm());
    }
}
