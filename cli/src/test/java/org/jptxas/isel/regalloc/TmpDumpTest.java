package org.jptxas.isel.regalloc;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.ori.analysis.IrPrinter;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;

class TmpDumpTest {
    @Test
    void dump() throws Exception {
        Path p = Path.of(System.getProperty("dump.file", "../kernels/vec_add_i32/vec_add_i32.ptx"));
        OriModule m = new PtxFrontEnd(Target.of("sm_80")).check(p.getFileName().toString(), Files.readString(p)).lower();
        for (OriFunction f : m.functions()) {
            System.out.println(IrPrinter.print(f));
            System.out.println(RegisterAllocator.allocate(f, RegisterLimits.of(Target.of("sm_80")), true));
            System.out.println(IrPrinter.print(f));
        }
    }
}
