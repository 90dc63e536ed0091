package org.jptxas.isel.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.oracle.RawWordCheck;
import org.jptxas.spi.TestTargets;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Test;

/**
 * The warpgroup instructions as code generation prints them ({@link WarpgroupOperands}' operand order and
 * {@code gdesc[URx].flags} / {@code gsb0} spelling through {@link SassTextPrinter}), assembled by the sm_90a tables,
 * read back by nvdisasm 12.5: for random accumulator, descriptor and register values, every shape and type of the
 * tables, every descriptor flag ({@code .negA .negB .tnspA .tnspB}; with A in registers {@code -Ra}), the group marker and a false scale-d
 * ({@code !UPT}), each word must print nvdisasm's text of it and assemble back. Combinations the tables cannot encode
 * are listed; the ones the corpus uses must encode, and the set that encodes must be the lowering's rule
 * ({@code GmmaTypes}: ptxas's learned forms composed over every shape, type and descriptor flag by the HGMMA modifier classes).
 */
class WarpgroupEncodingOracleTest {
    private static final String SM = "sm_90a";

    /** Every shape and type wgmma lowers to: 64xNx16 F32/F16/F32.BF16 and 64xNx8 F32.TF32 for N = 8..256. */
    private static List<String> shapes() {
        List<String> out = new ArrayList<>();
        for (int n = 8; n <= 256; n += 8) {
            for (String t : List.of("x16.F32", "x16.F16", "x16.F32.BF16", "x8.F32.TF32")) {
                out.add("HGMMA.64x" + n + t);
            }
        }
        out.add("BGMMA.64x256x256.AND.POPC");
        return out;
    }

    private static final List<String> FLAGS = List.of("negA", "negB", "tnspA", "tnspB");

    /** What the corpus's sm_90a kernels need (Triton's matmul, less_slow.cpp). */
    private static final List<String> NEEDED = List.of("HGMMA.64x64x16.F32.tnspB", "HGMMA.64x64x16.F32.tnspB.gsb0",
            "HGMMA.64x256x16.F32.gsb0", "HGMMA.64x256x16.F32.BF16.gsb0", "HGMMA.64x256x8.F32.TF32.gsb0",
            "BGMMA.64x256x256.AND.POPC.gsb0");

    /** Equal to frontend-ptx's {@code GmmaTypes} rule: HGMMA variants for every shape, BGMMA as learned. */
    private static TreeSet<String> expected(boolean registerA) {
        TreeSet<String> out = new TreeSet<>();
        for (String shape : shapes()) {
            if (shape.startsWith("BGMMA")) {
                if (!registerA) {
                    out.addAll(List.of(shape + ".gsb0", shape + ".gsb0 !UPT"));
                }
                continue;
            }
            for (int flags = 0; flags < 16; flags++) {
                if (registerA && ((flags & 4) != 0 || (flags & 1) != 0 && flags != 9)) {
                    continue; // A in registers: no .tnspA; -Ra (negA) only with .tnspB (one change from ptxas's form)
                }
                StringBuilder f = new StringBuilder();
                for (int b = 0; b < 4; b++) {
                    if ((flags & 1 << b) != 0) {
                        f.append('.').append(FLAGS.get(b));
                    }
                }
                for (String v : registerA ? List.of("", ".gsb0") : List.of("", " !UPT", ".gsb0", ".gsb0 !UPT")) {
                    out.add(shape + f + v);
                }
            }
        }
        return out;
    }

    /** The first few of what only one side has, marked with the side. */
    private static List<String> difference(TreeSet<String> want, TreeSet<String> got) {
        List<String> out = new ArrayList<>();
        want.stream().filter(x -> !got.contains(x)).limit(5).forEach(x -> out.add("not encodable: " + x));
        got.stream().filter(x -> !want.contains(x)).limit(5).forEach(x -> out.add("unexpectedly encodable: " + x));
        return out;
    }

