package org.jptxas.frontend.ptx.lower;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jptxas.frontend.ptx.PtxFrontEnd;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.target.Target;
import org.junit.jupiter.api.Test;

class DebugDumpTest {
    @Test
    void dump() throws Exception {
        String file = System.getenv("DUMP_FILE");
        if (file == null) {
            return;
        }
        String grep = System.getenv("DUMP_GREP");
        var m = new PtxFrontEnd(Target.of(System.getenv().getOrDefault("DUMP_SM", "sm_80"))).check("x.ptx",
                Files.readString(Path.of(file)));
        var mod = System.getenv("DUMP_NOINLINE") != null ? m.lowerWithoutInlining() : m.lower();
        for (OriFunction f : mod.functions()) {
            for (BasicBlock b : f.body().blocks()) {
                for (Instr in : b.instrs()) {
                    String t = in.toString();
                    if (grep == null || t.matches(".*(" + grep + ")\\b.*")) {
                        System.out.println(f.name() + " " + b + " line " + in.line() + ": " + t);
                    }
                }
            }
        }
    }
}
