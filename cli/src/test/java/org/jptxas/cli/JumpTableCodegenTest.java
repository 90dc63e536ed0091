package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jptxas.cubin.Cubin;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.jptxas.testing.RepoRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code brx.idx} compiled as ptxas compiles it: a BRX through a jump table in {@code .nv.constant2.<kernel>} whose
 * words are the function-relative addresses of the entries, listed in EIATTR_INDIRECT_BRANCH_TARGETS; {@code -c}
 * keeps the compare-and-branch chain. With the oracles: nvdisasm reads the cubins as jnvdisasm prints them, and the
 * kernels agree with the PTX interpreter (and with ptxas's cubin where the emulator runs it).
 */
class JumpTableCodegenTest {
    private static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
    private static final Path DIR = Path.of("cli/src/test/resources/org/jptxas/cli/brxidx");
    private static final Path TABLES = Path.of("cli/src/test/resources/org/jptxas/cli/jumptables");

    private static Path copy(Path dir) throws Exception {
        Path root = RepoRoot.find().orElseThrow();
        for (Path p : List.of(DIR.resolve("jump_table.ptx"), DIR.resolve("launch.json"),
                DIR.resolve("inlined_twice.ptx"), TABLES.resolve("shared_targets.ptx"))) {
            Files.copy(root.resolve(p), dir.resolve(p.getFileName()));
        }
        return dir;
    }

    private static int[] words(byte[] b) {
        int[] w = new int[b.length / 4];
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).asIntBuffer().get(w);
        return w;
    }

    @Test
    void kernelsBranchThroughTablesInBankTwo(@TempDir Path dir) throws Exception {
        copy(dir);
        for (String sm : SMS) {
            CliRun r = CliRun.run(dir, "-arch=" + sm, "jump_table.ptx", "-o", sm + ".cubin");
            assertEquals(0, r.exitCode(), r.err());
            Cubin cubin = Cubin.read(Files.readAllBytes(dir.resolve(sm + ".cubin")));
            // the per-thread table [A0, A1, A2, A1, A3] and the uniform one [C0, C1, C2], one after the other
            int[] table = words(cubin.section(".nv.constant2.jump_table").orElseThrow().data());
            assertEquals(8, table.length, sm);
            long code = cubin.section(".text.jump_table").orElseThrow().data().length;
            for (int t : table) {
                assertTrue(t > 0 && t < code && t % 16 == 0, sm + ": entry 0x" + Integer.toHexString(t));
            }
            assertEquals(table[1], table[3], sm + ": a repeated entry");
            assertTrue(table[0] < table[1] && table[1] < table[2] && table[2] < table[4], sm);
            String listing = JnvdisasmRunner.listing(dir.resolve(sm + ".cubin"));
            assertEquals(2, listing.split("BRANCH_TARGETS").length - 1, sm + "\n" + listing);
            assertTrue(listing.contains("LDC R") && listing.contains("c[0x2][R"), sm + "\n" + listing);

            CliRun c = CliRun.run(dir, "-arch=" + sm, "-c", "jump_table.ptx", "-o", sm + ".o");
            assertEquals(0, c.exitCode(), c.err());
            Cubin object = Cubin.read(Files.readAllBytes(dir.resolve(sm + ".o")));
            assertFalse(object.section(".nv.constant2.jump_table").isPresent(), sm + ": -c keeps the chain");
            assertFalse(JnvdisasmRunner.listing(dir.resolve(sm + ".o")).contains("BRX"), sm);
        }
    }

    @Test
    void nvdisasmReadsTheCubinsAsJnvdisasmPrintsThem(@TempDir Path dir) throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        copy(dir);
        List<String> differing = new ArrayList<>();
        for (String sm : SMS) {
            for (String ptx : List.of("jump_table.ptx", "shared_targets.ptx", "inlined_twice.ptx")) {
                Path cubin = dir.resolve(sm + "-" + ptx + ".cubin");
                CliRun r = CliRun.run(dir, "-arch=" + sm, ptx, "-o", cubin.toString());
                assertEquals(0, r.exitCode(), r.err());
                String expected = Processes.run(List.of(nvdisasm.toString(), cubin.toString()), dir).stdout();
                String out = JnvdisasmRunner.output(cubin.toString());
                assertTrue(expected.contains("BRANCH_TARGETS"), expected);
                if (!expected.equals(out)) {
                    differing.add(sm + " " + ptx + ": " + JnvdisasmRunner.firstDifference(expected, out));
                }
            }
        }
        assertEquals(List.of(), differing);
    }

    @Test
    void kernelsAgreeWithTheInterpreterAndWithPtxas(@TempDir Path dir) throws Exception {
        Path ptxas = Oracles.assumePtxas13();
        copy(dir);
        for (String sm : SMS) {
            // a per-thread and a uniform table: the emulator does not run ptxas's uniform load from bank 2
            // (ULDC c[0x2][UR+imm]), so jptxas's cubin is compared with the interpreter
            JptxasRunCommandTest.Run both = JptxasRunCommandTest.run(dir, "--arch", sm, "jump_table.ptx", "--spec",
                    "launch.json", "--differential", "--ptxas", ptxas.toString());
            assertTrue(both.out().contains("(a) vs (c): every buffer agrees"), sm + "\n" + both.out());
            // per-thread tables (divergent, under BSSY/BSYNC) three ways
            Files.writeString(dir.resolve("k2.json"), "{\"entry\": \"k2\", \"grid\": [1,1,1], \"block\": [1,1,1], "
                    + "\"dynamic_shared_bytes\": 0, \"params\": [{\"type\": \"ptr\", \"bytes\": 4, \"out\": \"o.bin\"}, "
                    + "{\"type\": \"u32\", \"value\": 1}]}");
            JptxasRunCommandTest.Run three = JptxasRunCommandTest.run(dir, "--arch", sm, "shared_targets.ptx",
                    "--spec", "k2.json", "--differential", "--ptxas", ptxas.toString());
            assertEquals(0, three.rc(), sm + "\n" + three.out() + three.err());
            Files.deleteIfExists(dir.resolve("o.bin"));
            // a device function's table in each of its two inlined copies
            Files.writeString(dir.resolve("inlined.json"), "{\"entry\": \"k\", \"grid\": [1,1,1], \"block\": [32,1,1], "
                    + "\"dynamic_shared_bytes\": 0, \"params\": [{\"type\": \"ptr\", \"bytes\": 128, \"out\": \"o.bin\"}]}");
            JptxasRunCommandTest.Run inlined = JptxasRunCommandTest.run(dir, "--arch", sm, "inlined_twice.ptx",
                    "--spec", "inlined.json", "--differential", "--ptxas", ptxas.toString());
            assertEquals(0, inlined.rc(), sm + "\n" + inlined.out() + inlined.err());
            Files.deleteIfExists(dir.resolve("o.bin"));
        }
    }
}
