package org.jptxas.frontend.ptx.lower;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.jptxas.isel.select.SassTextPrinter;
import org.jptxas.isel.select.SelectedInstr;
import org.jptxas.isel.select.SelectionException;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassAssembler;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

/**
 * Every {@code wgmma.mma_async} the lowering can write (each {@link GmmaTypes} row, every N it allows, every
 * descriptor flag its immediates allow, A from a descriptor or from registers, .satfinite), printed as instruction
 * selection prints it and assembled by the sm_90a tables in all four variants (with and without {@code gsb0}, a true
 * or false scale-d): {@link GmmaTypes#encodable} must say yes exactly for the combinations all four encode. A yes
 * that does not encode would be an internal error in selection (a chained multiply has no gsb0); a combination that
 * encodes but is refused is a stale list.
 */
class GmmaEncodabilityTest {
    private static final List<String> FLAGS = List.of("negA", "tnspA", "negB", "tnspB");

    @Test
    void theListIsExactlyWhatTheTablesEncode() {
        SassTextPrinter printer = new SassTextPrinter(TestTargets.of("sm_90a").isa());
        SassAssembler asm = new SassAssembler(TestTargets.of("sm_90a").isa());
        TreeSet<String> wrongYes = new TreeSet<>();
        TreeSet<String> wrongNo = new TreeSet<>();
        int yes = 0;
        for (GmmaTypes.Row table : GmmaTypes.ROWS) {
            for (int n = 8; n <= 256; n += 8) {
                if (!table.allowsN(n)) {
                    continue;
                }
                for (boolean sat : table.satfinite() ? new boolean[] {false, true} : new boolean[] {false}) {
                    GmmaTypes.Row row = table.with(n, sat);
                    for (boolean regA : row.sassOpcode().equals("BGMMA") ? new boolean[] {false}
                            : new boolean[] {false, true}) {
                        for (int flags = 0; flags < 16; flags++) {
                            List<String> mods = mods(row, flags, regA);
                            if (mods == null) {
                                continue;
                            }
                            boolean encodes = true;
                            for (int variant = 0; variant < 4 && encodes; variant++) {
                                encodes = assembles(printer, asm, row, mods, regA, (variant & 1) != 0, (variant & 2) != 0);
                            }
                            boolean listed = GmmaTypes.encodable(row.sassOpcode(), mods, regA);
                            String key = (regA ? "A-in-registers " : "") + row.sassOpcode() + "." + String.join(".", mods);
                            if (listed && !encodes) {
                                wrongYes.add(key);
                            } else if (!listed && encodes) {
                                wrongNo.add(key);
                            }
                            yes += listed ? 1 : 0;
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), List.copyOf(wrongYes), "listed in gmma-encodable.txt but not encodable");
        assertEquals(List.of(), List.copyOf(wrongNo), "encodable but not in gmma-encodable.txt");
        assertTrue(yes >= 174, "combinations the lowering takes: " + yes);
    }

    /** The SASS modifiers of {@code row} with the flags of bit set {@code flags}, or null if its immediates lack them. */
    private static List<String> mods(GmmaTypes.Row row, int flags, boolean regA) {
        List<String> m = new ArrayList<>(row.sassModifiers());
        for (int f = 0; f < 4; f++) {
            if ((flags & 1 << f) == 0) {
                continue;
            }
            String flag = FLAGS.get(f);
            boolean allowed = flag.startsWith("neg") ? row.hasScale()
                    : row.hasTranspose() && !(regA && flag.equals("tnspA"));
            if (!allowed) {
                return null;
            }
            m.add(flag);
        }
        return m;
    }

    /** Whether the multiply prints and assembles, as WgmmaLowerer writes it and instruction selection prints it. */
    private static boolean assembles(SassTextPrinter printer, SassAssembler asm, GmmaTypes.Row row, List<String> mods,
                                     boolean regA, boolean gsb0, boolean noAccumulate) {
        List<String> all = new ArrayList<>(mods);
        if (gsb0) {
            all.add(WgmmaLowerer.GSB0);
        }
        Reg d = Reg.phys(RegFile.R, 24, 1);
        List<Src> srcs = new ArrayList<>();
        srcs.add(Src.of(d));
        if (regA) {
            srcs.add(Src.of(Reg.phys(RegFile.R, 4, 4)));
            srcs.add(Src.of(Reg.phys(RegFile.UR, 4, 4)));
        } else {
            srcs.add(Src.of(Reg.phys(RegFile.UR, 4, 4)));
        }
        srcs.add(Src.of(d));
        srcs.add(noAccumulate ? Src.of(Reg.UPT).inverted() : Src.of(Reg.UPT));
        try {
            var line = printer.print(new SelectedInstr(Guard.ALWAYS, row.sassOpcode() + "." + String.join(".", all),
                    srcs, -1, 0), b -> "");
            asm.assemble(line.text(), new Control(0, false, 7, 7, 0), 0, x -> 0);
            return true;
        } catch (SelectionException | SassAssembler.AssemblyException e) {
            return false;
        }
    }
}
