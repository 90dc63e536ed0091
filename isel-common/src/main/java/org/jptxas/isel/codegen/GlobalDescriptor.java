package org.jptxas.isel.codegen;

import java.util.BitSet;
import java.util.List;
import org.jptxas.ori.ir.Addr;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.CBank;
import org.jptxas.ori.ir.Guard;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.OriFunction;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;
import org.jptxas.ori.ir.Src;
import org.jptxas.ori.opcode.OriOpcodes;

/**
 * The global memory descriptor of sm_80 … sm_89: their global and generic accesses ({@code LDG.E}, {@code STG.E},
 * {@code LD.E}, {@code ATOMG.E}, {@code RED.E}, {@code LDGSTS.E}, ...) read a 64-bit descriptor from a uniform register
 * pair named in bits nvdisasm does not print (the SASS overlay's {@code descriptorFields}); the encoder writes
 * {@link #PAIR} there, as ptxas names the pair it loads.
 * After register allocation this stage loads it, {@code ULDC.64 UR4, c[0x0][0x118]}, at the function's entry; any
 * allocated use of UR4 … UR7 is first moved to a free aligned quad, so the pair stays the descriptor throughout.
 * (sm_90 names the descriptor in the text, {@code desc[URx]}; the legaliser provides it there.)
 */
final class GlobalDescriptor {
    static final int PAIR = 4;

    private GlobalDescriptor() {}

    /**
     * Inserts the descriptor load from bank 0 at {@code source} (the driver's place for it) when {@code f} accesses
     * global memory; false when no UR quad was free.
     */
    static boolean install(OriFunction f, int source) {
        if (!usesGlobalMemory(f)) {
            return true;
        }
        BitSet used = new BitSet();
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                RegRewriter.rewrite(in, r -> {
                    if (r.file() == RegFile.UR && !r.isZero() && !r.virtual()) {
                        used.set(r.index(), r.index() + r.width());
                    }
                    return r;
                });
            }
        }
        if (used.get(PAIR, PAIR + 4).cardinality() > 0) {
            int quad = -1;
            for (int q = 8; q + 4 <= RegFile.UR.count(); q += 4) {
                if (used.get(q, q + 4).isEmpty()) {
                    quad = q;
                    break;
                }
            }
            if (quad < 0) {
                return false;
            }
            int to = quad;
            for (BasicBlock b : f.body().blocks()) {
                for (Instr in : b.instrs()) {
                    RegRewriter.rewrite(in, r -> r.file() == RegFile.UR && !r.virtual() && !r.isZero()
                            && r.index() >= PAIR && r.index() < PAIR + 4 ? Reg.phys(RegFile.UR, r.index() - PAIR + to, r.comps()) : r);
                }
            }
        }
        Instr load = new Instr(OriOpcodes.get().byName("ULDC").orElseThrow(), List.of("64"),
                List.of(Reg.phys(RegFile.UR, PAIR, 2)), List.of(Src.of(CBank.of(0, source))), Guard.ALWAYS, 0);
        f.body().block(0).instrs().add(0, load);
        return true;
    }

    static boolean usesGlobalMemory(OriFunction f) {
        for (BasicBlock b : f.body().blocks()) {
            for (Instr in : b.instrs()) {
                switch (in.op().name()) {
                    case "LDG", "STG", "LD", "ST", "ATOMG", "ATOM", "RED", "LDGSTS" -> {
                        if (in.srcs().stream().anyMatch(s -> s.value() instanceof Addr a && a.wide())) {
                            return true;
                        }
                    }
                    default -> { }
                }
            }
        }
        return false;
    }
}
