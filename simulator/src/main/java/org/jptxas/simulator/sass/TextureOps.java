package org.jptxas.simulator.sass;

import java.util.List;
import org.jptxas.simulator.exec.Fault;
import org.jptxas.simulator.exec.Texture;
import org.jptxas.simulator.sass.SassMachine.Stop;
import org.jptxas.simulator.sass.SassMachine.Thread;
import org.jptxas.simulator.sass.SassMachine.Warp;
import org.jptxas.simulator.sass.SassOperand.Reg;

/**
 * TEX and TLD with a bindless handle: {@code TEX.SCR.LL Rd2, Rd, Ra, Rb, 0x0, off, 2D{, mask}} (sm_75..89: the
 * handle is the 32-bit word at {@code c[0x0][4 off]}) and {@code TEX.LL Rd2, Rd, Ra, Rb, URh, 0x0, 2D{, mask}}
 * (sm_90: the low word of the uniform pair URh). TEX samples at float coordinates ({@link Texture#sample}), TLD
 * fetches at integer ones ({@link Texture#fetch}); the level of detail ({@code .LL} in Rb, {@code .LZ} zero) selects
 * nothing, there being no mipmaps. Coordinates fill Ra (two registers, or every coordinate with a uniform handle),
 * then Rb; the enabled components of the write mask (default 0xf) are packed, the first two into the pair Rd and the
 * rest into Rd2 (RZ discards them), as {@code org.jptxas.scheduler.sass.TextureOperands} reads the operand widths.
 */
final class TextureOps {
    private final SassMachine machine;

    TextureOps(SassMachine machine) {
        this.machine = machine;
    }

    void execute(SassOp op, Thread t, Warp w) {
        List<SassOperand> o = op.operands();
        int geometry = -1;
        for (int k = 4; k < o.size() && geometry < 0; k++) {
            if (o.get(k) instanceof SassOperand.Other g && g.text().matches("[123]D")) {
                geometry = k;
            }
        }
        if (geometry < 0 || o.size() < 6 || !(o.get(0) instanceof Reg rd2) || !(o.get(1) instanceof Reg rd)
                || !(o.get(2) instanceof Reg ra) || !(o.get(3) instanceof Reg rb)
                || op.has("SCR") == o.get(4) instanceof SassOperand.UReg) {
            throw machine.unimplemented(op);
        }
        int dims = ((SassOperand.Other) o.get(geometry)).text().charAt(0) - '0';
        int mask = geometry + 1 < o.size() && o.get(geometry + 1) instanceof SassOperand.Imm m ? (int) m.bits() & 0xf : 0xf;
        boolean uniform = o.get(4) instanceof SassOperand.UReg;
        long handle = uniform ? Integer.toUnsignedLong(w.ur[((SassOperand.UReg) o.get(4)).index()])
                : machine.operands.cbank(new SassOperand.CBank(0, -1, 4 * ((SassOperand.Imm) o.get(5)).bits(), false,
                        false), t, 4);
        int inRa = uniform ? dims : Math.min(2, dims);
        int[] coords = new int[dims];
        for (int d = 0; d < dims; d++) {
            coords[d] = d < inRa ? reg(t, ra, d) : reg(t, rb, d - inRa);
        }
        int[] words;
        try {
            Texture tex = machine.launch.texture(handle);
            if (op.opcode().equals("TLD")) {
                words = tex.fetch(machine.launch.global(), coords);
            } else {
                float[] f = new float[Math.max(dims, tex.rank())];
                for (int d = 0; d < dims; d++) {
                    f[d] = Float.intBitsToFloat(coords[d]);
                }
                words = tex.sample(machine.launch.global(), f);
            }
        } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException e) {
            throw new Stop(new Fault.InvalidExecution(machine.ref(t), op.where(), op.opcode() + ": " + e.getMessage()));
        }
        int slot = 0;
        for (int k = 0; k < 4; k++) {
            if ((mask >>> k & 1) != 0) {
                Reg to = slot < 2 ? rd : rd2;
                if (to.index() != 255) {
                    t.r[to.index() + slot % 2] = words[k];
                }
                slot++;
            }
        }
    }

    private static int reg(Thread t, Reg r, int k) {
        return r.index() == 255 ? 0 : t.r[r.index() + k];
    }
}
