package org.jptxas.frontend.ptx.isa;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.Random;
import org.jptxas.ori.target.TargetInfo;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/** Whatever the parser hands over, the checker answers with problems, never with an exception. */
class PtxIsaRobustnessTest {
    private static final String[] WORDS = {"f32", "b64", "u8", "pred", "global", "shared::cta", "v4", "v8", "rn",
        "ftz", "sat", "sync", "aligned", "L2::cache_hint", "lo", "wide", "and", "eq", "", "x", "b128", "f16x2",
        "e4m3x2", "cta", "relaxed", "volatile", "nc", "mbarrier::complete_tx::bytes", "1d", "bf16", "kind::f16"};
    private static final String[] TYPES = {null, "f32", "b32", "pred", "s64", "u16", "f16x2", "b128", "bogus", ""};

    @Test
    void randomUsesOfEveryOpcodeNeverThrow() {
        PtxIsa isa = PtxIsa.get();
        List<TargetInfo> targets = TestTargets.catalog().all();
        Random random = new Random(42);
        int checked = 0;
        for (String opcode : isa.opcodes()) {
            for (int n = 0; n < 60; n++) {
                List<String> mods = new ArrayList<>();
                for (int i = random.nextInt(7); i > 0; i--) {
                    mods.add(WORDS[random.nextInt(WORDS.length)]);
                }
                List<OperandUse> ops = new ArrayList<>();
                for (int i = random.nextInt(9); i > 0; i--) {
                    OperandShape shape = OperandShape.values()[random.nextInt(OperandShape.values().length)];
                    OptionalLong value = random.nextBoolean() ? OptionalLong.of(random.nextInt(600) - 50)
                            : OptionalLong.empty();
                    ops.add(new OperandUse(shape, TYPES[random.nextInt(TYPES.length)],
                            shape == OperandShape.VECTOR ? random.nextInt(9) : 0, value));
                }
                InstructionUse use = new InstructionUse(opcode, mods, ops);
                TargetInfo target = targets.get(random.nextInt(targets.size()));
                int ptx = 10 + random.nextInt(81);
                assertNotNull(assertDoesNotThrow(() -> isa.check(use, ptx, target), use::toString));
                checked++;
            }
        }
        assertNotNull(Integer.valueOf(checked));
    }

    @Test
    void splitNeverThrows() {
        PtxIsa isa = PtxIsa.get();
        assertDoesNotThrow(() -> isa.split(List.of()));
        assertDoesNotThrow(() -> isa.split(List.of("", "", "")));
        assertDoesNotThrow(() -> isa.split(List.of("cp", "async", "bulk", "tensor", "tensor", "tensor", "x", "y")));
    }
}
