package org.jptxas.simulator.launch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LaunchSpecReaderTest {
    static final Path BASE = Path.of("/specs");

    static LaunchSpec parse(String json) throws LaunchSpecException {
        return LaunchSpecReader.parse("launch.json", json, BASE);
    }

    static String error(String json) {
        return assertThrows(LaunchSpecException.class, () -> parse(json)).getMessage();
    }

    @Test
    void readsTheIssueExample() throws Exception {
        LaunchSpec s = parse("""
                {"entry":"saxpy","grid":[4,1,1],"block":[256,1,1],"dynamic_shared_bytes":0,"params":[
                 {"type":"u32","value":1000},{"type":"f32","value":2.0},
                 {"type":"ptr","bytes":4000,"in":"x.bin"},{"type":"ptr","bytes":4000,"in":"y.bin","out":"y.out.bin"}]}""");
        assertEquals(Optional.of("saxpy"), s.entry());
        assertEquals(new Dim3(4, 1, 1), s.grid());
        assertEquals(new Dim3(256, 1, 1), s.block());
        assertEquals(4, s.params().size());
        assertEquals(new ParamSpec.Scalar(ScalarType.U32, 1000), s.params().get(0));
        assertEquals(new ParamSpec.Scalar(ScalarType.F32, Float.floatToIntBits(2.0f)), s.params().get(1));
        assertEquals(new ParamSpec.Pointer(4000, Optional.of(Path.of("/specs/x.bin")), Optional.empty()), s.params().get(2));
        assertEquals(Optional.of(Path.of("/specs/y.out.bin")), ((ParamSpec.Pointer) s.params().get(3)).out());
    }

    @Test
    void shortDimensionsDefaultToOneAndOptionalFieldsMayBeOmitted() throws Exception {
        LaunchSpec s = parse("{\"grid\":[2],\"block\":[32,4],\"params\":[]}");
        assertEquals(new Dim3(2, 1, 1), s.grid());
        assertEquals(new Dim3(32, 4, 1), s.block());
        assertEquals(Optional.empty(), s.entry());
        assertEquals(0, s.dynamicSharedBytes());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "s8|-128|128", "u8|255|255", "s16|-2|65534", "u64|18446744073709551615|-1", "s64|-9223372036854775808|-9223372036854775808",
            "s32|-1|4294967295", "f64|1.5|4609434218613702656", "f16|1.0|15360", "bf16|-2.0|49152", "f16|65520|31744"})
    void encodesScalarsAsLittleEndianBitPatterns(String type, String value, long bits) throws Exception {
        LaunchSpec s = parse("{\"grid\":[1],\"block\":[1],\"params\":[{\"type\":\"" + type + "\",\"value\":" + value + "}]}");
        assertEquals(bits, ((ParamSpec.Scalar) s.params().get(0)).bits());
    }

    @Test
    void acceptsHexBitPatternsAndSpecialFloats() throws Exception {
        LaunchSpec s = parse("{\"grid\":[1],\"block\":[1],\"params\":[{\"type\":\"f32\",\"value\":\"0x7fc00001\"},"
                + "{\"type\":\"f32\",\"value\":\"-inf\"},{\"type\":\"u16\",\"value\":\"0xffff\"}]}");
        assertEquals(0x7fc00001L, ((ParamSpec.Scalar) s.params().get(0)).bits());
        assertEquals(0xff800000L, ((ParamSpec.Scalar) s.params().get(1)).bits());
        assertEquals(0xffffL, ((ParamSpec.Scalar) s.params().get(2)).bits());
    }

    @Test
    void rejectsBadSpecsWithTheFieldNamed() {
        String ok = "\"grid\":[1],\"block\":[1]";
        assertTrue(error("{" + ok + ",\"params\":[],\"extra\":1}").contains("launch.json: unknown field 'extra'"));
        assertTrue(error("{" + ok + ",\"params\":[{\"type\":\"ptr\",\"bytes\":4,\"value\":3}]}")
                .contains("params[0]: unknown field 'value'"));
        assertTrue(error("{" + ok + ",\"params\":[{\"type\":\"u32\",\"value\":3,\"in\":\"a\"}]}")
                .contains("params[0]: unknown field 'in'"));
        assertTrue(error("{" + ok + ",\"params\":[{\"type\":\"u8\",\"value\":256}]}").contains("params[0].value: 256 is out of range for u8"));
        assertTrue(error("{" + ok + ",\"params\":[{\"type\":\"s32\",\"value\":1.5}]}").contains("expected an integer"));
        assertTrue(error("{" + ok + ",\"params\":[{\"type\":\"i32\",\"value\":1}]}").contains("unknown type 'i32'"));
        assertTrue(error("{" + ok + ",\"params\":[{\"type\":\"ptr\"}]}").contains("params[0]: missing required field 'bytes'"));
        assertTrue(error("{" + ok + ",\"params\":[{\"value\":1}]}").contains("missing required field 'type'"));
        assertTrue(error("{\"grid\":[0],\"block\":[1],\"params\":[]}").contains("grid[0]: 0 is out of range"));
        assertTrue(error("{\"grid\":[1,1,1,1],\"block\":[1],\"params\":[]}").contains("grid: expected an array"));
        assertTrue(error("{\"grid\":[1],\"block\":[1025],\"params\":[]}").contains("at most 1024 threads"));
        assertTrue(error("{\"block\":[1],\"params\":[]}").contains("missing required field 'grid'"));
        assertTrue(error("{" + ok + "}").contains("missing required field 'params'"));
        assertTrue(error("{" + ok + ",\"params\":[],\"params\":[]}").contains("not valid JSON"));
        assertTrue(error("{" + ok + ",\"params\":[]} trailing").contains("not valid JSON"));
        assertTrue(error("[1]").contains("must be a JSON object"));
        assertTrue(error("{" + ok + ",\"params\":[],\"entry\":3}").contains("entry: expected a non-empty string"));
    }

    @Test
    void dim3ParsesCommandLineForms() {
        assertEquals(new Dim3(4, 2, 1), Dim3.parse("4,2"));
        assertEquals(new Dim3(4, 2, 3), Dim3.parse("4, 2, 3"));
        assertThrows(IllegalArgumentException.class, () -> Dim3.parse("4,x"));
        assertThrows(IllegalArgumentException.class, () -> Dim3.parse("0"));
        assertThrows(IllegalArgumentException.class, () -> Dim3.parse("1,2,3,4"));
    }
}
