package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jptxas.frontend.ptx.ast.Declarator;
import org.jptxas.frontend.ptx.ast.VariableDecl;
import org.jptxas.frontend.ptx.parse.PtxParser;
import org.junit.jupiter.api.Test;

/** Initial bytes of module variables, as ptxas 13 writes them into .nv.global.init (read back from its cubins). */
class InitializerBytesTest {
    @Test
    void constantsBecomeTheBytesPtxasWrites() throws Exception {
        Map<String, String> cases = new LinkedHashMap<>(); // declaration -> bytes, most significant first
        cases.put(".b32 a = 1.5;", "3fc00000");
        cases.put(".b32 b = 1.5 + 1.0;", "40200000");
        cases.put(".b64 c = 1.5 + 1.0;", "4004000000000000");
        cases.put(".u32 f = 1.5 > 1.0;", "00000001");
        cases.put(".f32 g = 1.0 / 3.0;", "3eaaaaab");
        cases.put(".f64 h = 1.0 / 3.0;", "3fd5555555555555");
        cases.put(".f32 i = -(1.5 * 2.0);", "c0400000");
        cases.put(".b16 j = 2.5 + 0.0;", "0000");
        cases.put(".b32 m = -1.5;", "bfc00000");
        cases.put(".f32 n[2] = {1.5 - 3.0, 2.0 * 0.1};", "3e4ccccdbfc00000");
        cases.put(".u64 o = (2.0 < 1.5) + 7;", "0000000000000007");
        cases.put(".b16 a2 = 2.5;", "0000");
        cases.put(".b32 d2 = 0d4004000000000000;", "40200000");
        cases.put(".b64 e2 = 0f40200000;", "0000000040200000");
        cases.put(".b16 i2 = 0f3C003C00;", "3c00");
        for (var c : cases.entrySet()) {
            var parsed = PtxParser.parse("k.ptx", ".version 8.0\n.target sm_80\n.address_size 64\n.global " + c.getKey()
                    + "\n");
            VariableDecl decl = parsed.module().items().stream().filter(VariableDecl.class::isInstance)
                    .map(VariableDecl.class::cast).findFirst().orElseThrow();
            Declarator d = decl.declarators().get(0);
            int size = c.getValue().length() / 2;
            byte[] bytes = InitializerBytes.of(decl, d, size);
            byte[] mostSignificantFirst = new byte[size];
            for (int i = 0; i < size; i++) {
                mostSignificantFirst[i] = bytes[size - 1 - i];
            }
            assertEquals(c.getValue(), HexFormat.of().formatHex(mostSignificantFirst), c.getKey());
        }
    }
}
