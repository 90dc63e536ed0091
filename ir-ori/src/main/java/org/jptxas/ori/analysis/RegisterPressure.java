package org.jptxas.ori.analysis;

import java.util.BitSet;
import java.util.List;
import org.jptxas.ori.ir.BasicBlock;
import org.jptxas.ori.ir.FunctionBody;
import org.jptxas.ori.ir.Instr;
import org.jptxas.ori.ir.Reg;
import org.jptxas.ori.ir.RegFile;

/**
 * Per register file, how many 32-bit registers hold virtual values before each instruction and at each block's end
 * (a tuple counts its width), and each block's peak, walking each block backward from its live-out set. An estimate
 * before allocation: what a pass that lengthens live ranges asks so as not to raise the function's peak, which is
 * what the register count follows. {@link #add} records a lengthened range.
 */
public final class RegisterPressure {
    private static final int FILES = RegFile.values().length;
    private final Liveness live;
    private final int[] peak;
    /** Per block, per point (before each instruction, then the block's end), per file. */
    private final int[][] at;

    public RegisterPressure(FunctionBody body, Cfg cfg) {
        live = new Liveness(body, cfg);
        int[] base = new int[FILES + 1];
        for (RegFile f : RegFile.values()) {
            base[f.ordinal() + 1] = base[f.ordinal()] + body.virtualCount(f);
        }
        int[] width = new int[base[FILES]];
        byte[] file = new byte[base[FILES]];
        for (BasicBlock b : body.blocks()) {
            for (Instr in : b.instrs()) {
                for (Reg r : in.dsts()) {
                    note(r, live, width, file);
                }
                for (Reg r : in.usedRegs()) {
                    note(r, live, width, file);
                }
            }
        }
        List<BasicBlock> blocks = body.blocks();
        peak = new int[blocks.size() * FILES];
        at = new int[blocks.size()][];
        BitSet set = new BitSet(base[FILES]);
        int[] now = new int[FILES];
        for (BasicBlock b : blocks) {
            live.liveOutInto(b.id(), set);
            java.util.Arrays.fill(now, 0);
            for (int k = set.nextSetBit(0); k >= 0; k = set.nextSetBit(k + 1)) {
                now[file[k]] += width[k];
            }
            int slot = b.id() * FILES;
            raise(slot, now);
            List<Instr> instrs = b.instrs();
            int[] points = new int[(instrs.size() + 1) * FILES];
            at[b.id()] = points;
            System.arraycopy(now, 0, points, instrs.size() * FILES, FILES);
            for (int i = instrs.size() - 1; i >= 0; i--) {
                Instr in = instrs.get(i);
                // just after the instruction its destinations hold values, read later or not
                int[] after = now.clone();
                for (Reg d : in.dsts()) {
                    if (d.virtual() && !set.get(live.key(d.whole()))) {
                        after[d.file().ordinal()] += d.whole().comps();
                    }
                }
                raise(slot, after);
                if (in.guard().isAlways()) {
                    for (Reg d : in.dsts()) {
                        int k = d.virtual() && !d.isPart() ? live.key(d.whole()) : -1;
                        if (k >= 0 && set.get(k)) {
                            set.clear(k);
                            now[file[k]] -= width[k];
                        }
                    }
                }
                for (Reg u : in.usedRegs()) {
                    int k = u.virtual() ? live.key(u.whole()) : -1;
                    if (k >= 0 && !set.get(k)) {
                        set.set(k);
                        now[file[k]] += width[k];
                    }
                }
                raise(slot, now);
                System.arraycopy(now, 0, points, i * FILES, FILES);
            }
        }
    }

    /** The liveness the estimate was made from. */
    public Liveness liveness() {
        return live;
    }

    /** Registers of {@code file} live before instruction {@code index} of {@code block} ({@code index} = its size: the end). */
    public int at(int block, int index, RegFile file) {
        return at[block][index * FILES + file.ordinal()];
    }

    /** Records {@code width} more registers of {@code file} live before instruction {@code index} of {@code block}. */
    public void add(int block, int index, RegFile file, int width) {
        at[block][index * FILES + file.ordinal()] += width;
        peak[block * FILES + file.ordinal()] = Math.max(peak[block * FILES + file.ordinal()], at(block, index, file));
    }

    private static void note(Reg r, Liveness live, int[] width, byte[] file) {
        if (r.virtual()) {
            int k = live.key(r.whole());
            width[k] = Math.max(width[k], r.whole().comps());
            file[k] = (byte) r.file().ordinal();
        }
    }

    private void raise(int at, int[] now) {
        for (int f = 0; f < FILES; f++) {
            peak[at + f] = Math.max(peak[at + f], now[f]);
        }
    }

    /** The most registers of {@code file} live at once in {@code block}. */
    public int peak(int block, RegFile file) {
        return peak[block * FILES + file.ordinal()];
    }

    /** The most registers of {@code file} live at once in any of {@code blocks}. */
    public int peak(BitSet blocks, RegFile file) {
        int p = 0;
        for (int b = blocks.nextSetBit(0); b >= 0; b = blocks.nextSetBit(b + 1)) {
            p = Math.max(p, peak(b, file));
        }
        return p;
    }
}
