package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;
import java.util.SplittableRandom;
import org.jptxas.cubin.dump.ElfDump;
import org.junit.jupiter.api.Test;

/**
 * Truncated and corrupted cubins: reading (and dumping) either succeeds or ends in a {@link CubinFormatException};
 * no other exception escapes. Whatever reads back also writes back byte-identically.
 */
class CubinFuzzTest {
    @Test
    void truncationsFailCleanly() {
        for (String name : Fixtures.NAMES) {
            byte[] bytes = Fixtures.bytes(name);
            for (int len = 0; len < bytes.length; len += len < 128 ? 3 : 97) {
                check(java.util.Arrays.copyOf(bytes, len), name + " cut to " + len);
            }
        }
    }

    @Test
    void byteFlipsFailCleanlyOrRoundTrip() {
        SplittableRandom random = new SplittableRandom(5);
        for (String name : Fixtures.NAMES) {
            byte[] bytes = Fixtures.bytes(name);
            for (int n = 0; n < 150; n++) {
                byte[] copy = bytes.clone();
                int flips = 1 + random.nextInt(4);
                // Bias towards the headers, where a flip changes structure rather than payload.
                for (int f = 0; f < flips; f++) {
                    int at = random.nextInt(3) == 0 ? random.nextInt(64) : random.nextInt(copy.length);
                    copy[at] ^= (byte) (1 << random.nextInt(8));
                }
                check(copy, name + " flip #" + n);
            }
        }
    }

    @Test
    void headerTablesPointingOutsideTheFile() {
        byte[] bytes = Fixtures.bytes("fixture_sm_90.cubin");
        for (int field : List.of(32, 40, 56, 60, 62)) {
            for (int v : new int[] {0xff, 0x7f}) {
                byte[] copy = bytes.clone();
                copy[field + 1] = (byte) v;
                check(copy, "header field " + field);
            }
        }
    }

    private static void check(byte[] bytes, String what) {
        Cubin cubin;
        try {
            cubin = Cubin.read(bytes);
        } catch (CubinFormatException e) {
            if (e.getMessage() == null || e.getMessage().isBlank()) {
                fail(what + ": empty message");
            }
            return;
        } catch (RuntimeException e) {
            throw new AssertionError(what + ": " + e, e);
        }
        assertArrayEquals(bytes, cubin.write(), what);
        try {
            ElfDump.print(cubin);
        } catch (CubinFormatException e) {
            // A section that cannot be decoded: a clear error is the expected outcome.
        } catch (RuntimeException e) {
            throw new AssertionError(what + ": dump threw " + e, e);
        }
    }
}
