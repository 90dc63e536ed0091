package org.jptxas.isel.select;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcode;
import org.jptxas.ori.opcode.OriOpcodes;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.junit.jupiter.api.Test;
import org.jptxas.spi.TestTargets;

/**
 * The per-target matchers against ptxas: one PTX file (the instructions whose spelling differs) compiled by ptxas 13
 * for sm_80 and for each other target. Every sm_80 instruction of the families the matchers rewrite, selected for
 * the other target, must give an opcode (mnemonic with modifiers) that ptxas's cubin for that target contains.
 */
class OracleRewriteTest {
    static final Set<String> FAMILIES = Set.of("LDG", "STG", "LD", "ST", "LDS", "BAR", "RED", "ATOM", "ATOMG", "IMNMX",
            "I2F", "F2FP", "NANOSLEEP");

    /** nvdisasm's text of ptxas 13's cubin, one line per instruction. */
    static List<String> texts(Path ptx, String sm) throws Exception {
        OracleCubins.Compiled c = OracleCubins.ptxas13(ptx, sm);
        assertTrue(c.ok(), sm + ": " + c.diagnostics());
        Process p = new ProcessBuilder(Oracles.assumeNvdisasm().toString(), "-c", c.cubin().get().toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor() == 0, "nvdisasm failed on " + sm + ": " + out);
        List<String> lines = new ArrayList<>();
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("/\\*[0-9a-f]{4}\\*/\\s+(.*?)\\s*;").matcher(out);
        while (m.find()) {
            lines.add(m.group(1).replace(".reuse", ""));
        }
        return lines;
    }

    static String opcode(String text) {
        String t = text.replaceAll("^@!?U?P[0-9T] ", "");
        int sp = t.indexOf(' ');
        return sp < 0 ? t : t.substring(0, sp);
    }

    /** sm_80 text as Ori: the longest dotted prefix naming an Ori opcode, the rest modifiers; all operands sources. */
    static Optional<Instr> toOri(String text, boolean descriptor) {
        Optional<SelectedInstr> s = SassTextParser.parse(text);
        if (s.isEmpty()) {
            return Optional.empty();
        }
        String[] parts = s.get().mnemonic().split("\\.");
        for (int n = parts.length; n >= 1; n--) {
            Optional<OriOpcode> op = OriOpcodes.get().byName(String.join("_", List.of(parts).subList(0, n)));
            if (op.isPresent()) {
                List<Src> srcs = new ArrayList<>(s.get().operands());
                if (descriptor) {
                    srcs.add(Src.of(Reg.phys(RegFile.UR, 6, 2)));
                }
                Guard g = s.get().guard();
                return Optional.of(new Instr(op.get(), List.of(parts).subList(n, parts.length), List.of(), srcs, g, 0));
            }
        }
        return Optional.empty();
    }

    @Test
    void rewritesMatchPtxasOnEveryTarget() throws Exception {
        Oracles.assumePtxas13();
        Path ptx = Path.of(OracleRewriteTest.class.getResource("rewrites.ptx").toURI());
        List<String> sm80 = texts(ptx, "sm_80");
        int checked = 0;
        List<String> problems = new ArrayList<>();
        for (String[] t : new String[][] {{"sm_75", "sm75.json"}, {"sm_86", "sm80.json"}, {"sm_89", "sm89-90.json"},
                {"sm_90", "sm89-90.json"}}) {
            InstructionSelector sel = InstructionSelector.of(TestTargets.of(t[0]));
            Set<String> theirs = new LinkedHashSet<>();
            texts(ptx, t[0]).forEach(x -> theirs.add(opcode(x)));
            for (String x : sm80) {
                String family = opcode(x).split("\\.")[0];
                if (!FAMILIES.contains(family)) {
                    continue;
                }
                boolean global = Set.of("LDG", "STG", "LD", "ST", "ATOM", "ATOMG", "RED").contains(family);
                Optional<Instr> ori = toOri(x, global && t[0].equals("sm_90"));
                if (ori.isEmpty()) {
                    continue;
                }
                // The winning matcher's spelling; whether the operands encode is the printer tests' business.
                Matcher best = sel.best(ori.get());
                String ours = opcode(best.apply(ori.get()).mnemonic());
                checked++;
                if (!theirs.contains(ours)) {
                    problems.add(t[0] + ": sm_80 " + opcode(x) + " -> ours " + ours + ", ptxas has " + theirs);
                }
            }
        }
        System.out.println("ISel rewrites vs ptxas: " + (checked - problems.size()) + "/" + checked + " agree");
        // Every instruction of rewrites.ptx in the families checked (measured: 76); fewer means some were dropped.
        assertTrue(checked >= 76, "too few instructions checked: " + checked);
        problems.forEach(p -> System.out.println("  " + p));
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }
}
