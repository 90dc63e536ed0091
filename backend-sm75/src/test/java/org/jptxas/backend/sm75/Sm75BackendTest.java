package org.jptxas.backend.sm75;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;

class Sm75BackendTest {
    @Test
    void isDiscoveredWithServiceLoaderAndServesItsTargets() throws Exception {
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        assertEquals(List.of("sm75"), registry.backends().stream().map(b -> b.id()).toList());
        List<String> expected = List.of("sm_75");
        assertEquals(expected, registry.backends().get(0).targets().stream().map(Target::name).toList());
        for (String t : expected) {
            assertInstanceOf(Sm75Backend.class, registry.forTarget(Target.of(t)));
        }
    }
}