    @Test
    void warpgroupInstructionsAsCodegenPrintsThemAreReadBackByNvdisasm() {
        Oracles.assumeNvdisasm();
        SassTextPrinter printer = new SassTextPrinter(TestTargets.of(SM).isa());
        SassAssembler asm = new SassAssembler(TestTargets.of(SM).isa());
        Random rnd = new Random(23);
        List<long[]> words = new ArrayList<>();
        TreeSet<String> encoded = new TreeSet<>();
        TreeSet<String> encodedRegisterA = new TreeSet<>();
        TreeSet<String> gaps = new TreeSet<>();
        for (String shape : shapes()) {
            for (int flags = 0; flags < 16; flags++) {
                for (int variant = 0; variant < 8; variant++) {
                    boolean registerA = (variant & 4) != 0;
                    StringBuilder m = new StringBuilder(shape);
                    for (int f = 0; f < 4; f++) {
                        if ((flags & 1 << f) != 0) {
                            m.append('.').append(FLAGS.get(f));
                        }
                    }
                    boolean gsb0 = (variant & 1) != 0;
                    boolean noAccumulate = (variant & 2) != 0;
                    if (gsb0) {
                        m.append(".gsb0");
                    }
                    int d = 8 * rnd.nextInt(8);
                    Reg ur = Reg.phys(RegFile.UR, 4 * rnd.nextInt(15), 4);
                    Src pred = noAccumulate ? Src.of(Reg.UPT).inverted() : Src.of(Reg.UPT);
                    List<Src> ops = new ArrayList<>(List.of(Src.of(Reg.phys(RegFile.R, d, 1))));
                    if (registerA) {
                        ops.add(Src.of(Reg.phys(RegFile.R, 200 + 4 * rnd.nextInt(12), 4)));
                        ur = Reg.phys(RegFile.UR, 2 * rnd.nextInt(30), 2);
                    }
                    ops.addAll(List.of(Src.of(ur), Src.of(Reg.phys(RegFile.R, d, 1)), pred));
                    SelectedInstr s = new SelectedInstr(Guard.ALWAYS, m.toString(), ops, -1, 0);
                    String key = m + (noAccumulate ? " !UPT" : "");
                    try {
                        SassLine line = printer.print(s, b -> "");
                        words.add(asm.assemble(line.text(), new Control(0, false, 7, 7, 0), 0, x -> 0));
                        (registerA ? encodedRegisterA : encoded).add(key);
                    } catch (SelectionException | SassAssembler.AssemblyException e) {
                        gaps.add(key + (registerA ? " (A in registers)" : ""));
                    }
                }
            }
        }
        for (String depbar : List.of("WARPGROUP.DEPBAR.LE")) {
            for (int n = 0; n < 8; n++) {
                SassLine line = printer.print(new SelectedInstr(Guard.ALWAYS, depbar, List.of(Src.of(Imm.ofInt(n))), -1,
                        0), b -> "");
                words.add(asm.assemble(line.text(), new Control(0, false, 7, 7, 0), 0, x -> 0));
            }
        }
        words.add(asm.assemble("WARPGROUP.ARRIVE", new Control(0, false, 7, 7, 0), 0, x -> 0));
        System.out.println("warpgroup encodings: " + encoded.size() + " combinations encode, " + gaps.size()
                + " do not (first: " + gaps.stream().limit(6).toList() + ")");
        for (String need : NEEDED) {
            assertTrue(encoded.contains(need), need + " must encode");
        }
        // the lowering's list of what encodes (frontend-ptx GmmaTypes.ENCODABLE) must stay this set
        assertEquals(List.of(), difference(expected(false), encoded), "update GmmaTypes' rule and this one together");
        assertEquals(List.of(), difference(expected(true), encodedRegisterA),
                "update GmmaTypes' rule and this one together (A in registers)");
        RawWordCheck.Outcome out = RawWordCheck.run(SM, words);
        out.assertNoneWrong();
        assertEquals(0, out.refused(), "nvdisasm refused words code generation made");
    }
}
