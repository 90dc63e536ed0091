package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.testing.OracleCubins;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Test;

/**
 * Indirect branches ({@code brx.idx} through a {@code .branchtargets} jump table) in jnvdisasm's listing, against
 * nvdisasm 12.5's, plain and with {@code -hex}, on cubins of ptxas 13 and ptxas 12.5 for sm_75 ... sm_90: the
 * {@code BRX}/{@code BRXU} words decode, the branch and its targets get the labels nvdisasm numbers from the
 * {@code EIATTR_INDIRECT_BRANCH_TARGETS} record (after every branch label), the branch prints its
 * {@code (*"BRANCH_TARGETS ..."*)} annotation and the record its {@code .L_x_N@srel} words.
 */
class JnvdisasmJumpTablesTest {
    private static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
    private static final Path DIR = Path.of("cli/src/test/resources/org/jptxas/cli/jumptables");

    @Test
    void listingsOfJumpTablesMatchNvdisasm() throws IOException {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Oracles.assumePtxas13();
        Oracles.assumePtxas125();
        Path dir = RepoRoot.find().orElseThrow().resolve(DIR);
        List<String> differing = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        int compared = 0;
        try (var files = Files.list(dir)) {
            for (Path ptx : files.filter(p -> p.toString().endsWith(".ptx")).sorted().toList()) {
                for (String sm : SMS) {
                    for (boolean old : new boolean[] {false, true}) {
                        OracleCubins.Compiled c = old ? OracleCubins.ptxas125(ptx, sm) : OracleCubins.ptxas13(ptx, sm);
                        assertTrue(c.ok(), ptx.getFileName() + " " + sm + ": " + c.diagnostics());
                        Path cubin = c.cubin().orElseThrow();
                        for (String hex : new String[] {null, "-hex"}) {
                            List<String> args = new ArrayList<>();
                            args.add(nvdisasm.toString());
                            if (hex != null) {
                                args.add(hex);
                            }
                            args.add(cubin.toString());
                            String expected = Processes.run(args, cubin.getParent()).stdout();
                            String out = JnvdisasmRunner.output(args.subList(1, args.size()).toArray(String[]::new));
                            compared++;
                            all.append(expected);
                            String name = ptx.getFileName() + " " + sm + (old ? " (ptxas 12.5)" : "")
                                    + (hex != null ? " -hex" : "");
                            if (!expected.equals(out)) {
                                differing.add(name + ": " + JnvdisasmRunner.firstDifference(expected, out));
                            }
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), differing, "jnvdisasm differs from nvdisasm on " + differing.size() + " of "
                + compared);
        // the cases exercise both kinds of indirect branch and the jump-table record
        for (String form : List.of(" BRX R", " BRXU UR", "(*\"BRANCH_TARGETS .L_x_", "EIATTR_INDIRECT_BRANCH_TARGETS",
                ".word\t.L_x_")) {
            assertTrue(all.toString().contains(form), "no case prints " + form);
        }
    }

    @Test
    void entriesParseWholeAndStopAtATruncatedOne() {
        // [branch 0x80][0][0][count 2][0x90][0xb0], then an entry of 5 targets cut after its count
        byte[] b = new byte[20 + 12];
        put(b, 0, 0x80);
        put(b, 8, 2);
        put(b, 12, 0x90);
        put(b, 16, 0xb0);
        put(b, 20, 0x100);
        put(b, 28, 5);
        List<NvdisasmJumpTables.Entry> e = NvdisasmJumpTables.entries(b, 0, b.length);
        assertEquals(List.of(new NvdisasmJumpTables.Entry(0x80, 0, 0, List.of(0x90L, 0xb0L))), e);
    }

    private static void put(byte[] b, int at, int v) {
        for (int k = 0; k < 4; k++) {
            b[at + k] = (byte) (v >>> 8 * k);
        }
    }
}
