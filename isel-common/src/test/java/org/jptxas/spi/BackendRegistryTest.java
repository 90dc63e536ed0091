package org.jptxas.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

import java.util.List;
import org.jptxas.ori.diag.UnsupportedFeatureException;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;
import org.jptxas.isel.codegen.FamilyBackend;

class BackendRegistryTest {
    private static Backend backend(String id, String... targets) {
        Backend b = mock(Backend.class);
        when(b.id()).thenReturn(id);
        when(b.targets()).thenReturn(List.of(targets).stream().map(Target::of).toList());
        return b;
    }

    @Test
    void selectsTheOnlyBackendForATarget() throws Exception {
        Backend a = backend("a", "sm_80", "sm_86");
        Backend b = backend("b", "sm_90");
        BackendRegistry r = BackendRegistry.of(List.of(b, a));
        assertSame(a, r.forTarget(Target.of("sm_86")));
        assertSame(b, r.forTarget(Target.of("sm_90")));
        assertEquals(List.of("a", "b"), r.backends().stream().map(Backend::id).toList());
        assertEquals(List.of("sm_80", "sm_86", "sm_90"), r.targets().keySet().stream().map(Target::name).toList());
    }

    @Test
    void noBackendIsAClearError() {
        BackendRegistry r = BackendRegistry.of(List.of(backend("a", "sm_80")));
        BackendSelectionException e = assertThrows(BackendSelectionException.class, () -> r.forTarget(Target.of("sm_75")));
        assertEquals("No installed backend serves target 'sm_75'", e.getMessage());
        BackendSelectionException none = assertThrows(BackendSelectionException.class,
                () -> BackendRegistry.of(List.of()).forTarget(Target.of("sm_75")));
        assertTrue(none.getMessage().contains("no backends are installed"), none.getMessage());
    }

    @Test
    void twoBackendsForOneTargetIsAClearError() {
        BackendRegistry r = BackendRegistry.of(List.of(backend("a", "sm_80"), backend("b", "sm_80", "sm_86")));
        BackendSelectionException e = assertThrows(BackendSelectionException.class, () -> r.forTarget(Target.of("sm_80")));
        assertTrue(e.getMessage().startsWith("Target 'sm_80' is served by more than one backend: a ("), e.getMessage());
        assertTrue(e.getMessage().contains(", b ("), e.getMessage());
    }

    @Test
    void discoveryOnTheModuleClassPathFindsNoBackend() {
        // isel-common itself ships no backend; discovery must not invent one.
        BackendRegistry r = BackendRegistry.discover(getClass().getClassLoader());
        assertTrue(r.backends().isEmpty());
        assertTrue(r.loadProblems().isEmpty());
    }

    @Test
    void familyBackendServesTheTargetsOfItsBackendJson() {
        FamilyBackend b = new org.jptxas.spi.fixture.FixtureBackend();
        assertEquals("fixture", b.id());
        assertEquals(List.of("sm_89", "sm_90"), b.targets().stream().map(Target::name).toList());
        assertTrue(b.description(Target.of("sm_89")).orElseThrow().codeGeneration());
        assertEquals(1024, b.description(Target.of("sm_90")).orElseThrow().cubin().reservedShared());
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> b.compile(
                new CompileRequest(new OriModule("k.ptx", Target.of("sm_90"), List.of()), Target.of("sm_90"),
                        CompileOptions.defaults())));
        assertEquals("Code generation for sm_90 is not yet supported by backend fixture", e.getMessage());
    }

    @Test
    void aBackendJsonWithAnUnknownFeatureOrFlavourNamesTheFileAndTheTarget() {
        org.jptxas.tables.TableException feature = assertThrows(org.jptxas.tables.TableException.class,
                () -> BackendDescriptions.read(BackendRegistryTest.class, "/org/jptxas/spi/fixture/badfeature/"));
        assertTrue(feature.getMessage().contains("badfeature/backend.json") && feature.getMessage().contains("sm_80")
                && feature.getMessage().contains("NO_SUCH_FEATURE"), feature.getMessage());
        org.jptxas.tables.TableException missing = assertThrows(org.jptxas.tables.TableException.class,
                () -> BackendDescriptions.read(BackendRegistryTest.class, "/org/jptxas/spi/fixture/nocubin/"));
        assertTrue(missing.getMessage().contains("cubin"), missing.getMessage());
    }
}
