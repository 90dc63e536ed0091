package org.jptxas.cubin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The -v report of the fixture cubins against what {@code ptxas -v} printed when it wrote them. */
class ResourceReportTest {
    @Test
    void sm75RelocatableMatchesPtxas() {
        // ptxas -v -arch=sm_75 -c fixture.ptx, without the "Compile time" lines.
        String expected = """
                jptxas info    : 4 bytes gmem, 4 bytes cmem[3]
                jptxas info    : Function properties for twice
                    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
                jptxas info    : Compiling entry function 'empty' for 'sm_75'
                jptxas info    : Function properties for empty
                    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
                jptxas info    : Used 4 registers, used 0 barriers, 352 bytes cmem[0]
                jptxas info    : Compiling entry function 'axpy' for 'sm_75'
                jptxas info    : Function properties for axpy
                    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
                jptxas info    : Used 24 registers, used 2 barriers, 256 bytes smem, 368 bytes cmem[0]
                """;
        assertEquals(expected, ResourceReport.format("jptxas", Cubin.read(Fixtures.bytes("fixture_sm_75_c.cubin"))));
    }

    @Test
    void formatsEveryItem() {
        String s = ResourceReport.format("jptxas", "sm_80", new ResourceReport.ModuleUsage(24, List.<long[]>of(new long[] {4, 8})),
                List.of(new ResourceReport.FunctionUsage("k", true, 16, 4, 8, 22, 1, 0,
                        List.of(new long[] {0, 372}, new long[] {2, 8}))));
        assertEquals("""
                jptxas info    : 24 bytes gmem, 8 bytes cmem[4]
                jptxas info    : Compiling entry function 'k' for 'sm_80'
                jptxas info    : Function properties for k
                    16 bytes stack frame, 4 bytes spill stores, 8 bytes spill loads
                jptxas info    : Used 22 registers, used 1 barriers, 372 bytes cmem[0], 8 bytes cmem[2]
                """, s);
    }
}
