package org.jptxas.frontend.ptx.lower;

import java.util.ArrayList;
import java.util.List;

/**
 * The table of {@code wgmma.mma_async} type combinations jptxas lowers and their SASS: one row per PTX
 * {@code .dtype.atype.btype}, giving the SASS opcode and type tokens, K, the accumulator's element width, which
 * immediates the PTX form carries and which N it allows. The shape token is {@code 64xNxK}. Adding a row is all a new
 * combination needs on the lowering side; its encodings must exist in the target's SASS tables.
 */
final class GmmaTypes {
    private GmmaTypes() {}

    /**
     * @param ptxTypes      {@code .dtype.atype.btype} as PTX spells them
     * @param sassOpcode    HGMMA, IGMMA, QGMMA or BGMMA
     * @param sassTypes     the type tokens after the shape ({@code F32}, {@code F32.BF16})
     * @param k             the K of the shape
     * @param accBits       bits of one accumulator element (32, or 16 for packed f16)
     * @param hasScale      the PTX form has {@code imm-scale-a, imm-scale-b}
     * @param hasTranspose  the PTX form has {@code imm-trans-a} (descriptor A only) and {@code imm-trans-b}
     * @param nStep         8: N is a multiple of 8 from 8 to 256; 16 (integer and binary types): 8, 16, 24 and then
     *                      multiples of 16
     * @param satfinite     {@code .satfinite} allowed (integer types)
     * @param n             the row's N (set by {@link #of}); 0 in the table
     * @param saturate      the instruction has {@code .satfinite} ({@code .SAT} in SASS; set by {@link #of})
     */
    record Row(String ptxTypes, String sassOpcode, String sassTypes, int k, int accBits, boolean hasScale,
               boolean hasTranspose, int nStep, boolean satfinite, int n, boolean saturate) {
        Row(String ptxTypes, String sassOpcode, String sassTypes, int k, int accBits, boolean hasScale,
            boolean hasTranspose, int nStep, boolean satfinite) {
            this(ptxTypes, sassOpcode, sassTypes, k, accBits, hasScale, hasTranspose, nStep, satfinite, 0, false);
        }

        Row with(int n, boolean saturate) {
            return new Row(ptxTypes, sassOpcode, sassTypes, k, accBits, hasScale, hasTranspose, nStep, satfinite, n,
                    saturate);
        }

        /** Registers per thread of the accumulator: 64 x N elements over the warpgroup's 128 threads. */
        int accumulatorRegisters() {
            return 64 * n * accBits / 128 / 32;
        }

        /** How many immediate operands follow scale-d. */
        int immediates(boolean registerA) {
            return (hasScale ? 2 : 0) + (hasTranspose ? (registerA ? 1 : 2) : 0);
        }

        boolean allowsN(int candidate) {
            if (candidate < 8 || candidate > 256 || candidate % 8 != 0) {
                return false;
            }
            return nStep == 8 || candidate <= 24 || candidate % 16 == 0;
        }

        /** The modifiers of the SASS mnemonic: the shape, then the types. */
        List<String> sassModifiers() {
            List<String> m = new ArrayList<>();
            m.add("64x" + n + "x" + k);
            m.addAll(List.of(sassTypes.split("\\.")));
            if (saturate) {
                m.add("SAT");
            }
            return m;
        }
    }

    /** The combinations (every one checked against ptxas 13's output and nvdisasm by {@code GmmaEncodingOracleTest}). */
    static final List<Row> ROWS = List.of(
            new Row("f16.f16.f16", "HGMMA", "F16", 16, 16, true, true, 8, false),
            new Row("f32.f16.f16", "HGMMA", "F32", 16, 32, true, true, 8, false),
            new Row("f32.bf16.bf16", "HGMMA", "F32.BF16", 16, 32, true, true, 8, false),
            new Row("f32.tf32.tf32", "HGMMA", "F32.TF32", 8, 32, true, false, 8, false),
            new Row("s32.b1.b1.and.popc", "BGMMA", "AND.POPC", 256, 32, false, false, 16, false),
            // 8-bit integers: no scale or transpose immediates, .satfinite clamps the s32 accumulator (.SAT)
            integer("s8", "s8"), integer("s8", "u8"), integer("u8", "s8"), integer("u8", "u8"),
            // fp8 (Triton's fp8 matmuls): scale immediates, no transpose (fp8 operands are K-major only)
            fp8("f32", "e4m3", "e4m3"), fp8("f32", "e4m3", "e5m2"), fp8("f32", "e5m2", "e4m3"),
            fp8("f32", "e5m2", "e5m2"), fp8("f16", "e4m3", "e4m3"), fp8("f16", "e4m3", "e5m2"),
            fp8("f16", "e5m2", "e4m3"), fp8("f16", "e5m2", "e5m2"));

    /** An IGMMA row: {@code .s32.atype.btype} with K 32, spelled {@code S8.U8} in SASS. */
    private static Row integer(String a, String b) {
        return new Row("s32." + a + "." + b, "IGMMA", (a + "." + b).toUpperCase(java.util.Locale.ROOT), 32, 32, false,
                false, 16, true);
    }

    /** A QGMMA row: {@code .dtype.atype.btype} with K 32, spelled {@code F32.E5M2.E4M3} in SASS. */
    private static Row fp8(String d, String a, String b) {
        return new Row(d + "." + a + "." + b, "QGMMA", (d + "." + a + "." + b).toUpperCase(java.util.Locale.ROOT), 32,
                d.equals("f16") ? 16 : 32, true, false, 8, false);
    }

    /**
     * The combinations the sm_90a SASS tables encode, each with and without the group marker and with a true or false
     * scale-d (resource {@code gmma-encodable.txt}; {@code GmmaEncodabilityTest} keeps it equal to the tables), so
     * that a combination outside it is refused by name instead of failing in instruction selection.
     */
    private static final java.util.Set<String> ENCODABLE = load();

    private static java.util.Set<String> load() {
        try (var in = GmmaTypes.class.getResourceAsStream("gmma-encodable.txt")) {
            if (in == null) {
                throw new IllegalStateException("gmma-encodable.txt is missing from the front end's jar");
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.isBlank() && !l.startsWith("#")).collect(java.util.stream.Collectors.toUnmodifiableSet());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Whether the multiply {@code opcode.mods} (shape, types, descriptor flags; no group marker) encodes. */
    static boolean encodable(String opcode, List<String> mods, boolean registerA) {
        return ENCODABLE.contains((registerA ? "A-in-registers " : "") + opcode + "." + String.join(".", mods));
    }

    /** The row of a {@code wgmma.mma_async} modifier list with its N, or null when jptxas does not lower it. */
    static Row of(List<String> mods) {
        int n = -1;
        int k = -1;
        boolean sat = false;
        List<String> types = new ArrayList<>();
        for (String m : mods) {
            if (m.matches("m64n[0-9]+k[0-9]+")) {
                n = Integer.parseInt(m.substring(4, m.indexOf('k')));
                k = Integer.parseInt(m.substring(m.indexOf('k') + 1));
            } else if (m.equals("satfinite")) {
                sat = true;
            } else if (!m.equals("mma_async") && !m.equals("sync") && !m.equals("aligned")) {
                types.add(m);
            }
        }
        String key = String.join(".", types);
        for (Row r : ROWS) {
            if (r.ptxTypes().equals(key) && r.k() == k && r.allowsN(n) && (!sat || r.satfinite())) {
                return r.with(n, sat);
            }
        }
        return null;
    }
}
