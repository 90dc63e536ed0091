package org.jptxas.ori.opt;

import java.util.List;
import java.util.Map;
import org.jptxas.ori.analysis.Cfg;
import org.jptxas.ori.analysis.Dominators;
import org.jptxas.ori.analysis.LoopNesting;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;

/**
 * When {@link LocalArrayPromotion} leaves the frame in local memory because of its loops, as ptxas 13 does: one
 * innermost loop holds stores at computed offsets and at least twice as many loads at computed offsets (each round
 * reads several words to write one: the SDK's MersenneTwister reads two words of its 19-word state and writes one).
 * A rule fitted to what ptxas 13 does on sm_80 (nvcc -O3 kernels, 7-word arrays unless said): in local memory with
 * one computed store and three computed loads per round (7 and 19 words) and with MersenneTwister's two and one;
 * in registers with one store and one load per round ({@code r[k] += v}, {@code r[a] = r[b] + 1}), with a store
 * loop of six rounds and the loads after it or in an enclosing loop (nvcc's sinf/cosf reduction, inlined into
 * mri-q's loop), with a store loop of six rounds and a load loop after it, and with loads in a loop after
 * constant-offset stores. Not matched: ptxas also keeps in memory an array written by a store loop of unknown trip
 * count (index {@code i % 7}) and read after it or in a later loop, and a 19-word array written by a loop of 19
 * rounds and read after it; this rule promotes them.
 */
final class FrameLoopRule {
    private FrameLoopRule() {
    }

    /** Whether the frame stays in memory; {@code at} holds the accesses at known offsets (absent: computed). */
    static boolean keepsInMemory(FunctionBody body, Map<Instr, Long> at) {
        List<BasicBlock> blocks = body.blocks();
        Cfg cfg = Cfg.of(body);
        LoopNesting loops = new LoopNesting(cfg, new Dominators(cfg));
        int n = blocks.size();
        int[] stores = new int[n];
        int[] loads = new int[n];
        for (int b = 0; b < n; b++) {
            int header = loops.innermostHeader(b);
            if (header < 0) {
                continue;
            }
            for (Instr in : blocks.get(b).instrs()) {
                if (LocalArrayPromotion.isAccess(in) && !at.containsKey(in)) {
                    if (OpInfo.is(in, "STL")) {
                        stores[header]++;
                    } else {
                        loads[header]++;
                    }
                }
            }
        }
        for (int h = 0; h < n; h++) {
            if (stores[h] > 0 && loads[h] >= 2 * stores[h]) {
                return true;
            }
        }
        return false;
    }
}
