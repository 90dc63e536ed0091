package org.jptxas.simulator.sass;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * SHF's one implementation, shared by the fast path and the per-thread semantics: the mode each spelling gets
 * (an SHF without a type shifts as .U32, which is the only reading possible since nvdisasm never prints one), and
 * the arithmetic against an independent BigInteger model for every mode.
 */
class FunnelShiftTest {
    /** {@code SHF.<modifiers> R0, R1, R2, R3}, built as the decoder's typed forms build it. */
    static SassOp shf(String modifiers) {
        List<SassOperand> regs = new java.util.ArrayList<>();
        for (int r = 0; r < 4; r++) {
            regs.add(new SassOperand.Reg(r, false, false, false, ""));
        }
        return new SassOp(0, 7, false, false, "SHF", List.of(modifiers.split("\\.")), regs,
                "SHF." + modifiers + " R0, R1, R2, R3");
    }

    @Test
    void typelessShfShiftsAsU32AndDecodesTheSameOnBothPaths() {
        assertEquals(FunnelShift.mode(shf("R.U32.HI")), FunnelShift.mode(shf("R.HI")));
        assertEquals(FunnelShift.mode(shf("R.U32")), FunnelShift.mode(shf("R")));
        assertTrue((FunnelShift.mode(shf("R.S32.HI")) & DecodedOp.F_UNSIGNED) == 0);
        assertTrue((FunnelShift.mode(shf("R.S64")) & DecodedOp.F_UNSIGNED) == 0);
        // the fast path decodes the same mode the per-thread semantics compute
        DecodedOp d = DecodedOp.decode(shf("R.HI"), 250);
        assertEquals(DecodedOp.Kind.SHF, d.kind);
        assertEquals(FunnelShift.mode(shf("R.U32.HI")), d.flags);
        // sign fill only with a signed type
        assertEquals(-1, FunnelShift.shift(FunnelShift.mode(shf("R.S32.HI")), 0, 31, 0x80000000));
        assertEquals(1, FunnelShift.shift(FunnelShift.mode(shf("R.HI")), 0, 31, 0x80000000));
    }

    /** nvdisasm names every value of SHF's type field, so it never prints an SHF without a type. */
    @ParameterizedTest
    @ValueSource(strings = {"sm_75", "sm_80", "sm_86", "sm_89", "sm_90"})
    void nvdisasmAlwaysPrintsShfsType(String sm) throws Exception {
        // the per-SM modifier tables live in the backends' resource folders
        Path table = TestTargets.resourceFolder(sm).resolve("sass/modifiers-" + sm.replace("_", "") + ".json");
        try (InputStream in = Files.newInputStream(table)) {
            JsonNode root = new ObjectMapper().readTree(in);
            int typeGroups = 0;
            for (JsonNode c : root.get("classes")) {
                if (!c.get("mnemonic").asText().equals("SHF")) {
                    continue;
                }
                for (JsonNode g : c.get("groups")) {
                    if (g.get("values").has("U32")) {
                        typeGroups++;
                        assertFalse(g.get("values").has(""), sm + ": an SHF type value nvdisasm prints as nothing");
                        assertEquals(4, g.get("values").size(), sm + ": " + g);
                    }
                }
            }
            assertTrue(typeGroups > 0, sm + ": no SHF type field in the modifier table");
        }
    }

    /** Every mode against BigInteger arithmetic on random operands and edge-case shift counts. */
    @Test
    void arithmeticMatchesAnIndependentModel() {
        SplittableRandom rnd = new SplittableRandom(6);
        int[] counts = {0, 1, 5, 31, 32, 33, 47, 63, 64, 65, 100, -1, Integer.MIN_VALUE};
        for (String dir : List.of("L", "R")) {
            for (String w : List.of("", ".W")) {
                for (String type : List.of(".U32", ".S32", ".U64", ".S64")) {
                    for (String hi : List.of("", ".HI")) {
                        SassOp op = shf(dir + w + type + hi);
                        int mode = FunnelShift.mode(op);
                        for (int i = 0; i < 200; i++) {
                            int lo = rnd.nextInt(), h = i % 3 == 0 ? 0x80000000 | rnd.nextInt() : rnd.nextInt();
                            int sh = i < counts.length ? counts[i] : rnd.nextInt(80);
                            assertEquals(model(dir.equals("L"), !w.isEmpty(), type, !hi.isEmpty(), lo, sh, h),
                                    FunnelShift.shift(mode, lo, sh, h), op.fullName() + " lo=" + lo + " sh=" + sh + " hi=" + h);
                        }
                    }
                }
            }
        }
    }

    private static int model(boolean left, boolean wrap, String type, boolean hiOut, int lo, int sh, int hi) {
        int width = type.contains("64") ? 64 : 32;
        long count = wrap ? sh & (width - 1) : Math.min(Integer.toUnsignedLong(sh), width);
        BigInteger v = BigInteger.valueOf(Integer.toUnsignedLong(hi)).shiftLeft(32).or(BigInteger.valueOf(Integer.toUnsignedLong(lo)));
        if (type.startsWith(".S") && hi < 0) {
            v = v.subtract(BigInteger.ONE.shiftLeft(64)); // hi:lo as a signed 64-bit value
        }
        BigInteger r = left ? v.shiftLeft((int) count) : v.shiftRight((int) count);
        return (hiOut ? r.shiftRight(32) : r).intValue();
    }
}
