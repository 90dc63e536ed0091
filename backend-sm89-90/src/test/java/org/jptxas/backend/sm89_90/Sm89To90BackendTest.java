package org.jptxas.backend.sm89_90;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;

class Sm89To90BackendTest {
    @Test
    void isDiscoveredWithServiceLoaderAndServesItsTargets() throws Exception {
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        assertEquals(List.of("sm89-90"), registry.backends().stream().map(b -> b.id()).toList());
        List<String> expected = List.of("sm_89", "sm_90", "sm_90a");
        assertEquals(expected, registry.backends().get(0).targets().stream().map(Target::name).toList());
        for (String t : expected) {
            assertInstanceOf(Sm89To90Backend.class, registry.forTarget(Target.of(t)));
        }
    }
}
