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
 * tables, every descriptor flag ({@code .negA .tnspA .negB .tnspB}), the group marker and a false scale-d
 * ({@code !UPT}), each word must print nvdisasm's text of it and assemble back. Combinations the tables cannot encode
 * are listed; the ones the corpus uses must encode.
 */
class WarpgroupEncodingOracleTest {
    private static final String SM = "sm_90a";

    /** Mnemonics (shape and types) the sm_90a tables hold; codegen's rows beyond them are gaps. */
    private static final List<String> SHAPES = shapes();
    private static final List<String> FLAGS = List.of("negA", "tnspA", "negB", "tnspB");

    /** What the corpus's sm_90a kernels need (Triton's matmul, less_slow.cpp). */
    private static final List<String> NEEDED = List.of("HGMMA.64x64x16.F32.tnspB", "HGMMA.64x64x16.F32.tnspB.gsb0",
            "HGMMA.64x256x16.F32.gsb0", "HGMMA.64x256x16.F32.BF16.gsb0", "HGMMA.64x256x8.F32.TF32.gsb0",
            "BGMMA.64x256x256.AND.POPC.gsb0", "QGMMA.64x64x32.F32.E5M2.E5M2", "QGMMA.64x64x32.F32.E5M2.E5M2.gsb0",
            "QGMMA.64x128x32.F16.E4M3.E5M2 !UPT", "QGMMA.64x256x32.F32.E4M3.E4M3.gsb0 !UPT",
            "QGMMA.64x16x32.F32.E5M2.E4M3");

    /** QGMMA with N 16..256 and every accumulator and input type (the table's forms from ptxas 13's words). */
    private static List<String> qgmma() {
        List<String> l = new ArrayList<>();
        for (int n : new int[] {16, 32, 64, 128, 256}) {
            for (String d : List.of("F32", "F16")) {
                for (String a : List.of("E4M3", "E5M2")) {
                    for (String b : List.of("E4M3", "E5M2")) {
                        l.add("QGMMA.64x" + n + "x32." + d + "." + a + "." + b);
                    }
                }
            }
        }
        return l;
    }

    private static List<String> shapes() {
        List<String> l = new ArrayList<>(List.of("HGMMA.64x64x16.F32", "HGMMA.64x128x16.F32", "HGMMA.64x256x16.F32",
                "HGMMA.64x256x16.F32.BF16", "HGMMA.64x256x8.F32.TF32", "HGMMA.64x8x16.F32", "HGMMA.64x64x16.F16",
                "HGMMA.64x96x16.F32.BF16", "BGMMA.64x256x256.AND.POPC", "QGMMA.64x96x32.F32.E4M3.E4M3",
                // shapes and types of the probe kernel wgmma_forms_sm90 (tools/sass-probe/gmma-group-forms.py)
                "HGMMA.64x200x16.F32", "HGMMA.64x24x16.F16", "HGMMA.64x8x8.F32.TF32", "IGMMA.64x32x32.S8.U8",
                "IGMMA.64x16x32.U8.U8.SAT", "BGMMA.64x24x256.AND.POPC", "QGMMA.64x40x32.F32.E4M3.E5M2"));
        l.addAll(qgmma());
        return l;
    }

    @Test
    void warpgroupInstructionsAsCodegenPrintsThemAreReadBackByNvdisasm() {
        Oracles.assumeNvdisasm();
        SassTextPrinter printer = new SassTextPrinter(TestTargets.of(SM).isa());
        SassAssembler asm = new SassAssembler(TestTargets.of(SM).isa());
        Random rnd = new Random(23);
        List<long[]> words = new ArrayList<>();
        TreeSet<String> encoded = new TreeSet<>();
        TreeSet<String> gaps = new TreeSet<>();
        for (String shape : SHAPES) {
            for (int flags = 0; flags < 16; flags++) {
                for (int variant = 0; variant < 4; variant++) {
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
                    int d = 8 * rnd.nextInt(24);
                    Reg ur = Reg.phys(RegFile.UR, 4 * rnd.nextInt(15), 4);
                    Src pred = noAccumulate ? Src.of(Reg.UPT).inverted() : Src.of(Reg.UPT);
                    SelectedInstr s = new SelectedInstr(Guard.ALWAYS, m.toString(),
                            List.of(Src.of(Reg.phys(RegFile.R, d, 1)), Src.of(ur), Src.of(Reg.phys(RegFile.R, d, 1)),
                                    pred), -1, 0);
                    String key = m + (noAccumulate ? " !UPT" : "");
                    try {
                        SassLine line = printer.print(s, b -> "");
                        words.add(asm.assemble(line.text(), new Control(0, false, 7, 7, 0), 0, x -> 0));
                        encoded.add(key);
                    } catch (SelectionException | SassAssembler.AssemblyException e) {
                        gaps.add(key);
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
        // what the lowering takes is checked against the tables by frontend-ptx's GmmaEncodabilityTest; here the
        // words of everything that encodes must read back in nvdisasm
        assertTrue(encoded.size() >= 284, "combinations that encode: " + encoded.size());
        RawWordCheck.Outcome out = RawWordCheck.run(SM, words);
        out.assertNoneWrong();
        assertEquals(0, out.refused(), "nvdisasm refused words code generation made");
    }
}
