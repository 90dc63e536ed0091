package org.jptxas.isel.codegen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.util.ArrayList;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.OriModule;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.target.Target;
import org.jptxas.sass.SassAssembler;
import org.jptxas.spi.CompileOptions;
import org.jptxas.spi.TargetDescription;
import org.jptxas.spi.TestTargets;
import org.junit.jupiter.api.Test;

/** The bring-up emitter's lines are typed, the descriptor load it adds on sm_90 included. */
class PassThroughSassEmitterTest {
    @Test
    void theDescriptorLoadIsATypedLine() throws Exception {
        String arch = "sm_90";
        TargetDescription d = TestTargets.of(arch);
        FunctionBody body = new FunctionBody();
        BasicBlock b = body.addBlock(null);
        b.instrs().add(SaxpyOri.op("LDG", List.of("E"), List.of(Reg.phys(RegFile.R, 0, 1)),
                Addr.of(Reg.phys(RegFile.R, 2, 2), 0)));
        b.instrs().add(SaxpyOri.op("EXIT", List.of(), List.of()));
        OriFunction f = new OriFunction("k", true, 1, body);
        OriModule m = new OriModule("k.ptx", Target.of(arch), List.of(f));
        List<CodeLine> code = new PassThroughSassEmitter().emit(f,
                new CodegenContext(m, f, d, CompileOptions.defaults(), new ArrayList<>()));
        CodeLine load = code.get(0);
        assertNotNull(load.op(), load.text());
        String text = "ULDC.64 UR4, c[0x0][0x" + Integer.toHexString(TestTargets.profile(arch).memoryDescriptor()) + "]";
        assertEquals(text, load.text());
        assertEquals(new SassAssembler(d.isa()).select(text, 0, name -> 0), load.op());
        for (CodeLine line : code) {
            assertNotNull(line.op(), line.text());
        }
    }
}
