package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.AsyncCopies;
import org.jptxas.simulator.memory.AddressSpace;
import org.jptxas.simulator.memory.GlobalMemory;
import org.jptxas.simulator.memory.MemoryAccessException;
import org.jptxas.simulator.memory.Region;

/**
 * The SASS of {@code cp.async}: {@code LDGSTS.E[.BYPASS][.64|.128][.ZFILL] [Rs+imm], [Rg.64+imm]{, P}} copies 4, 8
 * or 16 bytes from global to shared memory ({@link AsyncCopies}: it lands at the wait). P false reads nothing (all
 * zeros). With {@code .ZFILL} the global address's low bits (address mod size) are the number of trailing bytes to
 * fill with zeros, and the copy reads the rest from the address rounded down; without it both addresses must be
 * aligned to the size. {@code LDGDEPBAR} closes a group; {@code DEPBAR.LE SB0, n} waits until at most n groups are
 * in flight.
 */
final class AsyncCopyOps {
    private AsyncCopyOps() {}

    static void ldgsts(SassOp op, AsyncCopies copies, Region shared, GlobalMemory global, long s, long g, boolean read) {
        int size = op.has("128") ? 16 : op.has("64") ? 8 : 4;
        int fill = op.has("ZFILL") ? (int) (g & (size - 1)) : 0;
        long from = g - fill;
        if ((from & (size - 1)) != 0) {
            throw new MemoryAccessException(AddressSpace.GLOBAL, g, size, "misaligned");
        }
        if ((s & (size - 1)) != 0) {
            throw new MemoryAccessException(AddressSpace.SHARED, s, size, "misaligned");
        }
        byte[] data = new byte[read ? size - fill : 0];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) global.load(from + i, 1);
        }
        copies.issue(shared, s, data, size);
    }

    /** The n of {@code DEPBAR.LE SB0, n} (the copy groups it leaves in flight), or -1 for another DEPBAR. */
    static int copyGroupWait(SassOp op) {
        List<SassOperand> o = op.operands();
        if (!op.has("LE") || o.size() != 2 || !(o.get(0) instanceof SassOperand.Scoreboard sb) || sb.index() != 0
                || !(o.get(1) instanceof SassOperand.Imm n)) {
            return -1;
        }
        return (int) n.bits();
    }
}
