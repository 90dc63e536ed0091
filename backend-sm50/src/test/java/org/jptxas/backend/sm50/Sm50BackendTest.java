package org.jptxas.backend.sm50;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;

class Sm50BackendTest {
    @Test
    void isDiscoveredWithServiceLoaderAndServesItsTargets() throws Exception {
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        assertEquals(List.of("sm50"), registry.backends().stream().map(b -> b.id()).toList());
        List<String> expected = List.of("sm_50", "sm_52", "sm_53", "sm_60", "sm_61", "sm_62", "sm_70", "sm_72");
        assertEquals(expected, registry.backends().get(0).targets().stream().map(Target::name).toList());
        for (String t : expected) {
            assertInstanceOf(Sm50Backend.class, registry.forTarget(Target.of(t)));
        }
    }
}
