package org.jptxas.ori.opt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Imm;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.SpecialReg;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.target.TestProfiles;
import org.junit.jupiter.api.Test;

/** TEX/TLD write only the channels something reads, packed first into Rd, then Rd2, as ptxas writes them. */
class TextureWriteMasksTest {
    private static Instr ins(String op, List<Reg> dsts, Src... srcs) {
        return new Instr(OpInfo.op(op), List.of(), dsts, List.of(srcs), Guard.ALWAYS, 0);
    }

    /** A 2D TEX into (zw, xy); each channel in {@code stored} (0 = x … 3 = w) stored; the rest of the text out. */
    private static List<String> run(boolean encodable, int... stored) {
        FunctionBody f = new FunctionBody();
        BasicBlock b = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg coords = f.newVirtual(RegFile.R, 2);
        Reg zw = f.newVirtual(RegFile.R, 2);
        Reg xy = f.newVirtual(RegFile.R, 2);
        List<Instr> l = b.instrs();
        prologue(l, p, coords);
        l.add(new Instr(OpInfo.op("TEX"), List.of("SCR", "LL"), List.of(zw, xy), List.of(Src.of(coords),
                Src.of(Reg.RZ), Src.of(Imm.ofInt(0)), Src.of(Imm.ofInt(0x58)), Src.of(new SpecialReg("2D"))),
                Guard.ALWAYS, 0));
        for (int c = 0; c < 4; c++) {
            Reg d = f.newVirtual(RegFile.R, 1);
            l.add(ins("MOV", List.of(d), Src.of((c < 2 ? xy : zw).component(c % 2))));
            for (int s : stored) {
                if (s == c) {
                    l.add(ins("STG", List.of(), Src.of(Addr.of(p, 4L * c)), Src.of(d)));
                }
            }
        }
        l.add(ins("EXIT", List.of()));
        return optimize(f, b, encodable);
    }

    /** Pointer p = (tid.x, ctaid.x) and coordinates (tid.y, tid.z). */
    private static void prologue(List<Instr> l, Reg p, Reg coords) {
        l.add(ins("S2R", List.of(p.component(0)), Src.of(new SpecialReg("SR_TID.X"))));
        l.add(ins("S2R", List.of(p.component(1)), Src.of(new SpecialReg("SR_CTAID.X"))));
        l.add(ins("S2R", List.of(coords.component(0)), Src.of(new SpecialReg("SR_TID.Y"))));
        l.add(ins("S2R", List.of(coords.component(1)), Src.of(new SpecialReg("SR_TID.Z"))));
    }

    /** The O3 pipeline run on the function; its TEX and STG instructions as text. */
    private static List<String> optimize(FunctionBody f, BasicBlock b, boolean encodable) {
        OptPipeline.forLevel(3).encodableWhen(in -> encodable).verifying(true)
                .run(new OriFunction("k", true, 0, f), TestProfiles.of("sm_80"));
        List<String> out = new ArrayList<>();
        for (Instr in : b.instrs()) {
            if (in.op().name().equals("TEX") || in.op().name().equals("STG")) {
                out.add(in.toString());
            }
        }
        return out;
    }

    private static String tex(List<String> out) {
        return out.stream().filter(s -> s.startsWith("TEX")).findFirst().orElse("none");
    }

    @Test
    void oneChannelIsOneRegisterAndNoSecondDestination() {
        List<String> out = run(true, 0);
        assertTrue(tex(out).matches("TEX\\.SCR\\.LL RZ, %r\\d+, .*2D, 0x1"), out.toString());
    }

    @Test
    void enabledChannelsArePackedFirstIntoRdThenRd2() {
        List<String> out = run(true, 0, 2, 3);
        String t = tex(out);
        assertTrue(t.endsWith("2D, 0xd"), out.toString());
        // x and z in the pair Rd, w alone in Rd2
        String rd2 = t.split(" ")[1].replace(",", "");
        String rd = t.split(" ")[2].replace(",", "");
        assertTrue(rd.endsWith(".64") && !rd2.endsWith(".64") && !rd2.equals("RZ"), t);
        String base = rd.replace(".64", "");
        assertTrue(out.contains("STG [%r0.64+0x8], " + base + ".hi") || out.stream().anyMatch(
                s -> s.endsWith(base + ".hi") && s.contains("+0x8")), out.toString());
        assertTrue(out.stream().anyMatch(s -> s.contains("+0xc]") && s.endsWith(rd2)), out.toString());
    }

    @Test
    void allChannelsReadKeepsTheDefaultMask() {
        String t = tex(run(true, 0, 1, 2, 3));
        assertTrue(t.endsWith("2D"), t);
    }

    @Test
    void aReadNothingReadsIsRemoved() {
        assertEquals("none", tex(run(true)));
    }

    @Test
    void aFormTheBackendDoesNotEncodeStays() {
        String t = tex(run(false, 1));
        assertTrue(t.endsWith("2D") && !t.startsWith("TEX.SCR.LL RZ"), t);
    }

    /** Two 2D TEX reading the same coordinates; the first's channel {@code a}, the second's {@code b} stored. */
    private static List<String> runTwo(int a, int b) {
        FunctionBody f = new FunctionBody();
        BasicBlock blk = f.addBlock(null);
        Reg p = f.newVirtual(RegFile.R, 2);
        Reg coords = f.newVirtual(RegFile.R, 2);
        List<Instr> l = blk.instrs();
        prologue(l, p, coords);
        Reg[][] results = new Reg[2][];
        for (int t = 0; t < 2; t++) {
            Reg zw = f.newVirtual(RegFile.R, 2);
            Reg xy = f.newVirtual(RegFile.R, 2);
            results[t] = new Reg[] {xy.component(0), xy.component(1), zw.component(0), zw.component(1)};
            l.add(new Instr(OpInfo.op("TEX"), List.of("SCR", "LL"), List.of(zw, xy), List.of(Src.of(coords),
                    Src.of(Reg.RZ), Src.of(Imm.ofInt(0)), Src.of(Imm.ofInt(0x58 + 4 * t)), Src.of(new SpecialReg("2D"))),
                    Guard.ALWAYS, 0));
        }
        l.add(ins("STG", List.of(), Src.of(Addr.of(p, 0)), Src.of(results[0][a])));
        l.add(ins("STG", List.of(), Src.of(Addr.of(p, 4)), Src.of(results[1][b])));
        l.add(ins("EXIT", List.of()));
        return optimize(f, blk, true);
    }

    @Test
    void everyTextureReadOfAFunctionGetsItsOwnMask() {
        List<String> out = runTwo(1, 3);
        List<String> tex = out.stream().filter(s -> s.startsWith("TEX")).toList();
        assertEquals(2, tex.size(), out.toString());
        assertTrue(tex.get(0).matches("TEX\\.SCR\\.LL RZ, %r\\d+, .*0x58, 2D, 0x2"), out.toString());
        assertTrue(tex.get(1).matches("TEX\\.SCR\\.LL RZ, %r\\d+, .*0x5c, 2D, 0x8"), out.toString());
        // each store reads the one register its texture read now writes
        for (int t = 0; t < 2; t++) {
            String rd = tex.get(t).split(" ")[2].replace(",", "");
            assertTrue(out.stream().anyMatch(s -> s.startsWith("STG") && s.endsWith(", " + rd)),
                    out.toString());
        }
    }
}
