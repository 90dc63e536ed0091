package org.jptxas.backend.sm100;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import java.util.List;
import org.jptxas.spi.BackendRegistry;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;

class Sm100BackendTest {
    @Test
    void isDiscoveredWithServiceLoaderAndServesItsTargets() throws Exception {
        BackendRegistry registry = BackendRegistry.discover(getClass().getClassLoader());
        assertEquals(List.of("sm100"), registry.backends().stream().map(b -> b.id()).toList());
        List<String> expected = List.of("sm_100", "sm_100a", "sm_100f", "sm_101", "sm_101a", "sm_101f", "sm_103", "sm_103a", "sm_103f", "sm_110", "sm_110a", "sm_110f", "sm_120", "sm_120a", "sm_120f", "sm_121", "sm_121a", "sm_121f");
        assertEquals(expected, registry.backends().get(0).targets().stream().map(Target::name).toList());
        for (String t : expected) {
            assertInstanceOf(Sm100Backend.class, registry.forTarget(Target.of(t)));
        }
    }
}
