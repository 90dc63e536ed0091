package org.jptxas.isel.select;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.Section;
import org.jptxas.sass.Control;
import org.jptxas.sass.SassAssembler;
import org.jptxas.sass.SassInstruction;
import org.jptxas.sass.SassIsa;
import org.jptxas.sass.SassPrinter;
import org.jptxas.sass.oracle.NvdisasmListing;
import org.jptxas.sass.oracle.OracleListings;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.gate.Figures;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/**
 * The assembler on registers the learned tables never saw at a place: ptxas's instructions for suite kernels with
 * every register renumbered and two thirds of them guarded, assembled (generalized forms included) and disassembled
 * by nvdisasm, must read back as that text.
 */
class GeneralizedFormsOracleTest {
    private static final Pattern REG = Pattern.compile("\\b(UR|R)(\\d+)\\b");

    static String renumber(String t) {
        Matcher m = REG.matcher(t);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            int n = Integer.parseInt(m.group(2));
            int nn = m.group(1).equals("UR") ? (n + 8) % 56 : (n == 1 ? 1 : (n + 10) % 200);
            m.appendReplacement(sb, m.group(1) + nn);
        }
        m.appendTail(sb);
        return sb.toString();
    }

    @Test
    void renumberedRegistersAssembleToWhatNvdisasmReadsBack() throws Exception {
        Oracles.assumePtxas13();
        Oracles.assumeNvdisasm();
        for (String sm : List.of("sm_75", "sm_80", "sm_90")) {
            SassIsa isa = TestTargets.of(sm).isa();
            SassAssembler asm = new SassAssembler(isa);
            List<String> texts = new ArrayList<>();
            ByteArrayOutputStream code = new ByteArrayOutputStream();
            int failed = 0;
            int undecoded = 0;
            for (KernelCase k : KernelSuite.all().subList(0, 12)) {
                OracleCubins.Compiled c = OracleCubins.ptxas13(k.ptx(), sm);
                assertTrue(c.ok(), k.name() + " " + sm + ": " + c.diagnostics());
                for (Section s : Cubin.read(Files.readAllBytes(c.cubin().get())).textSections()) {
                    for (SassInstruction i : isa.decodeAll(s.data(), 0, s.data().length)) {
                        String t = SassPrinter.text(i, 0, null).replace(".reuse", "");
                        if (!(i instanceof SassInstruction.Known) || t.contains("`(") || t.matches(".*\\b(BRA|BSSY|CALL|RET|JMP|BRX)\\b.*")
                                || t.contains("0x") && t.matches("^(@!?P\\d )?(BRA|CALL).*")) {
                            continue;
                        }
                        String r = renumber(t);
                        // Every third instruction guarded, every third negated: guards the tables saw on few forms.
                        if (!r.startsWith("@")) {
                            int n = texts.size() + failed;
                            String p = r.startsWith("U") ? "UP" : "P";
                            r = n % 3 == 1 ? "@" + p + "1 " + r : n % 3 == 2 ? "@!" + p + "2 " + r : r;
                        }
                        long[] w;
                        try {
                            w = asm.assemble(r, new Control(0, false, 7, 7, 0), 16L * texts.size(), n -> 0);
                        } catch (SassAssembler.AssemblyException e) {
                            failed++;
                            continue;
                        }
                        SassInstruction back = isa.decode(w[0], w[1]);
                        if (!(back instanceof SassInstruction.Known)
                                || !SassPrinter.text(back, 16L * texts.size(), null).equals(r)) {
                            undecoded++;
                        }
                        texts.add(r);
                        code.write(ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN).putLong(w[0]).putLong(w[1]).array());
                    }
                }
            }
            NvdisasmListing listing = OracleListings.raw(code.toByteArray(), sm);
            List<NvdisasmListing.Line> lines = listing.sections().get(0).lines();
            assertEquals(texts.size(), lines.size(), sm);
            int same = 0;
            List<String> diffs = new ArrayList<>();
            for (int i = 0; i < texts.size(); i++) {
                String theirs = lines.get(i).text().replace(".reuse", "").replaceAll("\\s*;\\s*$", "").replaceAll("\\s+", " ").strip();
                if (theirs.equals(texts.get(i))) {
                    same++;
                } else if (diffs.size() < 10) {
                    diffs.add(texts.get(i) + "  <>  " + theirs);
                }
            }
            System.out.printf("%s: %d renumbered instructions assembled (%d not encodable), nvdisasm agrees on %d,"
                    + " jptxas's decoder on %d%n", sm, texts.size(), failed, same, texts.size() - undecoded);
            diffs.forEach(d -> System.out.println("  " + d));
            assertEquals(texts.size(), same, sm + ": " + diffs);
            Figures.check("isel.generalized.assembled." + sm, texts.size());
            Figures.check("isel.generalized.unencodable." + sm, failed);
            Figures.check("isel.generalized.undecoded." + sm, undecoded);
        }
    }
}
