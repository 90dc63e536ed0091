package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jptxas.testing.kernels.KernelCase;
import org.jptxas.testing.kernels.KernelSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JptxasRunCommandTest {
    record Run(int rc, String out, String err) {}

    static Run run(Path dir, String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        int rc = new JptxasRunCommand(new PrintWriter(out), new PrintWriter(err), dir).run(args);
        return new Run(rc, out.toString(), err.toString());
    }

    static Path saxpy(Path dir) throws Exception {
        KernelCase k = KernelSuite.byName("saxpy").orElseThrow();
        k.materialize(dir);
        Files.copy(k.ptx(), dir.resolve("saxpy.ptx"));
        return dir;
    }

    @Test
    void runsAPtxKernelAndWritesTheOutputs(@TempDir Path dir) throws Exception {
        saxpy(dir);
        Run r = run(dir, "--arch", "sm_90", "saxpy.ptx", "--spec", "launch.json");
        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("saxpy on sm_90 by the PTX interpreter: grid 4,1,1, block 256,1,1, 1024 threads"), r.out());
        assertTrue(r.out().contains("completed"), r.out());
        KernelCase k = KernelSuite.byName("saxpy").orElseThrow();
        assertArrayEquals(k.expectedOutputs().get("y"), Files.readAllBytes(dir.resolve("y.out.bin")));
    }

    @Test
    void aFaultExitsWithOneAndWritesNothing(@TempDir Path dir) throws Exception {
        saxpy(dir);
        // Grid too large for n: threads beyond n do nothing, so shrink the buffers instead through a bad n.
        String spec = Files.readString(dir.resolve("launch.json")).replace("\"value\": 1000", "\"value\": 2000");
        Files.writeString(dir.resolve("launch.json"), spec);
        Run r = run(dir, "--arch", "sm_80", "saxpy.ptx", "--spec", "launch.json", "--grid", "8");
        assertEquals(1, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("FAULT: memory fault"), r.out());
        assertTrue(r.out().contains("block (3,2,0)") || r.out().contains("block ("), r.out());
        assertFalse(Files.exists(dir.resolve("y.out.bin")));
    }

    @Test
    void badInputsAreOneFatalLine(@TempDir Path dir) throws Exception {
        saxpy(dir);
        Run noSpec = run(dir, "saxpy.ptx");
        assertEquals(255, noSpec.rc());
        assertTrue(noSpec.err().startsWith("jptxas-run fatal"), noSpec.err());
        Run badEntry = run(dir, "saxpy.ptx", "--spec", "launch.json", "--entry", "nope");
        assertEquals(255, badEntry.rc());
        assertTrue(badEntry.err().contains("no kernel 'nope'"), badEntry.err());
        Files.writeString(dir.resolve("bad.json"), "{\"grid\":[1],\"block\":[1],\"params\":[],\"oops\":1}");
        Run badSpec = run(dir, "saxpy.ptx", "--spec", "bad.json");
        assertEquals(255, badSpec.rc());
        assertTrue(badSpec.err().contains("unknown field 'oops'"), badSpec.err());
        Run badArch = run(dir, "--arch", "sm_99", "saxpy.ptx", "--spec", "launch.json");
        assertEquals(255, badArch.rc());
        Run badGrid = run(dir, "saxpy.ptx", "--spec", "launch.json", "--grid", "0");
        assertEquals(255, badGrid.rc());
        Files.write(dir.resolve("k.cubin"), new byte[] {0x7f, 'E', 'L', 'F'});
        Run cubin = run(dir, "k.cubin", "--spec", "launch.json");
        assertEquals(255, cubin.rc());
        assertTrue(cubin.err().contains("not a valid cubin"), cubin.err());
        assertEquals(1, badSpec.err().lines().count());
    }

    /**
     * --strict-hazards on jptxas's own cubin (no hazard: exit 0) and on a copy whose scoreboard wait masks were
     * cleared, so that the FFMA reads its loads' registers before they arrive (hazards: exit 1, outputs not written).
     */
    @Test
    void strictHazardsPassWithoutAHazardAndFailOnOne(@TempDir Path dir) throws Exception {
        saxpy(dir);
        CliRun c = CliRun.run(dir, "-arch=sm_86", "saxpy.ptx", "-o", "saxpy.cubin");
        assertEquals(0, c.exitCode(), c.err());
        Run clean = run(dir, "--arch", "sm_86", "saxpy.cubin", "--spec", "launch.json", "--strict-hazards");
        assertEquals(0, clean.rc(), clean.out() + clean.err());
        assertTrue(clean.out().contains("  hazards: 0 in the cubin's control words"), clean.out());
        assertTrue(clean.out().contains("  hazards on the executed paths: 0 "), clean.out());
        KernelCase k = KernelSuite.byName("saxpy").orElseThrow();
        assertArrayEquals(k.expectedOutputs().get("y"), Files.readAllBytes(dir.resolve("y.out.bin")));
        Files.delete(dir.resolve("y.out.bin"));

        Files.write(dir.resolve("nowait.cubin"), withoutWaits(Files.readAllBytes(dir.resolve("saxpy.cubin"))));
        Run lenient = run(dir, "--arch", "sm_86", "nowait.cubin", "--spec", "launch.json");
        assertEquals(0, lenient.rc(), "hazards are information without --strict-hazards\n" + lenient.out());
        assertFalse(lenient.out().contains("  hazards on the executed paths: 0 "), lenient.out());
        Files.delete(dir.resolve("y.out.bin"));
        Run hazard = run(dir, "--arch", "sm_86", "nowait.cubin", "--spec", "launch.json", "--strict-hazards");
        assertEquals(1, hazard.rc(), hazard.out() + hazard.err());
        assertFalse(hazard.out().contains("  hazards: 0 in the cubin's control words"), hazard.out());
        assertTrue(hazard.out().contains("FAULT: hazards are fatal with --strict-hazards"), hazard.out());
        assertFalse(Files.exists(dir.resolve("y.out.bin")));
    }

    /** {@code cubin} with every instruction's scoreboard wait mask (control bits 52..57 of the high word) cleared. */
    static byte[] withoutWaits(byte[] cubin) {
        org.jptxas.cubin.Cubin c = org.jptxas.cubin.Cubin.read(cubin);
        for (org.jptxas.cubin.Section s : c.textSections()) {
            byte[] code = s.data().clone();
            java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(code).order(java.nio.ByteOrder.LITTLE_ENDIAN);
            for (int at = 8; at + 8 <= code.length; at += 16) {
                b.putLong(at, b.getLong(at) & ~(0x3fL << 52));
            }
            c = c.withSection(c.sectionIndex(s.name()), s.withData(code));
        }
        return c.write();
    }

    @Test
    void runsAPtxas13CubinOnTheSassEmulatorWithCoverage(@TempDir Path dir) throws Exception {
        org.jptxas.testing.Oracles.assumePtxas13(); // the emulator itself needs no NVIDIA tool: only the cubin's source does
        saxpy(dir);
        Path cubin = org.jptxas.testing.OracleCubins.ptxas13(dir.resolve("saxpy.ptx"), "sm_86").cubin().orElseThrow();
        Files.copy(cubin, dir.resolve("saxpy.cubin"));
        Run r = run(dir, "--arch", "sm_86", "saxpy.cubin", "--spec", "launch.json", "--coverage");
        assertEquals(0, r.rc(), r.out() + r.err());
        assertTrue(r.out().contains("by the SASS emulator (sm_86)"), r.out());
        assertTrue(r.out().contains("executed  FFMA"), r.out());
        assertTrue(r.out().contains("  hazards: "), r.out());
        // ptxas's own control bits: no hazard, so --strict-hazards passes
        Run strict = run(dir, "--arch", "sm_86", "saxpy.cubin", "--spec", "launch.json", "--strict-hazards");
        assertEquals(0, strict.rc(), strict.out() + strict.err());
        assertTrue(strict.out().contains("  hazards: 0 in the cubin's control words"), strict.out());
        assertTrue(strict.out().contains("  hazards on the executed paths: 0 "), strict.out());
        assertFalse(strict.out().contains("hazards are fatal"), strict.out());
        KernelCase k = KernelSuite.byName("saxpy").orElseThrow();
        assertArrayEquals(k.expectedOutputs().get("y"), Files.readAllBytes(dir.resolve("y.out.bin")));
        Run agree = run(dir, "--arch", "sm_86", "saxpy.cubin", "--spec", "launch.json", "--compare", "saxpy.ptx");
        assertEquals(0, agree.rc(), agree.out() + agree.err());
        assertTrue(agree.out().contains("every buffer agrees byte for byte"), agree.out());
        Files.writeString(dir.resolve("bad.ptx"), Files.readString(dir.resolve("saxpy.ptx"))
                .replaceAll("fma\\.rn\\.f32\\s+(%f\\d+), (%f\\d+), (%f\\d+), (%f\\d+)", "add.f32 $1, $3, $4"));
        Run differ = run(dir, "--arch", "sm_86", "saxpy.cubin", "--spec", "launch.json", "--compare", "bad.ptx");
        assertEquals(1, differ.rc(), differ.out() + differ.err());
        assertTrue(differ.out().contains("DIFFERENCE in param 3"), differ.out());
        Run wrongArch = run(dir, "--arch", "sm_90", "saxpy.cubin", "--spec", "launch.json");
        assertEquals(255, wrongArch.rc());
        assertTrue(wrongArch.err().contains("is a cubin for sm_86, not sm_90"), wrongArch.err());
        Run noEntry = run(dir, "--arch", "sm_86", "saxpy.cubin", "--spec", "launch.json", "--entry", "nope");
        assertEquals(255, noEntry.rc());
        assertTrue(noEntry.err().contains("no kernel 'nope' in the cubin"), noEntry.err());
    }

    /** Three legs agree on saxpy; a ptxas that hands back a wrong kernel's cubin makes leg (b) disagree: exit 1. */
    @Test
    void differentialRunsThreeLegsAndFailsWhenOneDisagrees(@TempDir Path dir) throws Exception {
        Path ptxas = org.jptxas.testing.Oracles.assumePtxas13();
        saxpy(dir);
        Run agree = run(dir, "--arch", "sm_80", "saxpy.ptx", "--spec", "launch.json", "--differential",
                "--ptxas", ptxas.toString(), "--tolerance", "3=f32");
        assertEquals(0, agree.rc(), agree.out() + agree.err());
        assertTrue(agree.out().contains("(a) PTX interpreter: completed"), agree.out());
        assertTrue(agree.out().contains("(b) SASS emulator on ptxas's cubin (" + ptxas + "): completed"), agree.out());
        assertTrue(agree.out().contains("(c) SASS emulator on jptxas's cubin: completed"), agree.out());
        assertTrue(agree.out().contains("hazards on the executed paths: "), agree.out());
        assertTrue(agree.out().contains("(a) vs (b): every buffer agrees"), agree.out());
        assertTrue(agree.out().contains("(b) vs (c): every buffer agrees"), agree.out());
        assertTrue(agree.out().contains("param 3: f32, exact (NaN = NaN)"), agree.out());
        KernelCase k = KernelSuite.byName("saxpy").orElseThrow();
        assertArrayEquals(k.expectedOutputs().get("y"), Files.readAllBytes(dir.resolve("y.out.bin")));
        Files.delete(dir.resolve("y.out.bin"));

        // A "ptxas" that compiles a kernel computing something else under the same name.
        Files.writeString(dir.resolve("bad.ptx"), Files.readString(dir.resolve("saxpy.ptx"))
                .replaceAll("fma\\.rn\\.f32\\s+(%f\\d+), (%f\\d+), (%f\\d+), (%f\\d+)", "add.f32 $1, $3, $4"));
        Path wrong = dir.resolve("wrong-ptxas");
        Files.writeString(wrong, "#!/bin/sh\nout=\nprev=\nfor a; do [ \"$prev\" = -o ] && out=$a; prev=$a; done\n"
                + "exec '" + ptxas + "' -arch=sm_80 -o \"$out\" '" + dir.resolve("bad.ptx") + "'\n");
        wrong.toFile().setExecutable(true);
        Run differ = run(dir, "--arch", "sm_80", "saxpy.ptx", "--spec", "launch.json", "--differential",
                "--ptxas", wrong.toString());
        assertEquals(1, differ.rc(), differ.out() + differ.err());
        assertTrue(differ.out().contains("DIFFERENCE (a) vs (b) in param 3"), differ.out());
        assertTrue(differ.out().contains("DIFFERENCE (b) vs (c) in param 3"), differ.out());
        assertTrue(differ.out().contains("(a) vs (c): every buffer agrees"), differ.out());
        assertTrue(differ.out().contains("DIFFERENTIAL FAILED"), differ.out());
        assertFalse(Files.exists(dir.resolve("y.out.bin")));

        // A wrong spec for the kernel (grid too large for n's buffers) is a fault of every leg: exit 1.
        String spec = Files.readString(dir.resolve("launch.json")).replace("\"value\": 1000", "\"value\": 2000");
        Files.writeString(dir.resolve("launch.json"), spec);
        Run fault = run(dir, "--arch", "sm_80", "saxpy.ptx", "--spec", "launch.json", "--grid", "8", "--differential",
                "--ptxas", ptxas.toString());
        assertEquals(1, fault.rc(), fault.out() + fault.err());
        assertTrue(fault.out().contains("(a) PTX interpreter: FAULT: memory fault"), fault.out());
        assertTrue(fault.out().contains("DIFFERENTIAL FAILED: 3 of 3 legs did not complete"), fault.out());
    }

    /**
     * Without ptxas the differential is refused (one fatal line, exit 255): two legs of three are not the comparison
     * asked for, and a run that exits 0 with a leg skipped would pass scripts that trust the exit code.
     */
    @Test
    void differentialWithoutPtxasIsRefused(@TempDir Path dir) throws Exception {
        saxpy(dir);
        Run r = run(dir, "--arch", "sm_80", "saxpy.ptx", "--spec", "launch.json", "--differential",
                "--ptxas", "no-such-ptxas");
        assertEquals(255, r.rc(), r.out() + r.err());
        assertEquals("", r.out());
        assertEquals("jptxas-run fatal   : --differential needs ptxas: 'no-such-ptxas' is not an executable file "
                + "(give one with --ptxas PATH)", r.err().strip());
        assertFalse(Files.exists(dir.resolve("y.out.bin")));
        Run badTolerance = run(dir, "saxpy.ptx", "--spec", "launch.json", "--differential", "--tolerance", "u32:1:1");
        assertEquals(255, badTolerance.rc());
        assertTrue(badTolerance.err().contains("tolerances apply to float types only"), badTolerance.err());
        Run help = run(dir, "--help");
        assertTrue(help.out().contains("--differential") && help.out().contains("--tolerance"), help.out());
    }
}
