package org.jptxas.cubin;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;

/** The committed fixture cubins (ptxas 13.0.88 output of {@code fixture.ptx}). */
public final class Fixtures {
    private Fixtures() {}

    public static final List<String> NAMES = List.of(
            "fixture_sm_75.cubin", "fixture_sm_75_c.cubin", "fixture_sm_80.cubin", "fixture_sm_80_c.cubin",
            "fixture_sm_90.cubin", "fixture_sm_90_c.cubin", "fixture_sm_100.cubin", "fixture_sm_100_c.cubin",
            "fixture_sm_120.cubin", "fixture_sm_120_c.cubin", "fixture125_sm_86.cubin", "fixture125_sm_75_c.cubin", "call125_sm_75_c.cubin", "call_sm_90_c.cubin");

    public static byte[] bytes(String name) {
        try (InputStream in = Fixtures.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
