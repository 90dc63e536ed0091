package org.jptxas.frontend.ptx.isa;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code wmma.mma} forms beyond {@link WmmaForm}, as ptxas 13 writes them: a sequence of {@code mma.sync}
 * multiplies on parts of the fragments (in the layout {@link WmmaFragment} gives), each reading and writing its part
 * of the accumulator in place, so that the lowering and the interpreter compute the same thing:
 * <ul>
 *   <li>m8n8k4 f64, m8n8k32 s4/u4, m8n8k128 b1 (xor or and popc): one {@code mma} of the same shape;
 *   <li>m16n16k16, m32n8k16, m8n32k16 with s8/u8 (s32, {@code .satfinite} kept), bf16 (f32) or, for the two
 *       rectangular shapes, f16 inputs: one m16n8k16 per 16 x 8 tile of D, in row order (f16 with f16 C and f32 D
 *       or the other way round accumulates in f32: C's f16 pairs widened first, D rounded to f16 pairs last, as
 *       ptxas does);
 *       m16n16k16 takes all of A and B's 8-column tile, m32n8k16 A's 16-row tile and all of B, and m8n32k16 is the
 *       transpose of m32n8k16 (the multiply's A operand is B's 16-column tile, its B operand all of A);
 *   <li>without the sm_80 shapes (Turing): 8-bit tiles as two m8n8k16 (A's rows 0-7, then 8-15), f16 tiles as two
 *       m16n8k8 along k (the first k half of every tile, then the second), as ptxas orders them.
 * </ul>
 * The A and B layouts a {@code wmma.mma} names do not change it: they are the layouts the fragments were loaded with.
 */
public record WmmaTiles(List<Tile> tiles, int aRegisters, int bRegisters, int cRegisters, int dRegisters,
        boolean wide, boolean widenC, boolean packD) {
    /** Registers of the accumulator the multiplies read and write (C's, or its f32 widening's). */
    public int accumulatorRegisters() {
        return widenC ? 2 * cRegisters : packD ? 2 * dRegisters : cRegisters;
    }

    /**
     * One multiply: the {@code mma} modifiers (after {@code mma}), whether its A operand comes from the wmma's B
     * fragment and its B operand from A ({@code swapped}), and the registers of each it reads (for the accumulator:
     * reads and writes).
     */
    public record Tile(List<String> mma, boolean swapped, List<Integer> a, List<Integer> b, List<Integer> acc) {}

    /**
     * The multiplies of a {@code wmma.mma} with these modifiers (after {@code wmma}), or null when it is not one of
     * these forms; {@code sm80Shapes}: whether the target has the m16n8k16 multiplies.
     */
    public static WmmaTiles of(List<String> modifiers, boolean sm80Shapes) {
        String shape = null, bitOp = null;
        boolean sat = false, popc = false;
        List<String> types = new ArrayList<>();
        int layouts = 0;
        for (String m : modifiers) {
            switch (m) {
                case "mma", "sync", "aligned" -> { }
                case "row", "col" -> layouts++;
                case "m16n16k16", "m32n8k16", "m8n32k16", "m8n8k4", "m8n8k32", "m8n8k128" -> shape = m;
                case "f16", "f32", "bf16", "f64", "s8", "u8", "s4", "u4", "b1", "s32" -> types.add(m);
                case "satfinite" -> sat = true;
                case "xor", "and" -> bitOp = m;
                case "popc" -> popc = true;
                default -> {
                    return null;
                }
            }
        }
        if (shape == null || layouts != 2) {
            return null;
        }
        // f16 forms name D's and C's types only
        String in = types.size() == 4 ? types.get(1) : types.size() == 2 ? "f16" : null;
        if (in == null || types.size() == 4 && !types.get(2).equals(in)) {
            return null;
        }
        String d = types.get(0), c = types.get(types.size() - 1);
        boolean binary = in.equals("b1");
        if (binary != (bitOp != null && popc) || !binary && (bitOp != null || popc)
                || sat && !(in.equals("s8") || in.equals("u8") || in.equals("s4") || in.equals("u4"))) {
            return null;
        }
        List<String> extra = new ArrayList<>();
        if (sat) {
            extra.add("satfinite");
        }
        if (binary) {
            extra.add(bitOp);
            extra.add("popc");
        }
        return switch (shape) {
            case "m8n8k4" -> in.equals("f64") && d.equals("f64") && c.equals("f64") ? single(shape, in, "f64", extra, true)
                    : null;
            case "m8n8k32" -> (in.equals("s4") || in.equals("u4")) && d.equals("s32") && c.equals("s32")
                    ? single(shape, in, "s32", extra, false) : null;
            case "m8n8k128" -> binary && d.equals("s32") && c.equals("s32") ? single(shape, in, "s32", extra, false) : null;
            default -> tiled(shape, in, d, c, extra, sm80Shapes);
        };
    }

    private static WmmaTiles single(String shape, String in, String acc, List<String> extra, boolean wide) {
        Tile t = new Tile(mma(shape, acc, in, extra), false, List.of(0), List.of(0), List.of(0, 1));
        return new WmmaTiles(List.of(t), 1, 1, 2, 2, wide, false, false);
    }

    /** The 16-row shapes: a multiply per 16 x 8 tile of D (two along k, or two 8-row halves, without sm_80 shapes). */
    private static WmmaTiles tiled(String shape, String in, String d, String c, List<String> extra, boolean sm80) {
        boolean eightBit = in.equals("s8") || in.equals("u8");
        boolean f16 = in.equals("f16");
        if (eightBit ? !d.equals("s32") || !c.equals("s32")
                : in.equals("bf16") ? !d.equals("f32") || !c.equals("f32") || !sm80
                : !f16 || shape.equals("m16n16k16")) {
            return null;
        }
        boolean tall = !shape.equals("m16n16k16"); // m32n8k16 or its transpose m8n32k16
        boolean swapped = shape.equals("m8n32k16");
        // registers of one 16 x 16 tile of the tall operand and of one 16 x 8 tile of the other
        boolean f32Accumulator = !(d.equals("f16") && c.equals("f16"));
        int tallTile = eightBit ? 2 : 4, wideTile = eightBit ? 1 : 2, accTile = f32Accumulator ? 4 : 2;
        int tallRegs = tall ? 2 * tallTile : tallTile, otherRegs = tall ? wideTile : 2 * wideTile;
        // the PTX operands (f16 fragments always hold 8 registers, the distinct ones first)
        int aRegs = f16 ? 8 : swapped ? otherRegs : tallRegs, bRegs = f16 ? 8 : swapped ? tallRegs : otherRegs;
        List<Tile> tiles = new ArrayList<>();
        String accType = f32Accumulator ? (eightBit ? "s32" : "f32") : "f16";
        if (sm80) {
            for (int h = 0; h < 2; h++) {
                List<Integer> t = range(tall ? h * tallTile : 0, tallTile);
                List<Integer> o = range(tall ? 0 : h * wideTile, wideTile);
                tiles.add(new Tile(mma("m16n8k16", accType, in, extra), swapped, t, o, range(h * accTile, accTile)));
            }
        } else if (eightBit) { // m8n8k16: A's rows 0-7 then 8-15 of each tile, C's rows likewise
            for (int h = 0; h < 2; h++) {
                for (int q = 0; q < 2; q++) {
                    List<Integer> t = List.of((tall ? h * tallTile : 0) + q);
                    List<Integer> o = List.of(tall ? 0 : h);
                    tiles.add(new Tile(mma("m8n8k16", accType, in, extra), swapped, t, o,
                            range(h * accTile + q * accTile / 2, accTile / 2)));
                }
            }
        } else { // f16 m16n8k8: the first k half of both tiles, then the second
            for (int k = 0; k < 2; k++) {
                for (int h = 0; h < 2; h++) {
                    tiles.add(new Tile(mma("m16n8k8", accType, in, extra), swapped, range(h * tallTile + 2 * k, 2),
                            List.of(k), range(h * accTile, accTile)));
                }
            }
        }
        int cRegs = c.equals("f16") ? 4 : 8, dRegs = d.equals("f16") ? 4 : 8;
        return new WmmaTiles(List.copyOf(tiles), aRegs, bRegs, cRegs, dRegs, false, f32Accumulator && c.equals("f16"),
                f32Accumulator && d.equals("f16"));
    }

    private static List<String> mma(String shape, String acc, String in, List<String> extra) {
        List<String> l = new ArrayList<>(List.of("sync", "aligned", shape, "row", "col"));
        l.addAll(extra.contains("satfinite") ? List.of("satfinite") : List.of());
        l.addAll(List.of(acc, in, in, acc));
        l.addAll(extra.stream().filter(x -> !x.equals("satfinite")).toList());
        return List.copyOf(l);
    }

    private static List<Integer> range(int first, int n) {
        List<Integer> l = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            l.add(first + i);
        }
        return List.copyOf(l);
    }
}
