package org.jptxas.frontend.ptx.check;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jptxas.frontend.ptx.TestFrontEnds;
import org.jptxas.ori.diag.CompilationException;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Instructions that ptxas 13 refuses and the front end once accepted (the instruction-form suite's
 * {@code PTXAS_REJECTS} rows, issue 20), with neighbours it accepts: the checker must say what ptxas says, on the
 * same line. The expectations ({@code ptxas-refusals.tsv}) are ptxas 13's output; with ptxas 13 installed they are
 * checked against it again.
 */
class PtxasRefusalsTest {
    private static final int LINE = 13;

    /** One row: the target, the instruction, whether only the first diagnostic must agree, ptxas's diagnostics. */
    record Case(String target, String instruction, boolean firstOnly, List<String> expected) {}

    static String kernel(String target, String instruction) {
        return ".version 9.0\n.target " + target + "\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n"
                + ".reg .b32 r<8>;\n.reg .b64 rd<8>;\n.reg .pred p<4>;\n.reg .f32 f<8>;\n.reg .b16 h<8>;\n"
                + ".shared .b32 sv;\nld.param.u64 rd1, [p];\n" + instruction + "\nret;\n}\n";
    }

    static List<Case> cases() throws IOException {
        List<Case> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
                PtxasRefusalsTest.class.getResourceAsStream("ptxas-refusals.tsv")), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("#") || line.isBlank()) {
                    continue;
                }
                String[] f = line.split("\t", -1);
                List<String> expected = f[3].isEmpty() ? List.of() : Arrays.asList(f[3].split(" \\| "));
                out.add(new Case(f[0], f[1], f[2].equals("first"), expected));
            }
        }
        return out;
    }

    private static List<String> checker(Case c) {
        String prefix = "jptxas r.ptx, line " + LINE + "; ";
        try {
            TestFrontEnds.of(c.target()).check("r.ptx", kernel(c.target(), c.instruction()));
            return List.of();
        } catch (CompilationException e) {
            return e.diagnostics().stream().map(d -> d.format("jptxas"))
                    .map(d -> d.startsWith(prefix) ? d.substring(prefix.length()) : d).toList();
        }
    }

    @Test
    void theCheckerSaysWhatPtxasSaysOnTheSameLine() throws IOException {
        List<Case> cases = cases();
        assertTrue(cases.size() > 100, "cases read: " + cases.size());
        List<String> wrong = new ArrayList<>();
        for (Case c : cases) {
            List<String> ours = checker(c);
            boolean agrees = c.firstOnly()
                    ? !ours.isEmpty() && !c.expected().isEmpty() && ours.get(0).equals(c.expected().get(0))
                    : ours.equals(c.expected());
            if (!agrees) {
                wrong.add(c.target() + " " + c.instruction() + "\n  ptxas: " + c.expected() + "\n  ours:  " + ours);
            }
        }
        assertEquals("", String.join("\n", wrong));
    }

    @Test
    void theExpectationsAreWhatPtxas13Prints(@TempDir Path dir) throws IOException {
        Path ptxas = Oracles.assumePtxas13();
        List<String> stale = new ArrayList<>();
        for (Case c : cases()) {
            Path file = dir.resolve("r.ptx");
            Files.writeString(file, kernel(c.target(), c.instruction()));
            Processes.Result run = Processes.run(List.of(ptxas.toString(), "-arch=" + c.target(), "r.ptx", "-o",
                    "/dev/null"), dir);
            String prefix = "ptxas r.ptx, line " + LINE + "; ";
            List<String> theirs = (run.stdout() + run.stderr()).lines()
                    .filter(l -> !l.contains("Ptx assembly aborted"))
                    .map(l -> l.startsWith(prefix) ? l.substring(prefix.length()) : l).toList();
            if (!theirs.equals(c.expected())) {
                stale.add(c.target() + " " + c.instruction() + ": " + theirs);
            }
        }
        assertFalse(stale.size() > 0, String.join("\n", stale));
    }
}
