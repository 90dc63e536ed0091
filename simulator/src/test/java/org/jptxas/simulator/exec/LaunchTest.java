package org.jptxas.simulator.exec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.jptxas.ori.target.Target;
import org.jptxas.simulator.abi.ConstantBank0Layout;
import org.jptxas.simulator.abi.ParamLayout;
import org.jptxas.simulator.launch.Dim3;
import org.jptxas.simulator.launch.LaunchSpec;
import org.jptxas.simulator.launch.LaunchSpecReader;
import org.jptxas.simulator.launch.ParamSpec;
import org.jptxas.simulator.launch.ScalarType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LaunchTest {
    static final String SAXPY = """
            {"entry":"saxpy","grid":[4,1,1],"block":[256,1,1],"params":[
             {"type":"u32","value":1000},{"type":"f32","value":2.0},
             {"type":"ptr","bytes":16,"in":"x.bin"},{"type":"ptr","bytes":16,"out":"y.out.bin"}]}""";

    @ParameterizedTest
    @CsvSource({"sm_75, 352", "sm_80, 352", "sm_86, 352", "sm_89, 352", "sm_90, 528", "sm_100, 896", "sm_120, 896"})
    void parametersStartAtTheTargetsParameterBase(String arch, int base, @TempDir Path dir) throws Exception {
        Files.write(dir.resolve("x.bin"), new byte[] {1, 2, 3, 4});
        Files.writeString(dir.resolve("launch.json"), SAXPY);
        Launch l = Launch.prepare(Target.of(arch), LaunchSpecReader.read(dir.resolve("launch.json")));
        assertEquals(base, ConstantBank0Layout.of(Target.of(arch)).paramBase());
        byte[] bank = l.constantBank0(l.naturalLayout(), 0x1000);
        ByteBuffer b = ByteBuffer.wrap(bank).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(base + 24, bank.length);
        assertEquals(1000, b.getInt(base));
        assertEquals(2.0f, b.getFloat(base + 4));
        long x = b.getLong(base + 8), y = b.getLong(base + 16);
        assertEquals(l.arguments().get(2).buffer().orElseThrow().base(), x);
        assertEquals(l.arguments().get(3).buffer().orElseThrow().base(), y);
        ConstantBank0Layout cb = ConstantBank0Layout.of(Target.of(arch));
        assertEquals(256, b.getInt(cb.blockDimOffset()));
        assertEquals(4, b.getInt(cb.gridDimOffset()));
        assertEquals(0x1000, b.getInt(cb.stackPointerOffset()));
        // The input file fills the start of its buffer; the rest is zero.
        assertArrayEquals(new byte[] {1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                l.arguments().get(2).buffer().orElseThrow().bytes());
    }

    /**
     * Where ptxas 13's code reads the grid extent (%nctaid.x) and the generic addresses {@code cvta.param} and
     * {@code cvta.const} add to: on sm_100+ %nctaid.x is c[0x0][0x370] (0x36c is the explicit-cluster flag),
     * cvta.param reads c[0x0][0x348] (the parameter area's, 0x380) and cvta.const c[0x0][0x120].
     */
    @ParameterizedTest
    @CsvSource({"sm_90, 0xc, 0x198, 0x210, 0xd0", "sm_100, 0x370, 0x348, 0x380, 0x120",
            "sm_120, 0x370, 0x348, 0x380, 0x120"})
    void gridExtentAndWindowsWhereTheCodeReadsThem(String arch, String grid, String generic, String genericTarget,
                                                   String constant) {
        ConstantBank0Layout cb = ConstantBank0Layout.of(Target.of(arch));
        assertEquals(Integer.decode(grid), cb.gridDimOffset());
        assertEquals(Integer.decode(generic), cb.genericPointer().orElseThrow());
        assertEquals(Integer.decode(genericTarget), cb.genericPointerTarget());
        assertEquals(Integer.decode(constant), cb.constPointer().orElseThrow());
    }

    /** A copy has the same buffers at the same addresses with the same bytes, in memory of its own. */
    @Test
    void copiesAreIdenticalAndIndependent(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("x.bin"), new byte[] {1, 2, 3, 4});
        Files.writeString(dir.resolve("launch.json"), SAXPY);
        Launch l = Launch.prepare(Target.of("sm_80"), LaunchSpecReader.read(dir.resolve("launch.json")));
        Launch c = l.copy();
        assertArrayEquals(l.constantBank0(l.naturalLayout(), 0), c.constantBank0(c.naturalLayout(), 0));
        for (int i = 2; i < 4; i++) {
            var original = l.arguments().get(i).buffer().orElseThrow();
            var copied = c.arguments().get(i).buffer().orElseThrow();
            assertEquals(original.base(), copied.base());
            assertArrayEquals(original.bytes(), copied.bytes());
            assertTrue(original != copied && original.bytes() != copied.bytes());
            assertTrue(c.global().find(copied.base(), 4).orElseThrow() == copied);
        }
        c.arguments().get(2).buffer().orElseThrow().store32(c.arguments().get(2).buffer().orElseThrow().base(), -1);
        assertEquals(1, l.arguments().get(2).buffer().orElseThrow().bytes()[0]);
        assertEquals(l.entry(), c.entry());
        assertEquals(l.grid(), c.grid());
        assertEquals(l.block(), c.block());
    }

    @Test
    void ptxAlignmentRulesPadBeforeWideParameters() {
        ParamLayout p = ParamLayout.of(List.of(new ParamLayout.Declared(4, 4), new ParamLayout.Declared(8, 8),
                new ParamLayout.Declared(2, 2), new ParamLayout.Declared(24, 16), new ParamLayout.Declared(1, 1)));
        assertEquals(List.of(0, 8, 16, 32, 56), p.slots().stream().map(ParamLayout.Slot::offset).toList());
        assertEquals(57, p.size());
    }

    @Test
    void aByValueArrayIsCopiedWholeAtItsAlignment() throws Exception {
        byte[] wide = new byte[16];
        for (int i = 0; i < wide.length; i++) {
            wide[i] = (byte) (0xa0 + i);
        }
        LaunchSpec spec = new LaunchSpec(Optional.of("k"), Dim3.of(1), Dim3.of(1), Optional.empty(), 0,
                List.of(new ParamSpec.Scalar(ScalarType.U32, 7), new ParamSpec.Bytes(wide)));
        Launch l = Launch.prepare(Target.of("sm_80"), spec);
        assertEquals(List.of(0, 16), l.naturalLayout().slots().stream().map(ParamLayout.Slot::offset).toList());
        byte[] area = l.paramArea(l.naturalLayout());
        assertEquals(32, area.length);
        assertEquals(7, area[0]);
        assertArrayEquals(wide, Arrays.copyOfRange(area, 16, 32));
        wide[0] = 0; // the spec keeps its own copy
        assertEquals((byte) 0xa0, l.paramArea(l.naturalLayout())[16]);
        String size = assertThrows(LaunchException.class, () -> l.paramArea(ParamLayout.of(List.of(
                new ParamLayout.Declared(4, 4), new ParamLayout.Declared(8, 8))))).getMessage();
        assertTrue(size.contains("param 1 of k is declared with 8 bytes, the launch gives bytes (16 bytes)"), size);
    }

    @Test
    void mismatchedDeclarationsAreLaunchErrors(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("x.bin"), new byte[4]);
        LaunchSpec spec = LaunchSpecReader.parse("l.json", SAXPY, dir);
        Launch l = Launch.prepare(Target.of("sm_80"), spec);
        String tooFew = assertThrows(LaunchException.class, () -> l.paramArea(ParamLayout.of(List.of(
                new ParamLayout.Declared(4, 4))))).getMessage();
        assertTrue(tooFew.contains("takes 1 parameters, the launch gives 4"), tooFew);
        String size = assertThrows(LaunchException.class, () -> l.paramArea(ParamLayout.of(List.of(
                new ParamLayout.Declared(8, 8), new ParamLayout.Declared(4, 4), new ParamLayout.Declared(8, 8),
                new ParamLayout.Declared(8, 8))))).getMessage();
        assertTrue(size.contains("param 0 of saxpy is declared with 8 bytes, the launch gives u32"), size);
    }

    @Test
    void badInputsAndClustersBeforeSm90AreLaunchErrors(@TempDir Path dir) throws Exception {
        LaunchSpec missing = LaunchSpecReader.parse("l.json", SAXPY, dir);
        assertTrue(assertThrows(LaunchException.class, () -> Launch.prepare(Target.of("sm_80"), missing))
                .getMessage().contains("cannot read input"));
        Files.write(dir.resolve("x.bin"), new byte[17]);
        assertTrue(assertThrows(LaunchException.class, () -> Launch.prepare(Target.of("sm_80"), missing))
                .getMessage().contains("more than the buffer's 16"));
        LaunchSpec cluster = LaunchSpecReader.parse("l.json",
                "{\"entry\":\"k\",\"grid\":[4],\"block\":[1],\"cluster\":[2],\"params\":[]}", dir);
        assertTrue(assertThrows(LaunchException.class, () -> Launch.prepare(Target.of("sm_89"), cluster))
                .getMessage().contains("sm_90"));
        Launch.prepare(Target.of("sm_90"), cluster);
        LaunchSpec odd = LaunchSpecReader.parse("l.json",
                "{\"entry\":\"k\",\"grid\":[3],\"block\":[1],\"cluster\":[2],\"params\":[]}", dir);
        assertThrows(LaunchException.class, () -> Launch.prepare(Target.of("sm_90"), odd));
        LaunchSpec noEntry = LaunchSpecReader.parse("l.json", "{\"grid\":[3],\"block\":[1],\"params\":[]}", dir);
        assertTrue(assertThrows(LaunchException.class, () -> Launch.prepare(Target.of("sm_90"), noEntry))
                .getMessage().contains("no entry"));
    }

    @Test
    void outputsAreWrittenAfterTheLaunch(@TempDir Path dir) throws Exception {
        Files.write(dir.resolve("x.bin"), new byte[4]);
        Launch l = Launch.prepare(Target.of("sm_75"), LaunchSpecReader.parse("l.json", SAXPY, dir));
        l.global().store(l.arguments().get(3).bits() + 4, 4, 0x01020304);
        assertEquals(List.of(dir.resolve("y.out.bin")), l.writeOutputs());
        assertArrayEquals(new byte[] {0, 0, 0, 0, 4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0},
                Files.readAllBytes(dir.resolve("y.out.bin")));
    }
}
