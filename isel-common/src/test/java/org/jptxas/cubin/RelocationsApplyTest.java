package org.jptxas.cubin;

import org.jptxas.sass.SassIsa;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link Relocations#apply} on the code of {@code call125_sm_75_c.cubin}, checked by decoding with nvdisasm 12.5. */
class RelocationsApplyTest {
    @TempDir
    Path tmp;

    private static byte[] kernelCode() {
        return Cubin.read(Fixtures.bytes("call125_sm_75_c.cubin")).section(".text.k").orElseThrow().data();
    }

    @Test
    void fieldsLandWhereTheNamesSay() {
        byte[] code = new byte[32];
        Relocations.apply(code, 0, Relocation.typeCode("R_CUDA_ABS32_LO_32"), 0x1122334455667788L);
        assertEquals(0x55667788L, SassIsa.le64(code, 0) >>> 32);
        Relocations.apply(code, 16, Relocation.typeCode("R_CUDA_ABS32_HI_32"), 0x1122334455667788L);
        assertEquals(0x11223344L, SassIsa.le64(code, 16) >>> 32);
        byte[] w = new byte[8];
        Relocations.apply(w, 0, Relocation.typeCode("R_CUDA_64"), -2L);
        assertEquals(-2L, SassIsa.le64(w, 0));
        assertThrows(IllegalArgumentException.class,
                () -> Relocations.apply(new byte[16], 0, Relocation.typeCode("R_CUDA_SURF_HW_DESC"), 1));
        byte[] yield = new byte[16];
        Arrays.fill(yield, (byte) 0xff);
        Relocations.applyResolved(yield, 0, Relocation.typeCode("R_CUDA_YIELD_OPCODE9_0"), 0, 0);
        Relocations.applyResolved(yield, 0, Relocation.typeCode("R_CUDA_YIELD_CLEAR_PRED4_87"), 0, 0);
        assertEquals(0x118, SassIsa.le64(yield, 0) & 0x1ff);
        assertEquals(0, SassIsa.le64(yield, 8) >>> 23 & 0xf);
        byte[] cbank = new byte[16];
        Relocations.applyResolved(cbank, 0, Relocation.typeCode("R_CUDA_CONST_FIELD22_37"), 0x380, 3);
        assertEquals(3L << 54 | 0x380L << 37, SassIsa.le64(cbank, 0)); // nvlink 13 writes sm_100 offsets from bit 37
        byte[] kept = {1, 2, 3, 4, 5, 6, 7, 8};
        Relocations.applyResolved(kept, 0, Relocation.typeCode("R_CUDA_UNUSED_CLEAR64"), 0, 0);
        assertEquals(0x0807060504030201L, SassIsa.le64(kept, 0));
        Relocations.apply(kept, 0, Relocation.typeCode("R_CUDA_UNUSED_CLEAR64"), 0);
        assertEquals(0, SassIsa.le64(kept, 0));
    }

    @Test
    void nvdisasmSeesTheAppliedTargets() throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        byte[] code = kernelCode();
        // The relocations ptxas left in .rel.text.k: the call at 0x40 and the address of 'total' at 0x50/0x60.
        Relocations.apply(code, 0x40, Relocation.typeCode("R_CUDA_ABS47_34"), 0x1230);
        Relocations.apply(code, 0x50, Relocation.typeCode("R_CUDA_ABS32_LO_32"), 0x7f00_0000_4000L);
        Relocations.apply(code, 0x60, Relocation.typeCode("R_CUDA_ABS32_HI_32"), 0x7f00_0000_4000L);
        Path raw = tmp.resolve("k.bin");
        Files.write(raw, Arrays.copyOf(code, 0x80));
        Processes.Result r = Processes.run(List.of(nvdisasm.toString(), "-b", "SM75", "-hex", raw.toString()), tmp);
        assertEquals(0, r.exitCode(), r.stderr());
        String out = r.stdout();
        assertTrue(out.contains("CALL.ABS.NOINC 0x1230 "), out);
        assertTrue(out.contains("UMOV UR4, 0x4000 "), out);
        assertTrue(out.contains("UMOV UR5, 0x7f00 "), out);
    }

    @Test
    void sm90CallTargetsAreSplit() throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        byte[] code = Cubin.read(Fixtures.bytes("call_sm_90_c.cubin")).section(".text.k").orElseThrow().data();
        // ptxas 13 -c left R_CUDA_ABS55_16_34 against 'twice' at 0x60.
        Relocations.apply(code, 0x60, Relocation.typeCode("R_CUDA_ABS55_16_34"), 0x123_4560L);
        Path raw = tmp.resolve("k90.bin");
        Files.write(raw, Arrays.copyOfRange(code, 0x60, 0x70));
        Processes.Result r = Processes.run(List.of(nvdisasm.toString(), "-b", "SM90", "-hex", raw.toString()), tmp);
        assertEquals(0, r.exitCode(), r.stderr());
        assertTrue(r.stdout().contains("CALL.ABS.NOINC 0x1234560 "), r.stdout());
    }

    @Test
    void constantBankFields() throws Exception {
        Path nvdisasm = Oracles.assumeNvdisasm();
        // 'scale' lives in bank 3: ptxas -c left CONST_FIELD19_40 at 0x40 of axpy (sm_75), CONST_FIELD21_38 at 0xc0 (sm_90).
        byte[] sm75 = Cubin.read(Fixtures.bytes("fixture_sm_75_c.cubin")).section(".text.axpy").orElseThrow().data();
        Relocations.apply(sm75, 0x40, Relocation.typeCode("R_CUDA_CONST_FIELD19_40"), 3 << 14 | 0x10 >> 2);
        assertTrue(disassemble(nvdisasm, "SM75", Arrays.copyOfRange(sm75, 0x40, 0x50)).contains("c[0x3][0x10]"));
        byte[] sm90 = Cubin.read(Fixtures.bytes("fixture_sm_90_c.cubin")).section(".text.axpy").orElseThrow().data();
        Relocations.apply(sm90, 0xc0, Relocation.typeCode("R_CUDA_CONST_FIELD21_38"), 3 << 16 | 0x1234);
        assertTrue(disassemble(nvdisasm, "SM90", Arrays.copyOfRange(sm90, 0xc0, 0xd0)).contains("c[0x3][0x1234]"));
    }

    private String disassemble(Path nvdisasm, String sm, byte[] code) throws Exception {
        Path raw = tmp.resolve("c.bin");
        Files.write(raw, code);
        Processes.Result r = Processes.run(List.of(nvdisasm.toString(), "-b", sm, "-hex", raw.toString()), tmp);
        assertEquals(0, r.exitCode(), r.stderr());
        return r.stdout();
    }
}
