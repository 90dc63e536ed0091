package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
 * jnvdisasm's whole listing of small ptxas 13 cubins full of relocations (calls to device, extern and system
 * functions, their return addresses, global/constant/shared variable addresses, textures, a function's address),
 * relocatable ({@code -c}) and whole-program, on every SM nvdisasm 12.5 reads, against nvdisasm's.
 */
class JnvdisasmRelocationsTest {
    private static final List<String> SMS = List.of("sm_75", "sm_80", "sm_86", "sm_89", "sm_90");
    private static final Path DIR = Path.of("cli/src/test/resources/org/jptxas/cli/relocations");

    @Test
    void listingsOfRelocatedCodeMatchNvdisasm() throws IOException {
        Path nvdisasm = Oracles.assumeNvdisasm();
        Path dir = RepoRoot.find().orElseThrow().resolve(DIR);
        List<String> differing = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        int compared = 0;
        try (var files = Files.list(dir)) {
            for (Path ptx : files.filter(p -> p.toString().endsWith(".ptx")).sorted().toList()) {
                for (String sm : SMS) {
                    for (boolean relocatable : new boolean[] {true, false}) {
                        OracleCubins.Compiled c = relocatable ? OracleCubins.ptxas13(ptx, sm, "-c")
                                : OracleCubins.ptxas13(ptx, sm);
                        if (!c.ok() && !relocatable && c.diagnostics().contains("Unresolved extern")) {
                            continue; // calls.ptx calls an extern function: relocatable only
                        }
                        assertTrue(c.ok(), ptx.getFileName() + " " + sm + ": " + c.diagnostics());
                        Path cubin = c.cubin().orElseThrow();
                        String expected = Processes.run(List.of(nvdisasm.toString(), cubin.toString()),
                                cubin.getParent()).stdout();
                        String out = JnvdisasmRunner.output(cubin.toString());
                        compared++;
                        all.append(expected);
                        String name = ptx.getFileName() + " " + sm + (relocatable ? " -c" : "");
                        if (!expected.equals(out)) {
                            differing.add(name + ": " + JnvdisasmRunner.firstDifference(expected, out));
                        }
                    }
                }
            }
        }
        assertEquals(List.of(), differing, "jnvdisasm differs from nvdisasm on " + differing.size() + " of "
                + compared);
        // the cases do exercise what the listing takes from relocations
        for (String form : List.of("@srel))", "32@lo(", "32@hi(", "CALL.ABS.NOINC `(vprintf)", "c[`(", "+`((",
                "fun@unified(", "=t1]", "`(t2)")) {
            assertTrue(all.toString().contains(form), "no case prints " + form);
        }
    }

    @Test
    void theRelocatedOperandIsTheTextThatChangesWithTheField() {
        NvdisasmRelocations.Kind a = NvdisasmRelocations.Kind.ADDRESS;
        assertArrayEquals(new int[] {9, 19}, NvdisasmRelocations.span("MOV R20, 0x33333333", "MOV R20, 0x55555555", a));
        assertArrayEquals(new int[] {9, 16}, NvdisasmRelocations.span("LDS R0, [-0x3333]", "LDS R0, [-0x5555]", a));
        assertArrayEquals(new int[] {8, 26}, NvdisasmRelocations.span("LDC R2, c[0x13][R0+0x3330]",
                "LDC R2, c[0x15][R0+0x5550]", NvdisasmRelocations.Kind.CONST));
        assertNull(NvdisasmRelocations.span("MOV R1, 0x0", "MOV R1, 0x0", a)); // the field is not printed
        assertNull(NvdisasmRelocations.span("FMUL R1, R2, 1.5", "FMUL R1, R2, 2.5", a)); // not an address
        assertEquals(NvdisasmRelocations.Kind.LO, NvdisasmRelocations.kind("R_CUDA_ABS32_LO_32"));
        assertEquals(NvdisasmRelocations.Kind.HI, NvdisasmRelocations.kind("R_CUDA_UNIFIED32_HI_32"));
        assertEquals(NvdisasmRelocations.Kind.CONST, NvdisasmRelocations.kind("R_CUDA_CONST_FIELD21_38"));
        assertEquals(NvdisasmRelocations.Kind.ADDRESS, NvdisasmRelocations.kind("R_CUDA_ABS47_34"));
        assertEquals(NvdisasmRelocations.Kind.NONE, NvdisasmRelocations.kind("R_CUDA_YIELD_OPCODE9_0"));
    }
}
