package org.jptxas.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.jptxas.cubin.Cubin;
import org.jptxas.cubin.dump.ElfDump;
import org.jptxas.testing.Oracles;
import org.jptxas.testing.Processes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * jcuobjdump's decoding of EIATTR_MBARRIER_INSTR_OFFSETS against cuobjdump 12.5: ptxas 13 writes the records for an
 * sm_90 kernel with mbarriers, then every field of every record is varied (each kind code 0-15, each stride code,
 * random address and uniform registers, signed immediates including 0) and both tools print the patched cubin.
 */
class MbarrierInfoDumpOracleTest {
    private static final String PTX = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry k()
            {
            	.shared .align 8 .b64 bar[2];
            	.reg .b64 %rd<2>;
            	.reg .pred %p<2>;
            	mbarrier.init.shared::cta.b64 [bar], 32;
            	mbarrier.init.shared::cta.b64 [bar+8], 32;
            	mbarrier.arrive.shared::cta.b64 %rd1, [bar];
            	mbarrier.test_wait.shared::cta.b64 %p1, [bar], %rd1;
            	mbarrier.inval.shared::cta.b64 [bar+8];
            	ret;
            }
            """;

    @TempDir
    Path dir;

    @Test
    void everyRecordFieldPrintsAsCuobjdumpPrintsIt() throws IOException {
        Path ptxas = Oracles.assumePtxas13();
        Path cuobjdump = Oracles.assumeCuobjdump();
        Path ptx = Files.writeString(dir.resolve("k.ptx"), PTX);
        Processes.Result compiled = Processes.run(List.of(ptxas.toString(), "-arch=sm_90", "k.ptx", "-o", "k.cubin"), dir);
        assertEquals(0, compiled.exitCode(), compiled.stderr());
        byte[] cubin = Files.readAllBytes(dir.resolve("k.cubin"));
        int records = recordStart(cubin);
        assertTrue(records > 0, "ptxas wrote no EIATTR_MBARRIER_INSTR_OFFSETS for " + ptx);
        Random random = new Random(57);
        for (int variant = 0; variant < 16; variant++) {
            ByteBuffer b = ByteBuffer.wrap(cubin.clone()).order(ByteOrder.LITTLE_ENDIAN);
            for (int r = 0; r < 5; r++) {
                int at = records + 16 * r;
                int kind = (variant + r) & 0xf;
                int stride = (variant >> 2) & 3;
                int keep = b.getInt(at + 12) & 0xff00ff00;
                b.putInt(at + 4, r == 0 ? 255 : random.nextInt(256));
                b.putInt(at + 8, r == 1 ? 0 : random.nextInt(1 << 16) - (1 << 15));
                b.putInt(at + 12, keep | random.nextInt(256) << 16 | stride << 4 | kind);
            }
            Path patched = dir.resolve("v" + variant + ".cubin");
            Files.write(patched, b.array());
            String theirs = Processes.run(List.of(cuobjdump.toString(), "-elf", patched.toString()), dir).stdout();
            String ours = ElfDump.print(Cubin.read(b.array()));
            assertEquals(attribute(theirs), attribute(ours), "variant " + variant);
        }
    }

    /** The text of the MBARRIER_INSTR_OFFSETS attribute, up to the next attribute. */
    private static String attribute(String dump) {
        int from = dump.indexOf("EIATTR_MBARRIER_INSTR_OFFSETS");
        assertTrue(from >= 0, dump);
        return dump.substring(from, dump.indexOf("\t<0x", from));
    }

    /** Where the first record is: the 16-byte record ptxas writes for the first mbarrier.init at 0x80 ... */
    private static int recordStart(byte[] cubin) {
        ByteBuffer b = ByteBuffer.wrap(cubin).order(ByteOrder.LITTLE_ENDIAN);
        for (int at = 0; at + 4 <= cubin.length; at += 4) {
            // the attribute header: format EIFMT_SVAL (4), code 0x39, payload size 5 records
            if (b.get(at) == 4 && b.get(at + 1) == 0x39 && (b.getShort(at + 2) & 0xffff) == 80) {
                return at + 4;
            }
        }
        return -1;
    }
}
